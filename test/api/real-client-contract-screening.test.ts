/**
 * Independent contract check (3/3): screening (PEP/sanctions, adverse media, title check, carrier age
 * gate, phone ownership, phone trust) and async jobs in every status, parsed with schemas written from
 * real-client-facts.md alone (test/api/real-client/). Magic values come from GET /__sandbox/catalog.
 */
import { describe, expect, it } from 'vitest';
import { FROZEN_AT, KEYS, testSandbox, type TestSandbox } from '../helpers/sandbox.ts';
import { RealClient, sdkErrorOf } from './real-client/client.ts';
import { operationCoverage } from './real-client/coverage.ts';
import { AdverseMediaResultSchema, EXPOSURE_CATEGORIES } from './real-client/schemas.ts';

const { track } = operationCoverage([
  'asyncJobs.get',
  'screening.adverseMedia',
  'screening.carrierAgeGate',
  'screening.pepSanctions',
  'screening.phoneOwnership',
  'screening.phoneTrust',
  'screening.titleCheck',
  'sessions.create',
  'sessions.list',
  'sessions.retrieve',
]);

interface MagicValue {
  endpoint: string;
  input: string;
  outcome: string;
}

async function magicValues(sandbox: TestSandbox, endpoint: string): Promise<MagicValue[]> {
  const catalog = await sandbox.call('GET', '/__sandbox/catalog', { key: null });
  expect(catalog.status).toBe(200);
  return (catalog.body.magicValues as MagicValue[]).filter((entry) => entry.endpoint === endpoint);
}

/** The phone numbers of an endpoint's catalog rows (`phone +44...`), with their documented outcome. */
async function phoneRows(sandbox: TestSandbox, endpoint: string): Promise<{ phone: string; outcome: string }[]> {
  const rows = (await magicValues(sandbox, endpoint)).map((entry) => ({ phone: /^phone (\+?\d+)$/.exec(entry.input)?.[1], outcome: entry.outcome }));
  expect(rows.every((row) => row.phone !== undefined)).toBe(true);
  return rows as { phone: string; outcome: string }[];
}

const SUBJECT = { firstName: 'Olivia', lastName: 'Hart', email: 'olivia.hart@example.com' };

