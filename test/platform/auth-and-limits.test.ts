import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import type { AppEnv } from '../../src/platform/http/context.ts';
import { apiKeyGuard, requestContext } from '../../src/platform/http/middleware.ts';
import { KeyRing, type OrganizationFixture } from '../../src/platform/auth/organizations.ts';
import { RateLimiter, SPEC_RATE_LIMITS } from '../../src/platform/rate-limit/rate-limiter.ts';
import { KEYS, testSandbox } from '../helpers/sandbox.ts';

describe('API-key authentication', () => {
  it('names the organization of a live and of a sandbox key', async () => {
    const sandbox = await testSandbox();
    const live = await sandbox.call('GET', '/v1/auth/verify');
    expect(live.status).toBe(200);
    expect(live.body).toEqual({
      valid: true,
      organization: { id: 'org_demo', name: 'Demo Org', status: 'active' },
      key: { id: 'key_live_demo', kind: 'live' },
    });
    const other = await sandbox.call('GET', '/v1/auth/verify', { key: KEYS.other });
    expect(other.body.organization.id).toBe('org_other');
    const test = await sandbox.call('GET', '/v1/auth/verify', { key: KEYS.sandbox });
    expect(test.body.key).toEqual({ id: 'key_test_demo', kind: 'sandbox' });
  });

  it('answers 401 with detail for a missing, an unknown and a revoked key', async () => {
    const sandbox = await testSandbox();
    const missing = await sandbox.call('GET', '/v1/auth/verify', { key: null });
    expect(missing.status).toBe(401);
    expect(missing.body).toEqual({ error: 'Missing API key', detail: 'Send your organization API key in the x-api-key header.' });
    const unknown = await sandbox.call('GET', '/v1/auth/verify', { key: 'sk_live_typo' });
    expect(unknown.status).toBe(401);
    expect(unknown.body.error).toBe('Invalid API key');
    expect(unknown.body.detail).toMatch(/known API key/);
    const revoked = await sandbox.call('GET', '/v1/auth/verify', { key: KEYS.revoked });
    expect(revoked.status).toBe(401);
    expect(revoked.body.error).toBe('API key revoked');
  });

  it("goes on with the route's own promise when no scenario rule applies, and refuses a missing key by throwing", async () => {
    const { platform } = await testSandbox();
    const guard = apiKeyGuard({ operation: 'GET /v1/things', missingKeyStatus: 401, refusesForFunds: false });
    const routeAnswer = Promise.resolve();
    const seen: { passedOn?: unknown; refusal?: unknown } = {};
    const app = new Hono<AppEnv>().use('*', requestContext(platform)).get('/v1/things', (c) => {
      try {
        seen.passedOn = guard(c, () => routeAnswer);
      } catch (error) {
        seen.refusal = error;
      }
      return c.text('seen');
    });
    await app.request('/v1/things', { headers: { 'x-api-key': KEYS.live } });
    // An async guard would hand back a promise of its own, settled a turn after the route's.
    expect(seen.passedOn).toBe(routeAnswer);
    await app.request('/v1/things');
    expect(seen.refusal).toMatchObject({ status: 401, message: 'Missing API key' });
  });

  it('identifies a key once and answers its later presentations from memory, never remembering a wrong key', () => {
    const organization: OrganizationFixture = {
      id: 'org_ring',
      name: 'Ring',
      balance: 10,
      keys: [
        { id: 'key_ring_live', key: 'sk_live_ring_1', kind: 'live' },
        { id: 'key_ring_revoked', key: 'sk_live_ring_2', kind: 'revoked' },
      ],
      amlBots: [],
      knownSubjects: [],
    };
    const ring = new KeyRing([organization], 'secret');
    const first = ring.identify('sk_live_ring_1');
    expect(first).toEqual({ keyId: 'key_ring_live', kind: 'live', organization });
    // The same principal, not one made again from a fresh digest.
    expect(ring.identify('sk_live_ring_1')).toBe(first);
    expect(ring.identify('sk_live_ring_2')).toMatchObject({ keyId: 'key_ring_revoked', kind: 'revoked' });
    expect(ring.identify('sk_live_ring_2')?.kind).toBe('revoked');
    expect(ring.identify('sk_live_ring_3')).toBeUndefined();
    expect(ring.identify('sk_live_ring_3')).toBeUndefined();
    expect(ring.identify('sk_live_ring_1 ')).toBeUndefined();
  });

  it('adds keys from IDV_SANDBOX_API_KEYS, creating the organization', async () => {
    const sandbox = await testSandbox({ apiKeys: 'sk_live_acme_1234=org_acme:live' });
    const acme = await sandbox.call('GET', '/v1/auth/verify', { key: 'sk_live_acme_1234' });
    expect(acme.body.organization).toEqual({ id: 'org_acme', name: 'org_acme', status: 'active' });
  });
});

