/**
 * The fixture workflows are read and checked once per process, with zod's fast path off: it compiled a
 * parser per object schema of the file for that single parse, on the first call that looked a workflow up.
 */
import { readFileSync } from 'node:fs';
import { z } from '@hono/zod-openapi';
import { describe, expect, it } from 'vitest';
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
