/**
 * The step registry is total and the workflow tables are derived from its modules: every failure row,
 * every 409 code and every hosted form a module declares is what the engine, coverage and the page read.
 */
import { describe, expect, it } from 'vitest';
import { STEP_FAILURE_COVERAGE } from '../../src/workflows/workflow-failures.ts';
import {
  STEP_CODES,
  STEP_MODULES,
  STEPS_IN_TABLE_ORDER,
  WORKFLOW_ERROR_CODE_NAMES,
  WORKFLOW_ERROR_CODES,
  WORKFLOW_FAILURES,
} from '../../src/workflows/steps/index.ts';
import { WORKFLOW_ERROR_CODE_NAMES as GENERATED_CODE_NAMES } from '../../src/workflows/workflow-error-codes.generated.ts';

describe('the step registry', () => {
  it('has a module for every step id, each under its own code', () => {
    for (const code of STEP_CODES) expect(STEP_MODULES[code].code).toBe(code);
    // In the order of step-configs.ts's ids, which the WorkflowStepId enum and the catalog list.
    expect(Object.keys(STEP_MODULES)).toEqual(STEP_CODES);
    // The tables' order holds every module once.
    expect(STEPS_IN_TABLE_ORDER.map((module) => module.code).sort()).toEqual([...STEP_CODES].sort());
  });

  it("puts every module's failure rows in the failure table and the coverage catalog, under the steps that give them", () => {
    for (const module of Object.values(STEP_MODULES)) {
      for (const [code, row] of Object.entries(module.failures)) {
        expect(WORKFLOW_FAILURES[code], `${module.code} ${code}`).toMatchObject(row);
        const table = WORKFLOW_FAILURES[code];
        expect([table?.step, ...(table?.alsoSteps ?? [])]).toContain(module.code);
        expect(STEP_FAILURE_COVERAGE.values).toContain(code);
      }
    }
    // Nothing else: every row of the table comes from a module.
    const declared = new Set(Object.values(STEP_MODULES).flatMap((module) => Object.keys(module.failures)));
    expect(Object.keys(WORKFLOW_FAILURES).filter((code) => !declared.has(code))).toEqual([]);
  });

  it("puts every module's own 409 codes in the error-code table", () => {
    for (const module of Object.values(STEP_MODULES)) {
      for (const [code, when] of Object.entries(module.conflicts ?? {})) expect(WORKFLOW_ERROR_CODES[code]).toEqual({ status: 409, when });
    }
  });

  it('is what the generated list of error codes says, which the session routes document without evaluating the step types', () => {
    expect([...GENERATED_CODE_NAMES], 'src/workflows/workflow-error-codes.generated.ts is stale: run npm run generate:routes').toEqual(
      WORKFLOW_ERROR_CODE_NAMES,
    );
  });

  it('gives every step type a hosted form with a title', () => {
    for (const module of Object.values(STEP_MODULES)) expect(module.hostedForm.title, module.code).not.toBe('');
  });
});
