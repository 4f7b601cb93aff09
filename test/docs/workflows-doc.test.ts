/** docs/workflows.md: its step and failure tables are the ones rendered from the step registry. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { STEP_MODULES } from '../../src/workflows/steps/index.ts';
import { workflowStepTables } from '../../src/workflows/workflow-docs.ts';

const PAGE = readFileSync(new URL('../../docs/workflows.md', import.meta.url), 'utf8');

describe('docs/workflows.md', () => {
  it('holds the step and failure tables rendered from STEP_MODULES and WORKFLOW_FAILURES (run scripts/update-reference-tables.ts)', () => {
    expect(PAGE).toContain(workflowStepTables());
  });

  it('lists every built step with its body schema', () => {
    for (const code of Object.keys(STEP_MODULES)) expect(PAGE).toMatch(new RegExp(`\\| \`${code}\` \\| [^|]+ \\| \`\\w+StepBody\``));
  });
});
