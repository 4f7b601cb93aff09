/**
 * 429 on every /v1 operation that declares it, from the real per-key limiter (burst 35, 25/s) on the
 * frozen clock: the operations are read from /openapi.json, so a new route is walked without a line here.
 */
import { describe, expect, it } from 'vitest';
import { SPEC_RATE_LIMITS } from '../../src/platform/rate-limit/rate-limiter.ts';
import { apiOperations, callOperation } from '../helpers/api-operations.ts';
import { testSandbox } from '../helpers/sandbox.ts';

describe('the rate limit answers every operation that declares 429', () => {
  it('answers 429 with the error body, Retry-After and the rate-limit headers once the key has spent its burst', async () => {
    const sandbox = await testSandbox();
    const limited = (await apiOperations(sandbox)).filter((operation) => operation.responses.includes('429'));
    expect(limited.length).toBeGreaterThanOrEqual(60);

    for (const operation of limited) {
      // Each namespace has its own buckets: this one's starts full, and the frozen clock never refills it.
      const namespace = `rate-${operation.operationId}`;
      const spent: number[] = [];
      for (let i = 0; i < SPEC_RATE_LIMITS.burst; i += 1) spent.push((await sandbox.call('GET', '/v1/auth/verify', { namespace })).status);
      expect(spent, `${operation.name}: the burst before it`).toEqual(Array(SPEC_RATE_LIMITS.burst).fill(200));

      const answer = await callOperation(sandbox, operation, { namespace });
      expect(answer.status, `${operation.name} after a burst of ${SPEC_RATE_LIMITS.burst}`).toBe(429);
      expect(answer.body.error, operation.name).toBe('Rate limit exceeded: 25 requests per second per key (burst 35). Retry after 1 s.');
      expect(answer.headers.get('retry-after'), operation.name).toBe('1');
      expect(answer.headers.get('x-ratelimit-limit'), operation.name).toBe('35');
      expect(answer.headers.get('x-ratelimit-remaining'), operation.name).toBe('0');
    }
  });
});
