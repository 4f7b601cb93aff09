/**
 * What the process does with integration coverage: `--coverage-out FILE` writes the report when the
 * server stops (format from the extension), `--require-coverage SPEC` turns it into the exit status, and
 * `idv-sandbox coverage init [FILE]` writes a starter class list from the catalog.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { checkGate, starterRequirementFile, type CoverageRequirement } from './platform/coverage/coverage-gate.ts';
import { formatForFile, type RenderContext, renderReport, type CoverageReport } from './platform/coverage/coverage-report.ts';
import { loadAllAreas } from './app.ts';
import { createSandbox } from './sandbox.ts';

export const DEFAULT_REQUIREMENT_FILE = 'idv-sandbox-coverage.txt';

export interface CoverageExit {
  coverageOut?: string;
  requireCoverage?: CoverageRequirement;
}

/** Writes the report and checks the gate; the exit status of the stop (0, or 1 when the gate is not met). */
export function finishCoverage(
  report: CoverageReport,
  context: RenderContext,
  options: CoverageExit,
  log: { info(m: string): void; error(m: string): void },
): number {
  if (options.coverageOut) {
    try {
      mkdirSync(dirname(options.coverageOut), { recursive: true });
      writeFileSync(options.coverageOut, renderReport(report, formatForFile(options.coverageOut), context));
      log.info(`idv-sandbox: coverage report (${report.percent}%) written to ${options.coverageOut}`);
    } catch (error) {
      log.error(`idv-sandbox: could not write the coverage report (--coverage-out): ${(error as Error).message}`);
      return 1;
    }
  }
  if (!options.requireCoverage) return 0;
  const gate = checkGate(report, options.requireCoverage, options.coverageOut);
  (gate.met ? log.info : log.error)(gate.lines.map((line) => `idv-sandbox: ${line}`).join('\n'));
  return gate.met ? 0 : 1;
}

/** `idv-sandbox coverage init [FILE]`: the starter list, never over an existing file. */
export async function coverageCommand(argv: string[]): Promise<number> {
  const [verb, file = DEFAULT_REQUIREMENT_FILE] = argv;
  if (verb !== 'init') {
    console.error('Usage: idv-sandbox coverage init [FILE]   (writes a starter class list for --require-coverage)');
    return 2;
  }
  if (existsSync(file)) {
    console.error(`idv-sandbox: ${file} exists; edit it, or delete it to start again.`);
    return 1;
  }
  const sandbox = await createSandbox({ port: null, memory: true, logger: { info: () => undefined, warn: () => undefined, error: () => undefined } });
  // The catalog holds every area's classes: areas are evaluated on first use.
  await loadAllAreas(sandbox.platform);
  const classes = sandbox.platform.coverage.catalog.classes;
  await sandbox.close();
  writeFileSync(file, starterRequirementFile(classes));
  console.log(`idv-sandbox: wrote ${file} (${classes.length} classes). Run with --require-coverage ${file}.`);
  return 0;
}
