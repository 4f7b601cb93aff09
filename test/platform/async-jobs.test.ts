import { describe, expect, it } from 'vitest';
import { AsyncJobSchema } from '../../src/async-jobs/async-jobs.schemas.ts';
import { KEYS, testSandbox } from '../helpers/sandbox.ts';

const UNKNOWN_JOB = '3b241101-e2bb-4255-8caf-4136c566a962';

async function startJob(sandbox: Awaited<ReturnType<typeof testSandbox>>, body: object = { input: { hello: 'world' } }, headers: Record<string, string> = {}) {
  const created = await sandbox.call('POST', '/__sandbox/jobs', { key: null, body, headers });
  expect(created.status).toBe(201);
  return created.body.jobId as string;
}

describe('GET /v1/async-jobs/{jobId}', () => {
  it('walks a job through pending, processing and ready on a frozen clock, then 404 after retention', async () => {
    const sandbox = await testSandbox();
    const jobId = await startJob(sandbox);
    const createdAt = Math.floor(Date.parse('2026-01-15T09:30:00.000Z') / 1000);

    // t = 0: pending, no result and no error keys at all
    let job = await sandbox.call('GET', `/v1/async-jobs/${jobId}`);
    expect(job.status).toBe(200);
    expect(job.body).toEqual({ jobId, status: 'pending', createdAt, updatedAt: '2026-01-15T09:30:00.000Z' });
    AsyncJobSchema.parse(job.body);

    // t = 1.5 s: processing since 1 s
    sandbox.clock.advance(1500);
    job = await sandbox.call('GET', `/v1/async-jobs/${jobId}`);
    expect(job.body).toEqual({ jobId, status: 'processing', createdAt, updatedAt: '2026-01-15T09:30:01.000Z' });

    // t = 3 s: ready with the kind's result
    sandbox.clock.advance(1500);
    job = await sandbox.call('GET', `/v1/async-jobs/${jobId}`);
    expect(job.body).toEqual({ jobId, status: 'ready', createdAt, updatedAt: '2026-01-15T09:30:03.000Z', result: { echo: { hello: 'world' } } });

    // t = 24 h: pruned
    sandbox.clock.advance(24 * 3_600_000);
    job = await sandbox.call('GET', `/v1/async-jobs/${jobId}`);
    expect(job.status).toBe(404);
    expect(job.body.error).toMatch(/not found/);
  });

  it('ends in failed with an error string under the async-jobs-fail scenario', async () => {
    const sandbox = await testSandbox();
    await sandbox.call('POST', '/__sandbox/scenarios/async-jobs-fail/activate', { key: null });
    const jobId = await startJob(sandbox);
    sandbox.clock.advance(3000);
    const job = await sandbox.call('GET', `/v1/async-jobs/${jobId}`);
    expect(job.body.status).toBe('failed');
    expect(typeof job.body.error).toBe('string');
    expect(job.body).not.toHaveProperty('result');
    expect(job.headers.get('x-sandbox-explain')).toContain('async-jobs-fail');
  });

  it('stays processing forever under the async-jobs-stuck scenario given in the request header', async () => {
    const sandbox = await testSandbox();
    const normalId = await startJob(sandbox);
    const stuckId = await startJob(sandbox, {}, { 'x-sandbox-scenario': 'async-jobs-stuck' });
    sandbox.clock.advance(10 * 60_000);
    expect((await sandbox.call('GET', `/v1/async-jobs/${normalId}`)).body.status).toBe('ready');
    const stuck = await sandbox.call('GET', `/v1/async-jobs/${stuckId}`);
    expect(stuck.body).toMatchObject({ status: 'processing', updatedAt: '2026-01-15T09:30:01.000Z' });
  });

  it('answers 400 for a malformed id, 404 for an unknown one, 403 for another organization and for a missing key, 401 for a revoked key', async () => {
    const sandbox = await testSandbox();
    const jobId = await startJob(sandbox);

    const malformed = await sandbox.call('GET', '/v1/async-jobs/job_abc123');
    expect(malformed.status).toBe(400);
    expect(malformed.body.error).toContain('jobId');

    const unknown = await sandbox.call('GET', `/v1/async-jobs/${UNKNOWN_JOB}`);
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('content-type')).toContain('application/json');

    const otherOrg = await sandbox.call('GET', `/v1/async-jobs/${jobId}`, { key: KEYS.other });
    expect(otherOrg.status).toBe(403);
    expect(otherOrg.body.error).toMatch(/another organization/);

    const missingKey = await sandbox.call('GET', `/v1/async-jobs/${jobId}`, { key: null });
    expect(missingKey.status).toBe(403);
    expect(missingKey.body).toEqual({ error: 'Missing API key', detail: expect.stringContaining('x-api-key') });

    const revoked = await sandbox.call('GET', `/v1/async-jobs/${jobId}`, { key: KEYS.revoked });
    expect(revoked.status).toBe(401);
    expect(revoked.body.detail).toMatch(/revoked/);
  });
});
