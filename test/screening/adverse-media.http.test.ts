import { describe, expect, it } from 'vitest';
import { AsyncJobSchema } from '../../src/async-jobs/async-jobs.schemas.ts';
import { AdverseMediaQueuedSchema, AdverseMediaResultSchema } from '../../src/screening/adverse-media.schemas.ts';
import { checkAdverseMediaConsistency, computeAdverseMediaResult } from '../../src/screening/adverse-media.service.ts';
import { ADVERSE_MEDIA_MAGIC_NAMES } from '../../src/screening/magic-values.ts';
import { FROZEN_AT, KEYS, testSandbox, type TestSandbox } from '../helpers/sandbox.ts';
import { balanceOf, storedJobCount } from './http-helpers.ts';

const PATH = '/v1/screening/adverse-media';
const person = { email: 'jane.doe@example.com', firstName: 'Jane', lastName: 'Doe', dateOfBirth: '1980-04-23', country: 'GB' };
const CREATED_AT = Math.floor(Date.parse(FROZEN_AT) / 1000);

async function queue(sandbox: TestSandbox, body: object, options: { key?: string; idempotencyKey?: string; headers?: Record<string, string> } = {}) {
  return sandbox.call('POST', PATH, {
    body,
    ...(options.key ? { key: options.key } : {}),
    headers: { ...options.headers, ...(options.idempotencyKey ? { 'idempotency-key': options.idempotencyKey } : {}) },
  });
}

