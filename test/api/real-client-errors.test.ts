/**
 * Independent contract check: the error mapping (facts §1a) and transport rules (§1) of the real client
 * against the sandbox, and a self-check that the mirrored schemas throw exactly where the client throws
 * (so the contract tests can fail).
 */
import { describe, expect, it } from 'vitest';
import { KEYS, testSandbox, type TestSandbox } from '../helpers/sandbox.ts';
import { parseRetryAfter, RealClient, sdkErrorOf, sdkMessage, type SdkError } from './real-client/client.ts';
import * as S from './real-client/schemas.ts';

const APPLICANT = { email: 'jane.doe@example.com', firstName: 'Jane', lastName: 'Doe' } as const;
const PERSON = { firstName: 'Jane', lastName: 'Doe', dateOfBirth: '1990-01-01' } as const;
const UNKNOWN_UUID = '3f0b7c1e-5a7d-4d2b-9a51-0c8e2f4b6d19';

/** Every error the client can raise carries a JSON object body with a human string `error` (or `message`). */
function expectReadableError(error: SdkError, status: number, className: string, code: string): void {
  expect([error.status, error.className, error.code], error.message).toEqual([status, className, code]);
  const body = error.response?.body as Record<string, unknown>;
  expect(typeof body, `${status} body is JSON`).toBe('object');
  expect(typeof body.error === 'string' || typeof body.message === 'string', `${status} body has error or message`).toBe(true);
  expect(error.message).toBe(sdkMessage(status, body));
  expect(error.message).not.toMatch(/^HTTP \d+$/);
  expect(error.message.length).toBeGreaterThan(5);
  expect(error.response?.headers['content-type']).toMatch(/^application\/json/);
}