describe('rate limits', () => {
  it('answers the 36th request of a burst with 429, Retry-After and rate-limit headers, and recovers after a second', async () => {
    const sandbox = await testSandbox();
    const statuses: number[] = [];
    for (let i = 0; i < 35; i++) statuses.push((await sandbox.call('GET', '/v1/auth/verify')).status);
    expect(statuses.every((s) => s === 200)).toBe(true);
    const limited = await sandbox.call('GET', '/v1/auth/verify');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('1');
    expect(limited.headers.get('x-ratelimit-limit')).toBe('35');
    expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(Number(limited.headers.get('x-ratelimit-reset'))).toBeGreaterThan(Date.parse('2026-01-15T09:30:00Z') / 1000);
    expect(limited.body.error).toMatch(/Rate limit exceeded/);

    // Another key has its own bucket.
    expect((await sandbox.call('GET', '/v1/auth/verify', { key: KEYS.other })).status).toBe(200);

    sandbox.clock.advance(1000); // 25 tokens back
    expect((await sandbox.call('GET', '/v1/auth/verify')).status).toBe(200);
  });

  it('is switched off by rateLimit: false (--no-rate-limit)', async () => {
    const sandbox = await testSandbox({ rateLimit: false });
    for (let i = 0; i < 40; i++) expect((await sandbox.call('GET', '/v1/auth/verify')).status).toBe(200);
  });

  it('enforces the daily quota of 10,000 requests per key, reset at UTC midnight of the virtual clock', () => {
    const limiter = new RateLimiter(SPEC_RATE_LIMITS);
    let now = Date.parse('2026-01-15T00:00:00Z');
    for (let i = 0; i < 10_000; i++) {
      expect(limiter.take('k', now).allowed).toBe(true);
      now += 50; // 20/s: under the sustained rate
    }
    const over = limiter.take('k', now);
    expect(over).toMatchObject({ allowed: false, reason: 'quota' });
    expect(Number(over.headers['Retry-After'])).toBe(Math.ceil((Date.parse('2026-01-16T00:00:00Z') - now) / 1000));
    expect(limiter.take('k', Date.parse('2026-01-16T00:00:00Z')).allowed).toBe(true);
  });

  it('answers the daily quota with 429 over HTTP on a frozen clock', async () => {
    const sandbox = await testSandbox({ rateLimits: { dailyQuota: 3 } });
    for (let i = 0; i < 3; i++) {
      expect((await sandbox.call('GET', '/v1/auth/verify')).status).toBe(200);
      sandbox.clock.advance(1000);
    }
    const over = await sandbox.call('GET', '/v1/auth/verify');
    expect(over.status).toBe(429);
    expect(over.body.error).toMatch(/Daily request quota/);
    sandbox.clock.set(Date.parse('2026-01-16T00:00:00Z'));
    expect((await sandbox.call('GET', '/v1/auth/verify')).status).toBe(200);
  });
});
