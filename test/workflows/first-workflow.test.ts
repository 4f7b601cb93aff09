/**
 * The fixture workflows (read and checked once per process) and a workflow's step configs are parsed with
 * zod's fast path off: it compiled a parser per object schema on the first call that looked a workflow up
 * or created one, for a parse or a few. What they give must be what the fast path gives.
 */
import { readFileSync } from 'node:fs';
import { z } from '@hono/zod-openapi';
import { describe, expect, it } from 'vitest';
import { STEP_CODES, STEP_CONFIG_RULES, type StepCode } from '../../src/workflows/steps/step-configs.ts';
import { DEFAULT_WORKFLOWS_FILE, fixtureWorkflows, WorkflowRecordSchema } from '../../src/workflows/workflows.store.ts';
import { freshly, functionsCompiledBy } from '../helpers/compiled-functions.ts';

describe('fixture workflows', () => {
  it("are read on a process's first lookup without compiling a parser", async () => {
    const fresh = await freshly(() => import('../../src/workflows/workflows.store.ts'));
    expect(functionsCompiledBy(() => fresh.fixtureWorkflows())).toBe(0);
  });

  it('are what the fast path makes of the file, byte for byte', () => {
    const raw = JSON.parse(readFileSync(DEFAULT_WORKFLOWS_FILE, 'utf8'));
    const withFastPath = z.object({ workflows: z.array(WorkflowRecordSchema) });
    expect(functionsCompiledBy(() => withFastPath.parse(raw))).toBeGreaterThan(0);
    expect(JSON.stringify(fixtureWorkflows())).toBe(JSON.stringify(withFastPath.parse(raw).workflows));
  });
});

describe('step configs', () => {
  const ctx = { addIssue: () => {}, value: undefined } as unknown as z.RefinementCtx;
  const configs: [StepCode, Record<string, unknown>][] = [
    ...STEP_CODES.map((code): [StepCode, Record<string, unknown>] => [code, {}]),
    ['ID_VERIFICATION', { minimum_age: 21, require_secondary_id: true, escalation_type: 'nfc-passport', escalation_risk_threshold: 40 }],
    ['ID_VERIFICATION', { minimum_age: 'eighteen', colour: 'blue' }],
    ['FACE_LIVENESS', { confidence_threshold: 80 }],
    ['FACE_LIVENESS', { confidence_threshold: 0 }],
    ['AGE_ESTIMATION', { minimum_age: 21 }],
    ['PEP_SANCTIONS', { threshold: 1 }],
  ];

  it("are checked on a process's first workflow without compiling a parser", async () => {
    const fresh = await freshly(() => import('../../src/workflows/workflows.schemas.ts'));
    expect(functionsCompiledBy(() => configs.map(([code, config]) => fresh.checkStepConfig(code, config, ctx, [])))).toBe(0);
  });

  it('give what the fast path gives, values and issues', () => {
    for (const [code, config] of configs) {
      const schema = STEP_CONFIG_RULES[code].config;
      if (schema === undefined) continue;
      expect(JSON.stringify(schema.safeParse(config, { jitless: true })), code).toBe(JSON.stringify(schema.safeParse(config)));
    }
  });
});