describe('the real client reads every screening answer', () => {
  it('pepSanctions: every catalog person, with and without email', async () => {
    const sandbox = await testSandbox({ rateLimit: false });
    const client = track(new RealClient(sandbox, KEYS.live));
    const rows = await magicValues(sandbox, 'POST /v1/screening/pep-sanctions');
    expect(rows.length).toBeGreaterThanOrEqual(6);
    let matched = 0;
    for (const row of rows) {
      const [, firstName, lastName, dateOfBirth] = /^firstName (\S+), lastName (\S+), dateOfBirth (\d{4}-\d{2}-\d{2})$/.exec(row.input) ?? [];
      expect(dateOfBirth, row.input).toBeDefined();
      const answer = await client.screening.pepSanctions({ firstName: firstName ?? '', lastName: lastName ?? '', dateOfBirth: dateOfBirth ?? '' });
      matched += answer.data.totalMatches;
      await client.screening.pepSanctions({
        firstName: firstName ?? '',
        lastName: lastName ?? '',
        dateOfBirth: dateOfBirth ?? '',
        email: 'someone@example.com',
      });
    }
    expect(matched).toBeGreaterThanOrEqual(4);
  });

  it('titleCheck: found, multiple_properties, not_found and unsupported_region', async () => {
    const sandbox = await testSandbox({ rateLimit: false });
    const client = track(new RealClient(sandbox, KEYS.live));
    const rows = await magicValues(sandbox, 'POST /v1/screening/title-check');
    const seen: string[] = [];
    for (const row of rows) {
      const address = row.input.replace(/^address /, '');
      const answer = await client.screening.titleCheck({ ...SUBJECT, address });
      seen.push(answer.data.status);
      if (answer.data.status === 'found') expect(answer.data.subjectProperty).not.toBeNull();
      if (answer.data.status === 'multiple_properties') expect(answer.data.availableUnits).toEqual(['1A', '1B', '2A', '2B']);
    }
    // An unlisted US address: found or not_found, either must parse.
    await client.screening.titleCheck({ ...SUBJECT, address: '17 Elm Street, Austin, TX 78701' });
    expect(seen.sort()).toEqual(['found', 'multiple_properties', 'not_found', 'unsupported_region']);
  });

  it('phoneOwnership, phoneTrust and carrierAgeGate: every catalog number, every strictness and sensitivity', async () => {
    const sandbox = await testSandbox({ rateLimit: false });
    const client = track(new RealClient(sandbox, KEYS.live));
    const outcomes = { ownership: new Set<string>(), trust: new Set<string>(), age: new Set<string>() };
    for (const row of await phoneRows(sandbox, 'POST /v1/screening/phone-ownership')) {
      for (const strictness of ['relaxed', 'medium', 'strict'] as const) {
        if (row.outcome.startsWith('503')) {
          const down = await sdkErrorOf(client.screening.phoneOwnership({ ...SUBJECT, phone: row.phone, strictness }));
          expect([down.className, down.status]).toEqual(['ServiceUnavailableError', 503]);
          continue;
        }
        const answer = await client.screening.phoneOwnership({
          ...SUBJECT,
          phone: row.phone,
          strictness,
          address: '1 High Street, London',
          dateOfBirth: '1990-01-01',
        });
        outcomes.ownership.add(answer.data.outcome);
      }
      if (!row.outcome.startsWith('503')) await client.screening.phoneOwnership({ phone: row.phone, lastName: 'Hart' });
    }
    for (const row of await phoneRows(sandbox, 'POST /v1/screening/phone-trust')) {
      for (const sensitivity of ['low', 'medium', 'high', undefined] as const) {
        if (row.outcome.startsWith('503')) {
          expect((await sdkErrorOf(client.screening.phoneTrust({ phone: row.phone }))).status).toBe(503);
          continue;
        }
        const answer = await client.screening.phoneTrust(sensitivity ? { phone: row.phone, sensitivity } : { phone: row.phone });
        outcomes.trust.add(`${answer.data.simSwappedRisk}/${answer.data.forwardingRisk}/${answer.data.tripped}`);
      }
    }
    for (const row of await phoneRows(sandbox, 'POST /v1/screening/carrier-age-gate')) {
      if (row.outcome.startsWith('503')) {
        expect((await sdkErrorOf(client.screening.carrierAgeGate({ phone: row.phone }))).status).toBe(503);
        continue;
      }
      outcomes.age.add((await client.screening.carrierAgeGate({ phone: row.phone, ...SUBJECT })).data.outcome);
    }
    expect([...outcomes.ownership].sort()).toEqual(['MATCH', 'NO_DATA', 'NO_MATCH']);
    expect([...outcomes.age].sort()).toEqual(['FAIL', 'NO_DATA', 'PASS']);
    expect(outcomes.trust.size).toBeGreaterThanOrEqual(5);
  });

  it('phone checks attached to a session by sessionId, and the session record that carries them', async () => {
    const sandbox = await testSandbox({ rateLimit: false });
    const client = track(new RealClient(sandbox, KEYS.live));
    const { data: session } = await client.sessions.create({ ...SUBJECT, phone: '+447700900001' });
    const ownership = await client.screening.phoneOwnership({ sessionId: session.id });
    expect(ownership.data.sessionId).toBe(session.id);
    const trust = await client.screening.phoneTrust({ sessionId: session.id, sensitivity: 'high' });
    expect(trust.data.sessionId).toBe(session.id);
    const age = await client.screening.carrierAgeGate({ sessionId: session.id });
    expect(age.data.sessionId).toBe(session.id);
    const withPhone = await client.screening.phoneTrust({ sessionId: session.id, phone: '+447700900003' });
    expect(withPhone.data.tripped).toBe(true);
    const read = await client.sessions.retrieve(session.id);
    expect(read.data.session_record.analysis_data).toHaveProperty('phone_checks');
    await client.sessions.list({ byOrganization: true });
    const unknown = await sdkErrorOf(client.screening.phoneTrust({ sessionId: '3f0b7c1e-5a7d-4d2b-9a51-0c8e2f4b6d19' }));
    expect([unknown.className, unknown.status]).toEqual(['NotFoundError', 404]);
  });
});

