/**
 * The coverage gate of a CI run (`--require-coverage SPEC`): a percentage of every outcome class, or a
 * file listing the classes the team decided its code must handle (one id a line, `#` comments; written
 * first by `idv-sandbox coverage init`). Checked when the server stops, on every namespace together.
 */
import { type CoverageReport, textBar } from './coverage-report.ts';
import type { OutcomeClass } from './outcome-class.ts';

export type CoverageRequirement = { percent: number } | { file: string; classes: string[] };

const PERCENT = /^(\d+(?:\.\d+)?)%?$/;

/** A percentage (`80`, `80%`) or the path of a class list; `read` reads the file. */
export function parseRequirement(spec: string, read: (file: string) => string): CoverageRequirement {
  const percent = PERCENT.exec(spec.trim());
  if (percent) {
    const value = Number(percent[1]);
    if (value > 100) throw new Error(`--require-coverage ${spec}: a percentage is at most 100`);
    return { percent: value };
  }
  const classes = read(spec)
    .split('\n')
    .map((line) => line.replace(/#.*/, '').trim())
    .filter((line) => line !== '');
  if (classes.length === 0) throw new Error(`--require-coverage ${spec}: the file lists no class (one class id a line)`);
  return { file: spec, classes };
}

export interface GateResult {
  met: boolean;
  /** What to print: the verdict, then each missing class and how to trigger it. */
  lines: string[];
}

/**
 * `fullReport`: where the whole report was written (`--coverage-out`): a percentage gate that fails prints
 * the summary per area and points there, not the hundreds of classes never hit.
 */
export function checkGate(report: CoverageReport, requirement: CoverageRequirement, fullReport?: string): GateResult {
  const missed = new Map(report.missed.map((m) => [m.id, m]));
  if ('percent' in requirement) {
    const met = report.percent >= requirement.percent;
    const verdict = `coverage ${report.percent}% (${report.hitCount} of ${report.classes} classes) ${met ? '>=' : '<'} required ${requirement.percent}%`;
    if (met) return { met, lines: [`${verdict}: gate met`] };
    const width = Math.max(...report.areas.map(({ area }) => area.length));
    return {
      met,
      lines: [
        `${verdict}: gate not met. Per area:`,
        ...report.areas.map((a) => `  ${a.area.padEnd(width)}  ${textBar(a.percent)} ${`${a.hit} of ${a.classes}`.padStart(10)}  ${a.percent}%`),
        fullReport === undefined
          ? 'Every class never hit, with how to trigger it: GET /__sandbox/coverage while the sandbox runs, or --coverage-out <file> at the stop.'
          : `Every class never hit, with how to trigger it: ${fullReport}`,
      ],
    };
  }
  const known = new Set([...report.hit.map((h) => h.id), ...missed.keys()]);
  const unknown = requirement.classes.filter((id) => !known.has(id));
  const missing = requirement.classes.filter((id) => missed.has(id));
  const met = unknown.length === 0 && missing.length === 0;
  const verdict = `${requirement.classes.length - missing.length - unknown.length} of the ${requirement.classes.length} classes required by ${requirement.file} hit`;
  return {
    met,
    lines: met
      ? [`${verdict}: gate met`]
      : [
          `${verdict}: gate not met.`,
          ...(missing.length > 0 ? ['Never hit:', ...missing.map((id) => `  - ${id}: ${missed.get(id)?.how ?? ''}`)] : []),
          ...(unknown.length > 0 ? ['Not classes of this sandbox (a typo, or a class that no longer exists):', ...unknown.map((id) => `  - ${id}`)] : []),
        ],
  };
}

/** A starter class list: the domain classes on, the per-operation statuses listed commented out. */
export function starterRequirementFile(classes: readonly OutcomeClass[]): string {
  const byKind = new Map<string, OutcomeClass[]>();
  for (const outcome of classes) byKind.set(outcome.kind, [...(byKind.get(outcome.kind) ?? []), outcome]);
  const sections = [...byKind].map(([kind, list]) => {
    // Statuses of every operation are most of the catalog: a team turns on those of the operations it calls.
    const prefix = kind === 'status' ? '# ' : '';
    return [`## ${kind}`, ...list.map((outcome) => `${prefix}${outcome.id}`)].join('\n');
  });
  return [
    '# Outcome classes this suite must meet (idv-sandbox --require-coverage <this file>).',
    '# One class id a line; delete the ones your code does not need, uncomment the statuses of the operations it calls.',
    '# GET /__sandbox/coverage lists every class with how to trigger it.',
    '',
    sections.join('\n\n'),
    '',
  ].join('\n');
}
