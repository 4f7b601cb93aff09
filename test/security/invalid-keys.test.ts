/**
 * Guessing API keys is rate-limited per client address: past the limit in a minute (on the default
 * namespace's virtual clock), wrong keys answer 429 with Retry-After, whatever namespace they name, while
 * valid keys from the same address are served. A real server on 127.0.0.1, so requests have an address.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { parseCli } from '../../src/cli.ts';
import { InvalidKeyLimiter } from '../../src/platform/rate-limit/invalid-key-limiter.ts';
import { createSandbox, type Sandbox } from '../../src/sandbox.ts';
import { FROZEN_AT, KEYS, silentLogger, testSandbox } from '../helpers/sandbox.ts';

let sandbox: Sandbox | undefined;
afterEach(async () => {
  await sandbox?.closeNow();
  sandbox = undefined;
});

async function call(method: string, path: string, headers: Record<string, string>, body?: unknown) {
  const response = await fetch(`${sandbox?.url}${path}`, {
    method,
    headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, retryAfter: response.headers.get('retry-after'), body: (await response.json()) as { error: string; detail?: string } };
}

const guess = (n: number, namespace?: string) =>
  call('GET', '/v1/sessions', { 'x-api-key': `sk_live_guess_${n}`, ...(namespace ? { 'x-sandbox-namespace': namespace } : {}) });

describe('invalid API keys per client address', () => {
  it('answers 429 with Retry-After past the limit, in every namespace, serves valid keys meanwhile, and forgets after the minute', async () => {
    sandbox = await createSandbox({ port: 0, memory: true, clock: `frozen@${FROZEN_AT}`, invalidKeysPerMinute: 3, logger: silentLogger });
    for (let n = 0; n < 3; n += 1) expect((await guess(n)).status).toBe(401);

    const limited = await guess(3);
    expect(limited.status).toBe(429);
    expect(limited.retryAfter).toBe('60');
    expect(limited.body).toEqual({
      error: 'Too many invalid API keys from your address: more than 3 in a minute. Retry after 60 s.',
      detail: 'Fix the x-api-key header: valid keys are served meanwhile, only wrong ones are refused.',
    });
    expect((await guess(4, 'another-namespace')).status).toBe(429);
    expect((await call('POST', '/v1/face/detect', { 'x-api-key': 'sk_live_guess_5' }, { image: 'AAAA' })).status).toBe(429);

    expect((await call('GET', '/v1/sessions', { 'x-api-key': KEYS.live })).status).toBe(200);
    expect((await call('GET', '/v1/sessions', { 'x-api-key': KEYS.other, 'x-sandbox-namespace': 'another-namespace' })).status).toBe(200);
    expect((await call('GET', '/v1/sessions', {})).status).toBe(401);
    expect((await call('GET', '/v1/sessions', { 'x-api-key': KEYS.revoked })).body.error).toBe('API key revoked');

    expect((await call('POST', '/__sandbox/clock', {}, { advance: '30s' })).status).toBe(200);
    expect((await guess(6)).retryAfter).toBe('30');
    expect((await call('POST', '/__sandbox/clock', {}, { advance: '30s' })).status).toBe(200);
    expect((await guess(7)).status).toBe(401);
  });

  it('starts counting again after a global reset', async () => {
    sandbox = await createSandbox({ port: 0, memory: true, clock: `frozen@${FROZEN_AT}`, invalidKeysPerMinute: 1, logger: silentLogger });
    expect((await guess(0)).status).toBe(401);
    expect((await guess(1)).status).toBe(429);
    expect((await call('POST', '/__sandbox/reset', {})).status).toBe(200);
    expect((await guess(2)).status).toBe(401);
  });

  it('does not count requests made in-process, which have no address', async () => {
    const inProcess = await testSandbox({ invalidKeysPerMinute: 1 });
    for (let n = 0; n < 5; n += 1) expect((await inProcess.call('GET', '/v1/sessions', { key: `sk_live_guess_${n}` })).status).toBe(401);
  });

  it('takes the limit from --invalid-keys-per-minute or IDV_SANDBOX_INVALID_KEYS_PER_MINUTE (0 turns it off)', () => {
    expect(parseCli(['--invalid-keys-per-minute', '5'], { IDV_SANDBOX_INVALID_KEYS_PER_MINUTE: '9' })).toMatchObject({ invalidKeysPerMinute: 5 });
    expect(parseCli([], { IDV_SANDBOX_INVALID_KEYS_PER_MINUTE: '0' })).toMatchObject({ invalidKeysPerMinute: 0 });
    expect(parseCli([], {})).toMatchObject({ invalidKeysPerMinute: undefined });
    const off = new InvalidKeyLimiter(0);
    for (let n = 0; n < 100; n += 1) expect(off.fail('127.0.0.1', 0)).toBeUndefined();
  });
});
