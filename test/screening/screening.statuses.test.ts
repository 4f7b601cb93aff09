/** The screening refusals no other test reaches: the carrier age gate's unknown session (404). */
import { describe, expect, it } from 'vitest';
import { testSandbox } from '../helpers/sandbox.ts';
import { balanceOf } from './http-helpers.ts';

const UNKNOWN_SESSION = '5e2a7c91-3f4b-4d6e-8a1c-9b0d2e4f6a83';

describe('carrier age gate: statuses', () => {
  it('answers 404 naming the session for a sessionId of no session, billing nothing', async () => {
    const sandbox = await testSandbox();
    const before = await balanceOf(sandbox);
    const answer = await sandbox.call('POST', '/v1/screening/carrier-age-gate', { body: { sessionId: UNKNOWN_SESSION } });
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({ error: `Session ${UNKNOWN_SESSION} was not found: check the id (sessions live in the namespace that created them).` });
    expect(await balanceOf(sandbox)).toBe(before);
  });
});