describe('the client maps every failure the sandbox gives to the class it expects (facts §1a)', () => {
  it('400 ValidationError: a missing field, a bad phone, a bad list limit, a bad next_token', async () => {
    const sandbox = await testSandbox({ rateLimit: false });
    const client = new RealClient(sandbox, KEYS.live);
    for (const call of [
      () => client.sessions.create({ email: 'jane.doe@example.com', firstName: 'Jane' } as never),
      () => client.sessions.create({ ...APPLICANT, phone: '12345' }),
      () => client.sessions.list({ limit: 501 }),
      () => client.sessions.list({ nextToken: 'not-a-token' }),
      () => client.screening.pepSanctions({ ...PERSON, dateOfBirth: '01/01/1990' }),
      () => client.financial.list({ nextToken: 'forged' }),
      () => client.face.getLivenessResult(UNKNOWN_UUID, { confidenceThreshold: 101 }),
      () => client.financial.retrieve('not/a statement id'),
    ]) {
      expectReadableError(await sdkErrorOf(call()), 400, 'ValidationError', 'validation_error');
    }
  });

  it('401 AuthenticationError: an unknown key and a revoked key, on reads and writes', async () => {
    const sandbox = await testSandbox({ rateLimit: false });
    for (const key of ['sk_live_nope', KEYS.revoked]) {
      const client = new RealClient(sandbox, key);
      expectReadableError(await sdkErrorOf(client.auth.verify()), 401, 'AuthenticationError', 'authentication_error');
      expectReadableError(await sdkErrorOf(client.sessions.create(APPLICANT)), 401, 'AuthenticationError', 'authentication_error');
      expectReadableError(await sdkErrorOf(client.asyncJobs.get(UNKNOWN_UUID)), 401, 'AuthenticationError', 'authentication_error');
    }
  });

  it('402 InsufficientFundsError: a broke organization on every kind of operation whose error list has 402', async () => {
    const sandbox = await testSandbox({ rateLimit: false });
    const client = new RealClient(sandbox, KEYS.broke);
    for (const call of [
      () => client.sessions.create(APPLICANT),
      () => client.screening.phoneTrust({ phone: '+447700900001' }),
      () => client.financial.create({ ...APPLICANT, phone: '+14035550111' }),
      () => client.creditChecks.createSoft({ ...APPLICANT, phone: '+14035550111' }),
    ]) {
      expectReadableError(await sdkErrorOf(call()), 402, 'InsufficientFundsError', 'insufficient_funds_error');
    }
    const scenario = new RealClient(sandbox, KEYS.live, { headers: { 'X-Sandbox-Scenario': 'insufficient-funds' } });
    expectReadableError(
      await sdkErrorOf(scenario.screening.titleCheck({ ...APPLICANT, address: '1 Sandbox Way, Springfield, IL 62701' })),
      402,
      'InsufficientFundsError',
      'insufficient_funds_error',
    );
  });

  it('403 AuthorizationError: sandbox-key writes, another organization’s resources, a missing key where the spec says 403', async () => {
    const sandbox = await testSandbox({ rateLimit: false });
    const live = new RealClient(sandbox, KEYS.live);
    const other = new RealClient(sandbox, KEYS.other);
    const sandboxKey = new RealClient(sandbox, KEYS.sandbox);
    const session = (await live.sessions.create(APPLICANT)).data.id;
    const statement = (await live.financial.create({ ...APPLICANT, phone: '+14035550111' })).data.bankStatementId;
    const job = (await live.screening.adverseMedia(PERSON)).data.jobId;
    for (const call of [
      () => sandboxKey.sessions.updateStatus('test_pending', 'VERIFIED'),
      () => sandboxKey.screening.pepSanctions(PERSON),
      () => sandboxKey.upload([Buffer.from([0xff, 0xd8, 0xff, 0xe0])]),
      () => other.sessions.retrieve(session),
      () => other.sessions.updateStatus(session, 'VERIFIED'),
      () => other.financial.retrieve(statement),
      () => other.asyncJobs.get(job),
    ]) {
      expectReadableError(await sdkErrorOf(call()), 403, 'AuthorizationError', 'authorization_error');
    }
    const missingKey = await sandbox.call('GET', `/v1/async-jobs/${job}`, { key: null });
    expect(missingKey.status).toBe(403);
    expect(typeof missingKey.body.error).toBe('string');
  });

  it('404 NotFoundError: unknown session, statement, job, liveness session and workflow, including ids with "/" and spaces', async () => {
    const sandbox = await testSandbox({ rateLimit: false });
    const client = new RealClient(sandbox, KEYS.live);
    for (const call of [
      () => client.sessions.retrieve(UNKNOWN_UUID),
      () => client.sessions.retrieve('customer 1/2026'),
      () => client.sessions.updateStatus('a/b', 'VERIFIED'),
      () => client.sessions.createUploadUrls('x y', [{ file_name: 'a.jpg', content_type: 'image/jpeg', upload_type: 'id_front' }]),
      () => client.financial.retrieve('0e7b5c3a-9d1f-4e2b-8a6c-5f4d3e2c1b0a'),
      () => client.asyncJobs.get(UNKNOWN_UUID),
      () => client.face.getLivenessResult('live/1 2'),
      () => client.sessions.create({ ...APPLICANT, workflowId: UNKNOWN_UUID }),
      () => client.screening.phoneOwnership({ sessionId: UNKNOWN_UUID }),
    ]) {
      expectReadableError(await sdkErrorOf(call()), 404, 'NotFoundError', 'not_found_error');
    }
  });

  it('409 ConflictError: a terminal session and a reused Idempotency-Key with another body', async () => {
    const sandbox = await testSandbox({ rateLimit: false });
    const client = new RealClient(sandbox, KEYS.live);
    const id = (await client.sessions.create(APPLICANT)).data.id;
    await client.sessions.updateStatus(id, 'REJECTED');
    expectReadableError(await sdkErrorOf(client.sessions.updateStatus(id, 'VERIFIED')), 409, 'ConflictError', 'conflict_error');
    expectReadableError(
      await sdkErrorOf(client.sessions.createUploadUrls(id, [{ file_name: 's.jpg', content_type: 'image/jpeg', upload_type: 'selfie_front' }])),
      409,
      'ConflictError',
      'conflict_error',
    );
    const key = '9d5e1f0a-2b3c-4d5e-8f60-718293a4b5c6';
    await client.screening.adverseMedia(PERSON, { idempotencyKey: key });
    expectReadableError(
      await sdkErrorOf(client.screening.adverseMedia({ ...PERSON, lastName: 'Other' }, { idempotencyKey: key })),
      409,
      'ConflictError',
      'conflict_error',
    );
  });

  it('429 RateLimitError with a parseable Retry-After: a real burst and the rate-limited scenario', async () => {
    const sandbox = await testSandbox();
    const client = new RealClient(sandbox, KEYS.live);
    const errors: SdkError[] = [];
    for (let n = 0; n < 40; n++) {
      try {
        await client.auth.verify();
      } catch (error) {
        errors.push(error as SdkError);
      }
    }
    expect(errors.length).toBeGreaterThan(0);
    for (const error of errors) {
      expectReadableError(error, 429, 'RateLimitError', 'rate_limit_error');
      expect(error.response?.headers['retry-after']).toBeDefined();
      expect(error.retryAfter).toBeGreaterThanOrEqual(0);
      expect(error.retryAfter).toBeLessThanOrEqual(60);
    }
    // The daily quota: Retry-After runs to UTC midnight (the client caps its wait at 60 s).
    const quota = new RealClient(await testSandbox({ rateLimits: { dailyQuota: 2 } }), KEYS.live);
    await quota.auth.verify();
    await quota.sessions.list();
    const exhausted = await sdkErrorOf(quota.auth.verify());
    expectReadableError(exhausted, 429, 'RateLimitError', 'rate_limit_error');
    expect(exhausted.retryAfter).toBe((Date.parse('2026-01-16T00:00:00Z') - Date.parse('2026-01-15T09:30:00Z')) / 1000);
    const limited = new RealClient(await testSandbox(), KEYS.live, { headers: { 'X-Sandbox-Scenario': 'rate-limited' } });
    const scenario = await sdkErrorOf(limited.sessions.list());
    expectReadableError(scenario, 429, 'RateLimitError', 'rate_limit_error');
    expect(scenario.retryAfter).toBe(1);
  });

  it('503 ServiceUnavailableError with Retry-After: the carrier magic value, the carrier and flaky scenarios', async () => {
    const sandbox = await testSandbox({ rateLimit: false });
    const client = new RealClient(sandbox, KEYS.live);
    const carrier = await sdkErrorOf(client.screening.phoneOwnership({ phone: '+447700900009', firstName: 'Jane' }));
    expectReadableError(carrier, 503, 'ServiceUnavailableError', 'service_unavailable_error');
    expect(carrier.retryAfter).toBe(0);
    const scenario = new RealClient(sandbox, KEYS.live, { headers: { 'X-Sandbox-Scenario': 'carrier-unavailable' } });
    for (const call of [() => scenario.screening.phoneTrust({ phone: '+447700900001' }), () => scenario.screening.carrierAgeGate({ phone: '+447700900001' })]) {
      const error = await sdkErrorOf(call());
      expectReadableError(error, 503, 'ServiceUnavailableError', 'service_unavailable_error');
      if (error.response?.headers['retry-after'] !== undefined) expect(error.retryAfter).toBeGreaterThanOrEqual(0);
    }
    const flaky = new RealClient(sandbox, KEYS.live, { headers: { 'X-Sandbox-Scenario': 'flaky' } });
    const failures: SdkError[] = [];
    for (let n = 0; n < 40; n++) {
      try {
        await flaky.auth.verify();
      } catch (error) {
        failures.push(error as SdkError);
      }
    }
    expect(failures.length).toBeGreaterThan(0);
    for (const failure of failures) {
      expectReadableError(failure, 503, 'ServiceUnavailableError', 'service_unavailable_error');
      expect(failure.retryAfter).toBe(0);
    }
  });

  it('500 and other statuses become the base error with code api_error, still with a JSON error body', async () => {
    const sandbox = await testSandbox({ rateLimit: false });
    const broken = new RealClient(sandbox, KEYS.live, { headers: { 'X-Sandbox-Scenario': 'server-error' } });
    for (const call of [() => broken.sessions.list(), () => broken.screening.pepSanctions(PERSON), () => broken.asyncJobs.get(UNKNOWN_UUID)]) {
      expectReadableError(await sdkErrorOf(call()), 500, 'ApiError', 'api_error');
    }
  });

  it('parses Retry-After as the client does: seconds or an HTTP date, never negative', () => {
    const now = Date.parse('2026-01-15T09:30:00Z');
    expect(parseRetryAfter('0', now)).toBe(0);
    expect(parseRetryAfter('7', now)).toBe(7);
    expect(parseRetryAfter('Thu, 15 Jan 2026 09:30:30 GMT', now)).toBe(30);
    expect(parseRetryAfter('Thu, 15 Jan 2026 09:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });
});

describe('the transport rules of the client hold against the sandbox (facts §1)', () => {
  async function raw(sandbox: TestSandbox, method: string, path: string, headers: Record<string, string> = {}, body?: string) {
    const response = await sandbox.app.request(path, {
      method,
      headers: { 'x-api-key': KEYS.live, accept: 'application/json', ...headers },
      ...(body === undefined ? {} : { body }),
    });
    return { status: response.status, contentType: response.headers.get('content-type'), text: await response.text() };
  }

  it('GETs without Content-Type and POSTs of {} are accepted; every success answers a JSON body', async () => {
    const sandbox = await testSandbox({ rateLimit: false });
    for (const path of ['/v1/auth/verify', '/v1/sessions', '/v1/financial']) {
      const answer = await raw(sandbox, 'GET', path);
      expect(answer.status, path).toBe(200);
      expect(() => JSON.parse(answer.text), path).not.toThrow();
    }
    const liveness = await raw(sandbox, 'POST', '/v1/face/liveness/sessions', { 'content-type': 'application/json' }, '{}');
    expect(liveness.status).toBe(200);
    expect(JSON.parse(liveness.text)).toHaveProperty('liveness_session_id');
    // The only DELETE the sandbox has (control plane) also answers JSON.
    const cleared = await sandbox.app.request('/__sandbox/requests', { method: 'DELETE' });
    expect(cleared.status).toBe(200);
    expect(typeof (await cleared.json())).toBe('object');
  });

  it('decodes path parameters the client encodes with encodeURIComponent', async () => {
    const sandbox = await testSandbox({ rateLimit: false });
    const sandboxKey = new RealClient(sandbox, KEYS.sandbox);
    for (const id of ['a/b', 'with space', 'x%2Fy', 'q?x=1&y=2#h', 'ünï/cødé']) {
      expect((await sandboxKey.sessions.retrieve(id)).data.session_record.id, id).toBe(id);
    }
    const live = new RealClient(sandbox, KEYS.live);
    const externalId = 'crm/42 ünï & co 100%';
    const created = await live.financial.create({ ...APPLICANT, phone: '+14035550111', externalId });
    const listed = await live.financial.listByExternalId(externalId);
    expect(listed.data.bankStatements.map((record) => record.id)).toEqual([created.data.bankStatementId]);
    const session = await live.sessions.create({ ...APPLICANT, externalId });
    expect((await live.sessions.list({ externalId })).data.sessions.map((s) => s.id)).toEqual([session.data.id]);
  });

  it('an unknown /v1 path answers a JSON error body too', async () => {
    const sandbox = await testSandbox({ rateLimit: false });
    const answer = await raw(sandbox, 'GET', '/v1/nothing-here');
    expect(answer.status).toBe(404);
    expect(typeof JSON.parse(answer.text).error).toBe('string');
  });
});

describe('the mirrored schemas throw exactly where the real client throws (facts §2)', () => {
  async function realBodies(): Promise<{
    record: Record<string, unknown>;
    list: Record<string, unknown>;
    job: Record<string, unknown>;
    liveness: Record<string, unknown>;
  }> {
    const sandbox = await testSandbox({ rateLimit: false });
    const client = new RealClient(sandbox, KEYS.live);
    const id = (await client.sessions.create({ ...APPLICANT, externalId: 'c-1' })).data.id;
    const record = (await client.sessions.retrieve(id)).raw as Record<string, unknown>;
    const list = (await client.sessions.list()).raw as Record<string, unknown>;
    const queued = await client.screening.adverseMedia({ firstName: 'Harper', lastName: 'High', dateOfBirth: '1980-01-01' });
    sandbox.clock.advance(3_000);
    const job = (await client.asyncJobs.getAdverseMedia(queued.data.jobId)).raw as Record<string, unknown>;
    const liveness = (await client.face.createLivenessSession()).raw as Record<string, unknown>;
    return { record, list, job, liveness };
  }

  it('accepts the real bodies, strips unknown keys, and refuses each trap of §2', async () => {
    const { record, list, job, liveness } = await realBodies();
    const sessionRecord = record.session_record as Record<string, unknown>;
    expect(S.SessionRetrieveResponseSchema.safeParse(record).success).toBe(true);
    expect(S.SessionRetrieveResponseSchema.parse({ ...record, surprise: 1 })).not.toHaveProperty('surprise');
    const refuses = (schema: { safeParse(v: unknown): { success: boolean } }, value: unknown) => expect(schema.safeParse(value).success).toBe(false);
    // null where optional; nullable-but-required absent; enum-keyed record missing a key; Z datetimes; UUIDs; literals.
    refuses(S.SessionRetrieveResponseSchema, { ...record, session_record: { ...sessionRecord, external_id: null } });
    refuses(S.SessionRetrieveResponseSchema, { ...record, session_record: { ...sessionRecord, uploads: { id_front: 'yes' } } });
    refuses(S.SessionRetrieveResponseSchema, { ...record, resource_links: { self: null } });
    refuses(S.SessionListResponseSchema, { sessions: list.sessions });
    expect(S.SessionListResponseSchema.safeParse({ ...list, next_token: null }).success).toBe(true);
    refuses(S.SessionUploadUrlsResponseSchema, { signed_urls: [{ file_key: 'k', slot: 's', upload_type: null, upload_url: 'u' }] });
    const result = job.result as Record<string, unknown>;
    const { terrorism: _dropped, ...eightKeys } = result.exposuresByCategory as Record<string, unknown>;
    refuses(S.AdverseMediaJobResponseSchema, { ...job, result: { ...result, exposuresByCategory: eightKeys } });
    refuses(S.AdverseMediaJobResponseSchema, { ...job, createdAt: String(job.createdAt) });
    refuses(S.AsyncJobResponseSchema, { jobId: job.jobId, createdAt: 1, updatedAt: 'x', status: 'failed', error: null });
    refuses(S.AsyncJobResponseSchema, { ...job, status: 'READY' });
    refuses(S.AdverseMediaQueuedResponseSchema, { jobId: '11111111-1111-1111-1111-111111111111', status: 'pending', message: 'Queued' });
    refuses(S.AdverseMediaQueuedResponseSchema, { jobId: 'job_abc123', status: 'pending', message: 'Queued' });
    expect(S.LivenessSessionResponseSchema.safeParse(liveness).success).toBe(true);
    refuses(S.LivenessSessionResponseSchema, { ...liveness, expires_at: '2026-01-15T09:45:00+00:00' });
    refuses(S.AuthVerifyResponseSchema, { valid: false, organization: { id: 'o', name: 'n', status: 'active' } });
    refuses(S.PresignResponseSchema, { uploads: [{ uploadUrl: 'u' }] });
    refuses(S.FinancialRecordSchema, {
      id: 'f',
      organizationId: 'o',
      userId: 'u',
      senderUserId: 's',
      createdAt: 'c',
      updatedAt: 'u',
      status: 'PENDING',
      type: 'request',
      externalId: null,
    });
  });
});
