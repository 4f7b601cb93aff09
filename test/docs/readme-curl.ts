/**
 * Reads README.md's curl examples and turns each curl command line into a request, so a test can run them
 * against the app in-process (no curl binary, no socket) exactly as curl would send them.
 *
 * README conventions (said in its "Try it" section):
 * - an example is a ```sh block; each command is followed by `# → <status>`; other `#` lines are comments;
 * - `NAME=$(curl …)` keeps the answer in a variable, `NAME=$(curl … | jq -r '.path')` or
 *   `NAME=$(echo "$OTHER" | jq -r '.path')` one member of it; later commands use `$NAME`;
 * - a ```json block right after a ```sh block is an excerpt of the answer of the block's last command;
 * - a block right after a `<!-- ci: <name> -->` line is run by the Docker CI script, against the image.
 */
import { readFileSync } from 'node:fs';
import { extname } from 'node:path';
import { parse, type ParseEntry } from 'shell-quote';
import { expect } from 'vitest';
import type { TestSandbox } from '../helpers/sandbox.ts';

export interface ReadmeCommand {
  /** One logical shell line (continuations joined). */
  text: string;
  /** The status its `# → NNN` comment documents (curl commands only). */
  status?: number;
}

export interface ReadmeExample {
  /** 1-based line of the ```sh fence in README.md. */
  line: number;
  /** The nearest heading above the block. */
  heading: string;
  commands: ReadmeCommand[];
  /** The ```json excerpt shown after the block, parsed. */
  excerpt?: unknown;
}

const STATUS_COMMENT = /^#\s*→\s*(\d{3})\b/;

/** Every ```sh block of the markdown that runs curl, with its commands and the excerpt shown after it. */
export function readmeExamples(markdown: string): ReadmeExample[] {
  const lines = markdown.split('\n');
  const examples: ReadmeExample[] = [];
  let heading = '';
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] as string;
    if (/^#{1,6} /.test(line)) heading = line.replace(/^#+ /, '');
    if (line.trim() !== '```sh') continue;
    // A block marked <!-- ci: … --> runs against the Docker image in .ci/run (scripts/docker/ci-test.sh), not in-process.
    if (/^<!-- ci: [\w-]+ -->$/.test(lines[index - 1]?.trim() ?? '')) continue;
    const start = index;
    const body: string[] = [];
    while (lines[++index]?.trim() !== '```') {
      if (index >= lines.length) throw new Error(`README.md:${start + 1}: the sh block is not closed`);
      body.push(lines[index] as string);
    }
    // Blocks without curl (set-up commands) are not examples.
    if (!body.some((text) => /^\s*(\w+=\$\()?curl\s/.test(text))) continue;
    const example: ReadmeExample = { line: start + 1, heading, commands: logicalLines(body.join('\n'), start + 1) };
    let next = index + 1;
    while (lines[next]?.trim() === '') next++;
    if (lines[next]?.trim() === '```json') {
      const json: string[] = [];
      while (lines[++next]?.trim() !== '```') json.push(lines[next] as string);
      example.excerpt = JSON.parse(json.join('\n'));
    }
    examples.push(example);
  }
  return examples;
}

/** Splits a block into commands: backslash-newline continues a line, so does a newline inside quotes. */
function logicalLines(block: string, fenceLine: number): ReadmeCommand[] {
  const commands: ReadmeCommand[] = [];
  let current = '';
  let quote: '"' | "'" | null = null;
  const flush = () => {
    const text = current.trim();
    current = '';
    if (text === '') return;
    const status = STATUS_COMMENT.exec(text);
    if (status) {
      const previous = commands.at(-1);
      if (!previous || previous.status !== undefined || !isCurl(previous.text))
        throw new Error(`README.md block at line ${fenceLine}: "${text}" follows no curl command`);
      previous.status = Number(status[1]);
    } else if (!text.startsWith('#')) {
      commands.push({ text });
    }
  };
  for (let index = 0; index < block.length; index++) {
    const char = block[index] as string;
    if (quote === null && char === '\\' && block[index + 1] === '\n') {
      index++;
      current += ' ';
      continue;
    }
    if (quote === null && char === '#' && current.trim() === '') {
      // A comment runs to the end of its line, whatever quotes it holds.
      const end = block.indexOf('\n', index);
      current = block.slice(index, end === -1 ? block.length : end);
      index = end === -1 ? block.length : end;
      flush();
      continue;
    }
    if (quote === '"' && char === '\\') {
      current += char + (block[++index] ?? '');
      continue;
    }
    if (char === "'" || char === '"') quote = quote === null ? char : quote === char ? null : quote;
    if (char === '\n' && quote === null) flush();
    else current += char;
  }
  flush();
  for (const command of commands) {
    if (isCurl(command.text) && command.status === undefined)
      throw new Error(`README.md block at line ${fenceLine}: "${command.text.slice(0, 60)}…" has no "# → <status>" line after it`);
  }
  return commands;
}

