/**
 * The platform's error codes: each code's status comes from one map, and a message that states a limit
 * states the limit the sandbox was configured with, not the spec's default.
 */
import { describe, expect, it } from 'vitest';
import { testSandbox } from '../helpers/sandbox.ts';

describe('429 messages read the configured limits', () => {
  it('states the configured daily quota', async () => {
    const sandbox = await testSandbox({ rateLimits: { dailyQuota: 2 } });
    for (let i = 0; i < 2; i++) expect((await sandbox.call('GET', '/v1/auth/verify')).status).toBe(200);
    const over = await sandbox.call('GET', '/v1/auth/verify');
    expect(over.status).toBe(429);
    expect(over.body.error).toBe(`Daily request quota exceeded (2 per key, reset at 00:00 UTC). Retry after ${over.headers.get('retry-after')} s.`);
  });

  it('states the configured rate and burst', async () => {
    const sandbox = await testSandbox({ rateLimits: { perSecond: 1, burst: 2 } });
    for (let i = 0; i < 2; i++) expect((await sandbox.call('GET', '/v1/auth/verify')).status).toBe(200);
    const over = await sandbox.call('GET', '/v1/auth/verify');
    expect(over.status).toBe(429);
    expect(over.body.error).toBe('Rate limit exceeded: 1 request per second per key (burst 2). Retry after 1 s.');
  });

  it("states each configured limit and the spec's default for the others", async () => {
    const sandbox = await testSandbox({ rateLimits: { dailyQuota: 10_000, burst: 1 } });
    await sandbox.call('GET', '/v1/auth/verify');
    const over = await sandbox.call('GET', '/v1/auth/verify');
    expect(over.body.error).toBe('Rate limit exceeded: 25 requests per second per key (burst 1). Retry after 1 s.');
  });
});
