/**
 * The 400 of the workflow reads and of the workflow start: a path id over 255 characters is refused
 * naming the parameter (as every id of the API is), one of 255 is looked up (404 when unknown).
 */
import { describe, expect, it } from 'vitest';
import { testSandbox } from '../helpers/sandbox.ts';

const TOO_LONG = 'w'.repeat(256);
const LONGEST = 'w'.repeat(255);

describe('workflow ids in the path: statuses', () => {
  it.each([
    ['GET', (id: string) => `/v1/workflows/${id}`, 'workflow_id'],
    ['GET', (id: string) => `/v1/sessions/${id}/workflow`, 'session_id'],
    ['POST', (id: string) => `/v1/sessions/${id}/workflow/start`, 'session_id'],
  ] as const)('%s %s answers 400 naming %s over 255 characters, and 404 for an unknown one of 255', async (method, path, parameter) => {
    const sandbox = await testSandbox();
    const body = method === 'POST' ? {} : undefined;
    const refused = await sandbox.call(method, path(TOO_LONG), { body });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toContain(`${parameter} must be at most 255 characters long; got 256 characters`);
    expect((await sandbox.call(method, path(LONGEST), { body })).status).toBe(404);
  });
});