describe('the real client reads adverse media and every async-job status', () => {
  it('queues each catalog person (202, UUID jobId), replays an Idempotency-Key (200, same job), and polls to ready or failed', async () => {
    const sandbox = await testSandbox({ rateLimit: false });
    const client = track(new RealClient(sandbox, KEYS.live));
    const rows = await magicValues(sandbox, 'POST /v1/screening/adverse-media');
    const jobs: { jobId: string; outcome: string }[] = [];
    for (const [index, row] of rows.entries()) {
      const [, firstName, lastName] = /^firstName (\S+), lastName (\S+)/.exec(row.input) ?? [];
      const input = {
        firstName: firstName ?? '',
        lastName: lastName ?? '',
        dateOfBirth: '1980-05-17',
        email: 'subject@example.com',
        country: index % 2 === 0 ? 'gb' : undefined,
      };
      const key = `7a1c0e52-3b9d-4f60-8e21-${String(index).padStart(12, '0')}`;
      const queued = await client.screening.adverseMedia(input, { idempotencyKey: key });
      expect(queued.status).toBe(202);
      expect(queued.data.status).toBe('pending');
      const replay = await client.screening.adverseMedia(input, { idempotencyKey: key });
      expect(replay.status).toBe(200);
      expect(replay.data.jobId).toBe(queued.data.jobId);
      jobs.push({ jobId: queued.data.jobId, outcome: row.outcome });
    }
    const statuses = new Set<string>();
    const createdAt = Date.parse(FROZEN_AT) / 1000;
    for (let tick = 0; tick < 4; tick++) {
      for (const job of jobs) {
        const generic = await client.asyncJobs.get(job.jobId);
        // createdAt is epoch SECONDS (a number); updatedAt an ISO string.
        expect(generic.data.createdAt).toBe(createdAt);
        expect(Number.isNaN(Date.parse(generic.data.updatedAt))).toBe(false);
        const typed = await client.asyncJobs.getAdverseMedia(job.jobId);
        expect(typed.data.status).toBe(generic.data.status);
        statuses.add(typed.data.status);
        if (typed.data.status === 'failed') expect(typed.data.error).toBe('upstream timeout');
        if (typed.data.status === 'ready') {
          expect(Object.keys(typed.data.result.exposuresByCategory).sort()).toEqual([...EXPOSURE_CATEGORIES].sort());
          expect(job.outcome).toContain(`riskLevel ${typed.data.result.riskLevel}`);
        }
      }
      sandbox.clock.advance(1_000);
    }
    expect([...statuses].sort()).toEqual(['failed', 'pending', 'processing', 'ready']);
    // A fresh Idempotency-Key per call (the client's default) queues a new job each time.
    const first = await client.screening.adverseMedia({ ...SUBJECT, dateOfBirth: '1980-05-17' });
    const second = await client.screening.adverseMedia({ ...SUBJECT, dateOfBirth: '1980-05-17' });
    expect(second.data.jobId).not.toBe(first.data.jobId);
    // Past the retention period the job is gone: NotFoundError, as the handle expects.
    sandbox.clock.advance(25 * 3_600_000);
    const pruned = await sdkErrorOf(client.asyncJobs.get(jobs[0]?.jobId ?? ''));
    expect([pruned.className, pruned.status]).toEqual(['NotFoundError', 404]);
  });

  it('reads failed jobs under X-Sandbox-Scenario async-jobs-fail and processing jobs under async-jobs-stuck', async () => {
    const sandbox = await testSandbox({ rateLimit: false });
    const failing = track(new RealClient(sandbox, KEYS.live, { headers: { 'X-Sandbox-Scenario': 'async-jobs-fail' } }));
    const stuck = track(new RealClient(sandbox, KEYS.live, { headers: { 'X-Sandbox-Scenario': 'async-jobs-stuck' } }));
    const poller = track(new RealClient(sandbox, KEYS.live));
    const failed = await failing.screening.adverseMedia({ firstName: 'Clara', lastName: 'Clean', dateOfBirth: '1970-01-01', email: 'c@example.com' });
    const forever = await stuck.screening.adverseMedia({ firstName: 'Harper', lastName: 'High', dateOfBirth: '1970-01-01', email: 'h@example.com' });
    sandbox.clock.advance(10 * 60_000);
    const failedJob = await poller.asyncJobs.getAdverseMedia(failed.data.jobId);
    expect(failedJob.data.status).toBe('failed');
    if (failedJob.data.status === 'failed') expect(failedJob.data.error.length).toBeGreaterThan(0);
    expect((await poller.asyncJobs.getAdverseMedia(forever.data.jobId)).data.status).toBe('processing');
  });

  it('reads control-plane test jobs of another kind in every status through the generic asyncJobs.get', async () => {
    const sandbox = await testSandbox({ rateLimit: false });
    const client = track(new RealClient(sandbox, KEYS.live));
    const ids: Record<string, string> = {};
    for (const fate of ['normal', 'fail', 'stuck'] as const) {
      const created = await sandbox.call('POST', '/__sandbox/jobs', { key: null, body: { fate, input: { hello: 'world' } } });
      expect(created.status, created.text).toBe(201);
      ids[fate] = created.body.jobId;
    }
    const seen = new Set<string>();
    for (let tick = 0; tick < 5; tick++) {
      for (const id of Object.values(ids)) seen.add((await client.asyncJobs.get(id)).data.status);
      sandbox.clock.advance(1_000);
    }
    expect([...seen].sort()).toEqual(['failed', 'pending', 'processing', 'ready']);
    const local = await sdkErrorOf(client.asyncJobs.get('job_abc123'));
    expect(local.code).toBe('validation_error');
    expect(client.exchanges.some((exchange) => exchange.path.includes('job_abc123'))).toBe(false);
    const other = await sdkErrorOf(new RealClient(sandbox, KEYS.other).asyncJobs.get(ids.normal ?? ''));
    expect([other.className, other.status]).toEqual(['AuthorizationError', 403]);
  });

  it('a ready adverse-media result of every risk level satisfies the full AdverseMediaResult', async () => {
    const sandbox = await testSandbox({ rateLimit: false });
    const client = track(new RealClient(sandbox, KEYS.live));
    const levels = new Set<string>();
    for (const [firstName, lastName] of [
      ['Clara', 'Clean'],
      ['Morgan', 'Medium'],
      ['Harper', 'High'],
      ['Cyrus', 'Critical'],
      ['Jane', 'Doe'],
      ['Wei', 'Zhang'],
    ]) {
      const queued = await client.screening.adverseMedia({
        firstName: firstName ?? '',
        lastName: lastName ?? '',
        dateOfBirth: '1975-03-02',
        email: 'x@example.com',
      });
      sandbox.clock.advance(3_000);
      const job = await client.asyncJobs.getAdverseMedia(queued.data.jobId);
      expect(job.data.status).toBe('ready');
      if (job.data.status === 'ready') {
        levels.add(job.data.result.riskLevel);
        expect(AdverseMediaResultSchema.parse(job.data.result).totalHits).toBe(job.data.result.findings.length);
      }
    }
    expect([...levels].sort()).toEqual(['CRITICAL', 'HIGH', 'LOW', 'MEDIUM']);
  });
});
