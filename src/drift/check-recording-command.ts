/**
 * `idv-sandbox check-recording FILE… [--out FILE]… [--seed N] [--fail-on-drift]`: replays recorded
 * traffic of the real service against a fresh in-process sandbox and reports where the two differ.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { parseArgs } from 'node:util';
import { formatForFile, type RenderContext } from '../platform/coverage/coverage-report.ts';
import { buildDriftReport, type DriftReport, driftMarkdown, renderDriftReport } from './drift-report.ts';
import { type Exchange, readRecording, RecordingError } from './recording.ts';
import { replay } from './replay.ts';

export const CHECK_RECORDING_USAGE = `Usage: idv-sandbox check-recording FILE... [options]

Replays recorded exchanges with the real service (HAR 1.2, or JSONL: one {request, response, startedAt} a
line) against a fresh in-process sandbox and reports where its answers differ in shape.

  --out <file>       write the report: .json, .md, .xml (JUnit) or .html (repeatable); the Markdown
                     report goes to standard output either way
  --seed <n>         the sandbox's seed (default 1)
  --fail-on-drift    exit 1 when anything differs or an operation is not served (for CI)
  --help             this text`;

export interface CommandIo {
  out(text: string): void;
  error(text: string): void;
}

const consoleIo: CommandIo = { out: (text) => console.log(text), error: (text) => console.error(text) };

/** Files in the order given, each in its own order: one recording, numbered through. */
function readAll(files: readonly string[]): Exchange[] {
  return files.flatMap((file) => readRecording(readFileSync(file, 'utf8'), file)).map((exchange, index) => ({ ...exchange, number: index + 1 }));
}

/** The recording's last instant stands for "now" in JUnit's timestamp, so the same recording gives the same report. */
function contextOf(exchanges: readonly Exchange[]): RenderContext {
  const instants = exchanges.map((e) => Date.parse(e.startedAt ?? '')).filter((at) => !Number.isNaN(at));
  return { at: new Date(instants.length === 0 ? 0 : Math.max(...instants)).toISOString(), hostname: 'localhost' };
}

/** The exit status: 0, 1 for drift under --fail-on-drift or a report that could not be written, 2 for a bad call. */
export async function checkRecordingCommand(argv: string[], io: CommandIo = consoleIo): Promise<number> {
  let parsed: ReturnType<typeof parseCall>;
  try {
    parsed = parseCall(argv);
  } catch (error) {
    io.error(`idv-sandbox check-recording: ${(error as Error).message}\n\n${CHECK_RECORDING_USAGE}`);
    return 2;
  }
  if (parsed === 'help') {
    io.out(CHECK_RECORDING_USAGE);
    return 0;
  }
  let report: DriftReport;
  let exchanges: Exchange[];
  try {
    exchanges = readAll(parsed.files);
    report = buildDriftReport(await replay(exchanges, parsed.seed === undefined ? {} : { seed: parsed.seed }));
  } catch (error) {
    if (!(error instanceof RecordingError) && !(error as NodeJS.ErrnoException).code) throw error;
    const reason =
      error instanceof RecordingError
        ? error.message
        : `cannot read ${(error as NodeJS.ErrnoException).path ?? 'the recording'} (${(error as NodeJS.ErrnoException).code})`;
    io.error(`idv-sandbox check-recording: ${reason}`);
    return 2;
  }
  io.out(driftMarkdown(report));
  const context = contextOf(exchanges);
  for (const file of parsed.outs) {
    try {
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, renderDriftReport(report, formatForFile(file), context));
    } catch (error) {
      io.error(`idv-sandbox check-recording: could not write the report ${file}: ${(error as Error).message}`);
      return 1;
    }
  }
  return parsed.failOnDrift && report.drift ? 1 : 0;
}

function parseCall(argv: string[]) {
  const { values, positionals } = parseArgs({
    args: argv,
    options: { out: { type: 'string', multiple: true }, seed: { type: 'string' }, 'fail-on-drift': { type: 'boolean' }, help: { type: 'boolean' } },
    allowPositionals: true,
    strict: true,
  });
  if (values.help) return 'help' as const;
  if (positionals.length === 0) throw new Error('name at least one recording (a .har file or a .jsonl file).');
  const seed = values.seed === undefined ? undefined : Number(values.seed);
  if (seed !== undefined && !Number.isSafeInteger(seed)) throw new Error(`--seed ${values.seed}: expected an integer.`);
  return { files: positionals, outs: values.out ?? [], seed, failOnDrift: values['fail-on-drift'] === true };
}
