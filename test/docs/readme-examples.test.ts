/**
 * The curl examples of README.md and docs/*.md, run: every ```sh block of a document, in order, against
 * one fresh sandbox per document, each curl command line turned into the request curl would send. Each command must answer the status its
 * `# → NNN` line documents and the block's last answer must contain the ```json excerpt shown after it.
 * Variables set with NAME=$(…) carry ids from one example to the next, as in a shell session.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { testSandbox } from '../helpers/sandbox.ts';
import { curlRequest, jqRaw, parseCommand, projectOnto, readmeExamples } from './readme-curl.ts';

const ROOT = new URL('../../', import.meta.url);
/** README.md, then the docs pages that hold curl examples. */
const DOCUMENTS = [
  'README.md',
  ...readdirSync(new URL('docs/', ROOT))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`),
]
  .map((path) => ({ path, text: readFileSync(new URL(path, ROOT), 'utf8') }))
  .map((document) => ({ ...document, examples: readmeExamples(document.text) }))
  .filter((document) => document.examples.length > 0);
const BASE = 'http://127.0.0.1:4010';

/** The main jobs a newcomer looks for, each with at least one example under a heading naming it. */
const JOBS = [
  'Hosted session',
  'Sandbox ids',
  'Headless workflow',
  'Adverse media',
  'PEP and sanctions',
  'Phone checks',
  'Face compare and document scan',
  'Credit check',
  'Bank statement',
  'iGaming self-exclusion',
  'AML monitoring',
  'Control plane',
];

describe('curl examples of README.md and docs/', () => {
  it('has an example for every main job, each against 127.0.0.1:4010 with a fixture key', () => {
    expect(DOCUMENTS.map((document) => document.path)).toEqual(expect.arrayContaining(['README.md', 'docs/examples.md']));
    const headings = new Set(DOCUMENTS.flatMap((document) => document.examples.map((example) => example.heading)));
    expect(JOBS.filter((job) => !headings.has(job))).toEqual([]);
    for (const { path, examples } of DOCUMENTS) {
      for (const example of examples) {
        for (const command of example.commands.filter((c) => c.status !== undefined)) {
          expect(command.text, `${path}:${example.line}`).toMatch(/(http:\/\/127\.0\.0\.1:4010\/|"\$[A-Z_]+")/);
        }
      }
    }
    const keys = new Set(DOCUMENTS.flatMap((document) => [...document.text.matchAll(/x-api-key: (\w+)/g)].map((match) => match[1])));
    expect([...keys].sort()).toEqual(['sk_live_demo', 'sk_test_demo']);
  });

  it.each(DOCUMENTS)(
    'answers every example of $path as documented: status of each command, excerpt of the last answer',
    async ({ path, examples }) => {
      // Rate limits off: the whole tour runs on one frozen clock, where a bucket never refills.
      const sandbox = await testSandbox({ rateLimit: false });
      const variables: Record<string, string> = {};
      let commandsRun = 0;
      for (const example of examples) {
        const where = `${path}:${example.line} (${example.heading})`;
        let lastAnswer: unknown;
        for (const command of example.commands) {
          const step = parseCommand(command.text, variables);
          let output: string;
          if (step.curl) {
            const request = curlRequest(step.curl, ROOT);
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
      console.log(`${path} examples: ${examples.length} blocks, ${commandsRun} curl commands`);
      await sandbox.close();
    },
    60_000,
  );
});
