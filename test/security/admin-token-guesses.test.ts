/**
 * Guessing the admin token is rate-limited per client address, whether it is sent as a bearer token or
 * typed into the console login: past 10 wrong tokens in a minute (on the default namespace's virtual
 * clock), 429 with Retry-After; the right token is never slowed. A real server on 127.0.0.1.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN_GUESSES_PER_MINUTE } from '../../src/platform/rate-limit/invalid-key-limiter.ts';
import { createSandbox, type Sandbox } from '../../src/sandbox.ts';
import { FROZEN_AT, STRICT_RESPONSES, silentLogger } from '../helpers/sandbox.ts';

const TOKEN = 'team-admin-token-42';

let sandbox: Sandbox | undefined;
afterEach(async () => {
  await sandbox?.closeNow();
  sandbox = undefined;
});

const listening = async () => {
  sandbox = await createSandbox({ port: 0, memory: true, clock: `frozen@${FROZEN_AT}`, adminToken: TOKEN, logger: silentLogger, ...STRICT_RESPONSES });
};

const bearer = (token: string) => fetch(`${sandbox?.url}/__sandbox/clock`, { headers: { authorization: `Bearer ${token}` } });

const login = (token: string) =>
  fetch(`${sandbox?.url}/console/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ token, next: '/console' }).toString(),
  });

describe('admin token guesses per client address', () => {
  it('answers 429 with Retry-After past the limit of wrong bearer tokens, still serves the right one, and forgets after the minute', async () => {
    await listening();
    for (let n = 0; n < ADMIN_TOKEN_GUESSES_PER_MINUTE; n += 1) expect((await bearer(`guess-${n}`)).status).toBe(401);
    sandbox?.clock.advance(15_000);
    const limited = await bearer('guess-again');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('45');
    expect(await limited.json()).toEqual({
      error: `Too many wrong admin tokens from your address: more than ${ADMIN_TOKEN_GUESSES_PER_MINUTE} in a minute. Retry after 45 s.`,
      detail: 'Use the admin token the sandbox was started with (--admin-token or IDV_SANDBOX_ADMIN_TOKEN); the right token is accepted meanwhile.',
    });
    expect((await bearer(TOKEN)).status).toBe(200);
    // A request without any token is not a guess: it keeps its 401.
    expect((await fetch(`${sandbox?.url}/__sandbox/clock`)).status).toBe(401);
    sandbox?.clock.advance(45_000);
    expect((await bearer('guess-after-the-minute')).status).toBe(401);
  });

  it('counts wrong console logins with the bearer guesses: the login page answers 429 with Retry-After, a right login still signs in', async () => {
    await listening();
    for (let n = 0; n < ADMIN_TOKEN_GUESSES_PER_MINUTE - 1; n += 1) expect((await login(`guess-${n}`)).status).toBe(401);
    expect((await bearer('one-more-guess')).status).toBe(401);
    const limited = await login('guess-again');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('60');
    expect(limited.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await limited.text()).toContain(
      `Too many wrong admin tokens from your address: more than ${ADMIN_TOKEN_GUESSES_PER_MINUTE} in a minute. Retry after 60 s.`,
    );
    const signedIn = await login(TOKEN);
    expect(signedIn.status).toBe(303);
    expect(signedIn.headers.get('location')).toBe('/console');
  });
});