const isCurl = (text: string) => /^(\w+=\$\()?curl\s/.test(text);

export interface ShellStep {
  /** The variable the command assigns, if any. */
  assign?: string;
  /** The curl arguments (after "curl"), or undefined for `echo "$X"`. */
  curl?: string[];
  /** For echo: the echoed text. */
  echo?: string;
  /** A jq -r path applied to the output. */
  jqPath?: string;
}

/** Parses one command with the variables bound so far; an unknown variable is an error, never an empty string. */
export function parseCommand(text: string, variables: Record<string, string>): ShellStep {
  const env = (name: string) => {
    // shell-quote asks for the empty name at "$(": answering undefined keeps the "$".
    if (name === '') return undefined;
    const value = variables[name];
    if (value === undefined) throw new Error(`README command uses $${name}, which no earlier example sets: ${text}`);
    return value;
  };
  const tokens = parse(text, env);
  const words = (entries: ParseEntry[]) =>
    entries.map((entry) => {
      if (typeof entry !== 'string') throw new Error(`README command uses shell syntax the examples do not support (${JSON.stringify(entry)}): ${text}`);
      return entry;
    });
  let assign: string | undefined;
  let inner = tokens;
  const first = tokens[0];
  if (typeof first === 'string' && /^[A-Z_][A-Z0-9_]*=\$$/.test(first)) {
    const open = tokens[1];
    const close = tokens.at(-1);
    if (!isOp(open, '(') || !isOp(close, ')')) throw new Error(`README assignment must read NAME=$(…): ${text}`);
    assign = first.slice(0, -2);
    inner = tokens.slice(2, -1);
  }
  const pipe = inner.findIndex((entry) => isOp(entry, '|'));
  const command = words(pipe === -1 ? inner : inner.slice(0, pipe));
  let jqPath: string | undefined;
  if (pipe !== -1) {
    const filter = words(inner.slice(pipe + 1));
    if (filter[0] !== 'jq' || filter[1] !== '-r' || filter.length !== 3) throw new Error(`README examples pipe only into jq -r '<path>': ${text}`);
    jqPath = filter[2];
  }
  const step: ShellStep = { ...(assign ? { assign } : {}), ...(jqPath ? { jqPath } : {}) };
  if (command[0] === 'curl') return { ...step, curl: command.slice(1) };
  if (command[0] === 'echo' && command.length === 2 && jqPath) return { ...step, echo: command[1] };
  throw new Error(`README examples run curl (or echo "$VAR" | jq): ${text}`);
}

const isOp = (entry: ParseEntry | undefined, op: string) => typeof entry === 'object' && entry !== null && 'op' in entry && entry.op === op;

/** `.a.b[0].c` of a JSON text, as jq -r prints it (strings bare, everything else as JSON). */
export function jqRaw(json: string, path: string): string {
  if (!/^(\.[A-Za-z_][A-Za-z0-9_]*|\[\d+\])+$/.test(path))
    throw new Error(`README jq paths are plain member/index paths such as .signed_urls[0].file_key, not ${path}`);
  let value: unknown = JSON.parse(json);
  for (const [, member, index] of path.matchAll(/\.([A-Za-z_][A-Za-z0-9_]*)|\[(\d+)\]/g)) {
    value = value === null || value === undefined ? null : (value as Record<string, unknown>)[member ?? Number(index)];
  }
  if (value === undefined) value = null;
  return typeof value === 'string' ? value : JSON.stringify(value);
}

export interface CurlRequest {
  method: string;
  url: string;
  headers: Headers;
  body?: string | Uint8Array<ArrayBuffer> | FormData;
}

const MEDIA_TYPES: Record<string, string> = {
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.png': 'image/png',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.bmp': 'image/bmp',
  '.tiff': 'image/tiff',
  '.json': 'application/json',
};

/**
 * The request curl sends for these arguments (the options README uses; any other is refused so the test
 * never guesses). Files are read relative to `root`, as when the commands run from the repository root.
 */
export function curlRequest(args: string[], root: URL): CurlRequest {
  const headers = new Headers();
  const data: string[] = [];
  let binary: Uint8Array<ArrayBuffer> | undefined;
  let form: FormData | undefined;
  let upload: Uint8Array<ArrayBuffer> | undefined;
  let method: string | undefined;
  let url: string | undefined;
  const file = (name: string) => new Uint8Array(readFileSync(new URL(name, root)));
  for (let index = 0; index < args.length; index++) {
    const arg = args[index] as string;
    const value = () => {
      const next = args[++index];
      if (next === undefined) throw new Error(`curl ${arg} needs a value`);
      return next;
    };
    switch (arg) {
      case '-s':
      case '--silent':
      case '-S':
      case '--show-error':
      case '-sS':
        break;
      case '-X':
      case '--request':
        method = value();
        break;
      case '-H':
      case '--header': {
        const header = value();
        const colon = header.indexOf(':');
        headers.append(header.slice(0, colon).trim(), header.slice(colon + 1).trim());
        break;
      }
      case '-d':
      case '--data':
      case '--data-ascii': {
        // curl reads @file stripping carriage returns and newlines.
        const text = value();
        data.push(
          text.startsWith('@')
            ? Buffer.from(file(text.slice(1)))
                .toString('utf8')
                .replace(/[\r\n]/g, '')
            : text,
        );
        break;
      }
      case '--data-raw':
        data.push(value());
        break;
      case '--data-binary': {
        const text = value();
        binary = text.startsWith('@') ? file(text.slice(1)) : new TextEncoder().encode(text);
        break;
      }
      case '-F':
      case '--form': {
        const field = value();
        const equals = field.indexOf('=');
        const name = field.slice(0, equals);
        const content = field.slice(equals + 1);
        form ??= new FormData();
        if (content.startsWith('@')) {
          const path = content.slice(1);
          form.append(name, new Blob([file(path)], { type: MEDIA_TYPES[extname(path)] ?? 'application/octet-stream' }), path.split('/').at(-1));
        } else {
          form.append(name, content);
        }
        break;
      }
      case '-T':
      case '--upload-file':
        upload = file(value());
        break;
      default:
        if (arg.startsWith('-'))
          throw new Error(`README curl option ${arg} is not one the examples test understands: use -s, -X, -H, -d, --data-binary, -F or -T`);
        if (url !== undefined) throw new Error(`curl given two URLs: ${url} and ${arg}`);
        url = arg;
    }
  }
  if (url === undefined) throw new Error('curl without a URL');
  const bodies = [data.length > 0, binary !== undefined, form !== undefined, upload !== undefined].filter(Boolean).length;
  if (bodies > 1) throw new Error('curl given more than one kind of body (-d, --data-binary, -F, -T)');
  let body: CurlRequest['body'];
  if (data.length > 0 || binary !== undefined) {
    body = binary ?? data.join('&');
    if (!headers.has('content-type')) headers.set('content-type', 'application/x-www-form-urlencoded');
  } else if (form) {
    body = form;
  } else if (upload) {
    body = upload;
  }
  headers.set('host', new URL(url).host);
  return { method: method ?? (upload ? 'PUT' : body === undefined ? 'GET' : 'POST'), url, headers, ...(body === undefined ? {} : { body }) };
}

/** The part of `actual` that has the shape of `excerpt` (members it names, array items by position). */
export function projectOnto(actual: unknown, excerpt: unknown): unknown {
  if (Array.isArray(excerpt)) return Array.isArray(actual) ? excerpt.map((item, index) => projectOnto(actual[index], item)) : actual;
  if (excerpt !== null && typeof excerpt === 'object') {
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) return actual;
    return Object.fromEntries(
      Object.keys(excerpt)
        .filter((key) => key in actual)
        .map((key) => [key, projectOnto((actual as Record<string, unknown>)[key], (excerpt as Record<string, unknown>)[key])]),
    );
  }
  return actual;
}