describe('POST /v1/screening/adverse-media', () => {
  it('queues a new job with 202, a UUID job id, status pending and message Queued, and charges one token', async () => {
    const sandbox = await testSandbox();
    const before = await balanceOf(sandbox);
    const answer = await queue(sandbox, person);
    expect(answer.status).toBe(202);
    const queued = AdverseMediaQueuedSchema.parse(answer.body);
    expect(queued).toEqual({
      jobId: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
      status: 'pending',
      message: 'Queued',
    });
    expect(answer.headers.get('x-sandbox-explain')).toContain(`adverse media job ${queued.jobId} queued`);
    expect(await balanceOf(sandbox)).toBe(before - 1);
  });

  it('returns the same job with 200 when the Idempotency-Key is sent again with the same body, without a second charge', async () => {
    const sandbox = await testSandbox();
    const before = await balanceOf(sandbox);
    const first = await queue(sandbox, person, { idempotencyKey: 'retry-me-1' });
    expect(first.status).toBe(202);

    sandbox.clock.advance(1500);
    // Same fields in another order and country in lower case: the same request.
    const { country: _country, ...rest } = person;
    const replay = await queue(sandbox, { country: 'gb', ...rest }, { idempotencyKey: 'retry-me-1' });
    expect(replay.status).toBe(200);
    expect(AdverseMediaQueuedSchema.parse(replay.body)).toEqual({
      jobId: first.body.jobId,
      status: 'processing',
      message: 'Existing job returned: this Idempotency-Key was already used for the same request.',
    });
    expect(replay.headers.get('x-sandbox-explain')).toContain(`existing job ${first.body.jobId}`);
    expect(storedJobCount(sandbox)).toBe(1);
    expect(await balanceOf(sandbox)).toBe(before - 1);
  });

  it('gives another organization using the same Idempotency-Key its own job', async () => {
    const sandbox = await testSandbox();
    const mine = await queue(sandbox, person, { idempotencyKey: 'shared-key' });
    const theirs = await queue(sandbox, person, { idempotencyKey: 'shared-key', key: KEYS.other });
    expect(mine.status).toBe(202);
    expect(theirs.status).toBe(202);
    expect(theirs.body.jobId).not.toBe(mine.body.jobId);
    expect((await sandbox.call('GET', `/v1/async-jobs/${theirs.body.jobId}`, { key: KEYS.other })).status).toBe(200);
    expect((await sandbox.call('GET', `/v1/async-jobs/${theirs.body.jobId}`)).status).toBe(403);
    expect(await balanceOf(sandbox, 'org_other')).toBe(999);
  });

  it('answers 409 when the Idempotency-Key is reused with a different body, and queues and charges nothing', async () => {
    const sandbox = await testSandbox();
    const first = await queue(sandbox, person, { idempotencyKey: 'k-409' });
    const balance = await balanceOf(sandbox);
    const conflict = await queue(sandbox, { ...person, firstName: 'Janet' }, { idempotencyKey: 'k-409' });
    expect(conflict.status).toBe(409);
    expect(conflict.body.error).toBe(
      `Idempotency-Key "k-409" was already used for a different request body (job ${first.body.jobId}): send a new Idempotency-Key for a new request, or resend the original body to get the original job.`,
    );
    // The reason the verb gave before refusing travels with its refusal.
    expect(conflict.headers.get('x-sandbox-explain')).toBe(`idempotency: key reused with a different body (job ${first.body.jobId}) -> 409, nothing queued`);
    expect(storedJobCount(sandbox)).toBe(1);
    expect(await balanceOf(sandbox)).toBe(balance);
  });

  it('forgets an Idempotency-Key when its job expires after the 24 h retention, so the key queues a new job', async () => {
    const sandbox = await testSandbox();
    const first = await queue(sandbox, person, { idempotencyKey: 'day-old' });
    sandbox.clock.advance(24 * 3_600_000 - 1);
    expect((await queue(sandbox, person, { idempotencyKey: 'day-old' })).body.jobId).toBe(first.body.jobId);
    sandbox.clock.advance(1);
    const later = await queue(sandbox, person, { idempotencyKey: 'day-old' });
    expect(later.status).toBe(202);
    expect(later.body.jobId).not.toBe(first.body.jobId);
  });

  it('treats requests without an Idempotency-Key as new jobs every time', async () => {
    const sandbox = await testSandbox();
    const a = await queue(sandbox, person);
    const b = await queue(sandbox, person);
    expect([a.status, b.status]).toEqual([202, 202]);
    expect(a.body.jobId).not.toBe(b.body.jobId);
  });

  for (const magic of ADVERSE_MEDIA_MAGIC_NAMES) {
    it(`runs the job of magic name ${magic.firstName} ${magic.lastName} from pending to ${magic.outcome} on the frozen clock`, async () => {
      const sandbox = await testSandbox();
      const body = { ...person, firstName: magic.firstName, lastName: magic.lastName };
      const before = await balanceOf(sandbox);
      const queued = await queue(sandbox, body);
      expect(queued.status).toBe(202);
      const jobId = queued.body.jobId as string;
      const poll = () => sandbox.call('GET', `/v1/async-jobs/${jobId}`);

      // t = 0: pending
      let job = await poll();
      expect(job.body).toEqual({ jobId, status: 'pending', createdAt: CREATED_AT, updatedAt: FROZEN_AT });
      // t = 1 s: processing
      sandbox.clock.advance(1000);
      job = await poll();
      expect(job.body).toEqual({ jobId, status: 'processing', createdAt: CREATED_AT, updatedAt: '2026-01-15T09:30:01.000Z' });
      // t = 3 s: done
      sandbox.clock.advance(2000);
      job = await poll();
      expect(job.status).toBe(200);
      AsyncJobSchema.parse(job.body);
      expect(job.body.updatedAt).toBe('2026-01-15T09:30:03.000Z');

      if (magic.effect.kind === 'job-failed') {
        expect(job.body).toEqual({ jobId, status: 'failed', createdAt: CREATED_AT, updatedAt: '2026-01-15T09:30:03.000Z', error: 'upstream timeout' });
        expect(job.headers.get('x-sandbox-explain')).toContain(`magic value: name 'Fay Failure' -> adverse media job failed`);
        // A job bound to fail is not billed.
        expect(await balanceOf(sandbox)).toBe(before);
      } else {
        expect(job.body.status).toBe('ready');
        expect(job.body).not.toHaveProperty('error');
        const result = AdverseMediaResultSchema.parse(job.body.result);
        expect(result.riskLevel).toBe(magic.effect.riskLevel);
        expect(Object.keys(result.exposuresByCategory)).toHaveLength(9);
        expect(checkAdverseMediaConsistency(result)).toEqual([]);
        expect(result.totalHits).toBe(result.findings.length);
        if (magic.effect.riskLevel === 'LOW') expect(result.findings).toEqual([]);
        else expect(result.findings.some((finding) => finding.severity === result.riskLevel)).toBe(true);
        // The job's result is the person's result, whenever it is read.
        const expected = computeAdverseMediaResult(body);
        expect(expected.status === 'ready' && expected.result).toEqual(result);
        expect(job.headers.get('x-sandbox-explain')).toContain(
          `magic value: name '${magic.firstName} ${magic.lastName}' -> adverse media ${magic.effect.riskLevel}`,
        );
        expect(await balanceOf(sandbox)).toBe(before - 1);
      }
    });
  }

  it('ends the job failed when the async-jobs-fail scenario is sent in the request header, and bills nothing', async () => {
    const sandbox = await testSandbox();
    const before = await balanceOf(sandbox);
    const queued = await queue(sandbox, { ...person, firstName: 'Harper', lastName: 'High' }, { headers: { 'x-sandbox-scenario': 'async-jobs-fail' } });
    expect(queued.status).toBe(202);
    expect(queued.headers.get('x-sandbox-explain')).toContain('scenario async-jobs-fail: it will fail, not billed');
    sandbox.clock.advance(3000);
    const job = await sandbox.call('GET', `/v1/async-jobs/${queued.body.jobId}`);
    expect(job.body.status).toBe('failed');
    expect(job.body.error).toBe('The screening provider failed to complete the job. Submit a new request.');
    expect(job.body).not.toHaveProperty('result');
    expect(await balanceOf(sandbox)).toBe(before);
  });

  it('keeps a job processing under async-jobs-stuck (and bills it, since it was queued)', async () => {
    const sandbox = await testSandbox();
    const before = await balanceOf(sandbox);
    const queued = await queue(sandbox, person, { headers: { 'x-sandbox-scenario': 'async-jobs-stuck' } });
    sandbox.clock.advance(3_600_000);
    const job = await sandbox.call('GET', `/v1/async-jobs/${queued.body.jobId}`);
    expect(job.body.status).toBe('processing');
    expect(await balanceOf(sandbox)).toBe(before - 1);
  });

  it('answers 403 for a missing API key, 401 for an invalid one and 403 for a sandbox key, queuing nothing', async () => {
    const sandbox = await testSandbox();
    const missing = await sandbox.call('POST', PATH, { key: null, body: person });
    expect(missing.status).toBe(403);
    expect(missing.body).toEqual({ error: 'Missing API key', detail: 'Send your organization API key in the x-api-key header.' });
    const invalid = await sandbox.call('POST', PATH, { key: 'sk_live_nope', body: person });
    expect(invalid.status).toBe(401);
    const revoked = await sandbox.call('POST', PATH, { key: KEYS.revoked, body: person });
    expect(revoked.status).toBe(401);
    const sandboxKey = await sandbox.call('POST', PATH, { key: KEYS.sandbox, body: person });
    expect(sandboxKey.status).toBe(403);
    expect(sandboxKey.body.error).toBe('Sandbox API keys are read-only: a live API key is needed to create or modify resources.');
    expect(storedJobCount(sandbox)).toBe(0);
  });

  it('queues for an organization with an empty balance (the spec lists no 402 here) and leaves the balance at 0', async () => {
    const sandbox = await testSandbox();
    const broke = await queue(sandbox, person, { key: KEYS.broke });
    expect(broke.status).toBe(202);
    expect(storedJobCount(sandbox)).toBe(1);
    expect(broke.headers.get('x-sandbox-explain')).toContain("served anyway: this operation's spec lists no 402");
  });

  const invalidBodies: [string, object, string][] = [
    ['a missing firstName', { ...person, firstName: undefined }, 'Invalid request: body field firstName is required: send 1-255 characters.'],
    ['an empty lastName', { ...person, lastName: '' }, 'Invalid request: body field lastName must not be empty: send 1-255 characters.'],
    ['a 256-character firstName', { ...person, firstName: 'a'.repeat(256) }, 'Invalid request: body field firstName is too long: send at most 255 characters.'],
    [
      'a date of birth that does not exist',
      { ...person, dateOfBirth: '2023-02-30' },
      'Invalid request: body field dateOfBirth 2023-02-30 is not a real calendar date: check the month and day.',
    ],
    [
      'a date of birth in another format',
      { ...person, dateOfBirth: '23/04/1980' },
      'Invalid request: body field dateOfBirth must use the format YYYY-MM-DD, e.g. 1980-04-23.',
    ],
    [
      'a country that is not ISO 3166-1 alpha-2',
      { ...person, country: 'GBR' },
      'Invalid request: body field country "GBR" is not an ISO 3166-1 alpha-2 code: send two letters such as GB or US.',
    ],
    [
      'an e-mail that is not an address',
      { ...person, email: 'not-an-email' },
      'Invalid request: body field email must be a valid e-mail address such as jane.doe@example.com.',
    ],
  ];
  for (const [what, body, message] of invalidBodies) {
    it(`answers 400 naming the field for ${what}, and neither queues nor bills`, async () => {
      const sandbox = await testSandbox();
      const before = await balanceOf(sandbox);
      const answer = await queue(sandbox, body, { idempotencyKey: 'bad-body' });
      expect(answer.status).toBe(400);
      expect(answer.body.error).toBe(message);
      expect(storedJobCount(sandbox)).toBe(0);
      expect(await balanceOf(sandbox)).toBe(before);
    });
  }

  it('answers 400 for an empty Idempotency-Key header', async () => {
    const sandbox = await testSandbox();
    const answer = await sandbox.call('POST', PATH, { body: person, headers: { 'idempotency-key': '' } });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe('Invalid request: header idempotency-key must not be empty: send a unique string per request, e.g. a UUID.');
    expect(storedJobCount(sandbox)).toBe(0);
  });

  it('accepts a body without email and country (the real client may omit them)', async () => {
    const sandbox = await testSandbox();
    const answer = await queue(sandbox, { firstName: 'Clara', lastName: 'Clean', dateOfBirth: '1990-01-01' });
    expect(answer.status).toBe(202);
  });
});
