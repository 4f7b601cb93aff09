/**
 * The tables of docs/mobile-flow.md, rendered from the code's own tables (WORKFLOW_ERROR_CODES,
 * WORKFLOW_FAILURES): the doc test checks the page holds exactly these, so the page cannot drift.
 */
import { WORKFLOW_ERROR_CODES, WORKFLOW_FAILURES, type WorkflowFailureRow } from '../../src/workflows/steps/index.ts';
import type { WorkflowErrorCode } from '../../src/workflows/workflow-errors.ts';

const cell = (text: string) => text.replace(/\|/g, '\\|');

export function errorCodeTable(): string {
  const rows = Object.entries(WORKFLOW_ERROR_CODES).map(([code, row]: [string, WorkflowErrorCode]) => {
    const status = row.alsoStatus === undefined ? String(row.status) : `${row.status}, ${row.alsoStatus}`;
    return `| \`${code}\` | ${status} | ${cell(row.when)} |`;
  });
  return ['| code | status | answered when |', '|---|---|---|', ...rows].join('\n');
}

export function failureCodeTable(): string {
  // The mobile flow runs the headless steps; docs/workflows.md lists the failures of the others.
  const headless = (Object.entries(WORKFLOW_FAILURES) as [string, WorkflowFailureRow][]).filter(
    ([, row]) => row.step === 'ID_VERIFICATION' || row.step === 'FACE_LIVENESS',
  );
  const rows = headless.map(([code, row]: [string, WorkflowFailureRow]) =>
    [
      `\`${code}\``,
      [row.step, ...(row.alsoSteps ?? [])].join(', '),
      `${row.category} / ${row.user_action}`,
      `\`${row.reason}\``,
      cell(row.content),
      row.magicLastName === null ? '—' : `\`${row.magicLastName}\``,
    ].join(' | '),
  );
  return [
    '| code | step | category / user_action | failureData reason | real input that triggers it | magic last name |',
    '|---|---|---|---|---|---|',
    ...rows.map((row) => `| ${row} |`),
  ].join('\n');
}

/** The text between `<!-- name:start -->` and `<!-- name:end -->`. */
export function section(markdown: string, name: string): string | undefined {
  const match = new RegExp(`<!-- ${name}:start[^>]*-->\\n([\\s\\S]*?)\\n<!-- ${name}:end -->`).exec(markdown);
  return match?.[1];
}