const BASE = 'http://127.0.0.1:4010';

/**
 * Runs a document's examples in order against one sandbox, as a shell session would: each command must
 * answer the status its `# → NNN` line documents, and a block's last answer must contain the excerpt
 * shown after it. Returns how many curl commands ran.
 */
export async function runCurlExamples(examples: readonly ReadmeExample[], sandbox: TestSandbox, file: string, root: URL): Promise<number> {
  const variables: Record<string, string> = {};
  let commandsRun = 0;
  for (const example of examples) {
    const where = `${file}:${example.line} (${example.heading})`;
    let lastAnswer: unknown;
    for (const command of example.commands) {
      const step = parseCommand(command.text, variables);
      let output: string;
      if (step.curl) {
        const request = curlRequest(step.curl, root);
        expect(request.url.startsWith(`${BASE}/`), `${where}: ${request.url} is not on ${BASE}`).toBe(true);
        const response = await sandbox.app.request(request.url, {
          method: request.method,
          headers: request.headers,
          ...(request.body === undefined ? {} : { body: request.body }),
        });
        output = await response.text();
        expect(response.status, `${where}: ${command.text}\nanswered ${output}`).toBe(command.status);
        commandsRun++;
      } else {
        output = step.echo as string;
      }
      const value = step.jqPath ? jqRaw(output, step.jqPath) : output;
      if (step.assign) {
        expect(value, `${where}: ${step.assign} came out empty or null`).not.toMatch(/^(null)?$/);
        variables[step.assign] = value;
      }
      lastAnswer = value;
    }
    if (example.excerpt !== undefined) {
      const answer = JSON.parse(lastAnswer as string);
      expect(projectOnto(answer, example.excerpt), `${where}: the answer no longer contains the excerpt shown`).toStrictEqual(example.excerpt);
    }
  }
  return commandsRun;
}
