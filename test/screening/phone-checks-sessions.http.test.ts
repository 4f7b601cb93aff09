import { describe, expect, it } from 'vitest';
import { SingleSessionResponseSchema } from '../../src/sessions/sessions.schemas.ts';
import { findSession } from '../../src/sessions/sessions.store.ts';
import { MAGIC_PHONES } from '../../src/screening/magic-values.ts';
import { PhoneOwnershipResponseSchema } from '../../src/screening/phone-ownership.schemas.ts';
import { PhoneTrustResponseSchema } from '../../src/screening/phone-trust.schemas.ts';
import { FROZEN_AT, KEYS, testSandbox, type TestSandbox } from '../helpers/sandbox.ts';
import { balanceOf, createSession, putWorkflow } from './http-helpers.ts';

const OWNERSHIP = '/v1/screening/phone-ownership';
const TRUST = '/v1/screening/phone-trust';
const AGE_GATE = '/v1/screening/carrier-age-gate';
const UNKNOWN_SESSION = '0b6f1c3e-8d2a-4e5f-9a7b-3c4d5e6f7a8b';
const PHONE_WORKFLOW = '9c1e5a7d-2b4f-4a6e-8d3c-7f1b2e9a4c60';

/** The session's analysis_data as GET /v1/sessions/{id} shows it. */
async function analysisOf(sandbox: TestSandbox, sessionId: string): Promise<Record<string, any> | undefined> {
  const answer = await sandbox.call('GET', `/v1/sessions/${sessionId}`);
  expect(answer.status).toBe(200);
  return answer.body.session_record.analysis_data;
}

describe('phone checks attached to a session', () => {
  it('fills phone and names from the applicant, writes phone_checks.ownership, echoes sessionId, and a repeat call overwrites', async () => {
    const sandbox = await testSandbox();
    const sessionId = await createSession(sandbox, { phone: MAGIC_PHONES.happyPath, firstName: 'Olivia', lastName: 'Hart' });
    const afterSession = await balanceOf(sandbox);

    const first = await sandbox.call('POST', OWNERSHIP, { body: { sessionId } });
    expect(first.status).toBe(200);
    const firstBody = PhoneOwnershipResponseSchema.parse(first.body);
    expect(firstBody).toMatchObject({ outcome: 'MATCH', nameScore: 100, firstNameScore: 100, lastNameScore: 100, sessionId });
    expect(first.headers.get('x-sandbox-explain')).toContain(`phone ${MAGIC_PHONES.happyPath} taken from session ${sessionId}`);
    expect(first.headers.get('x-sandbox-explain')).toContain(`attached to session ${sessionId} as analysis_data.phone_checks.ownership`);
    const { sessionId: _echo, ...stored } = firstBody;
    expect((await analysisOf(sandbox, sessionId))?.phone_checks).toEqual({ ownership: stored });
    // A session holding only an ownership result is still a valid single-session response.
    const parsed = SingleSessionResponseSchema.parse((await sandbox.call('GET', `/v1/sessions/${sessionId}`)).body);
    expect(Object.keys(parsed.session_record.analysis_data?.phone_checks ?? {})).toEqual(['ownership']);

    // A repeat with another number and strictness overwrites the stored result.
    sandbox.clock.advance(60_000);
    const second = await sandbox.call('POST', OWNERSHIP, { body: { sessionId, phone: MAGIC_PHONES.nameScore89, strictness: 'strict' } });
    expect(second.status).toBe(200);
    expect(second.body).toMatchObject({
      outcome: 'NO_MATCH',
      nameScore: 89,
      strictness: 'strict',
      threshold: 90,
      sessionId,
      checkedAt: '2026-01-15T09:31:00.000Z',
    });
    const session = findSession(sandbox.platform.worlds.get(), sessionId);
    expect(session?.record.analysis_data).toEqual({
      phone_checks: { ownership: { ...second.body, sessionId: undefined } },
    });
    expect((session?.record.analysis_data as any).phone_checks.ownership).not.toHaveProperty('sessionId');
    expect(session?.record.updated_at).toBe('2026-01-15T09:31:00.000Z');

    // The session's workflow (none) has no PHONE_OWNERSHIP_MATCH step: each call is billed.
    expect(await balanceOf(sandbox)).toBe(afterSession - 2);
  });

  it('writes phone_checks.trust beside an existing ownership result and overwrites it on a repeat', async () => {
    const sandbox = await testSandbox();
    const sessionId = await createSession(sandbox, { phone: MAGIC_PHONES.simSwap72h });
    await sandbox.call('POST', OWNERSHIP, { body: { sessionId } });
    const first = await sandbox.call('POST', TRUST, { body: { sessionId, sensitivity: 'low' } });
    expect(first.status).toBe(200);
    expect(PhoneTrustResponseSchema.parse(first.body)).toMatchObject({ tripped: true, tripReasons: ['SIM_SWAP_HIGH_RISK'], sensitivity: 'low', sessionId });

    const second = await sandbox.call('POST', TRUST, { body: { sessionId, phone: MAGIC_PHONES.callForwarding, sensitivity: 'high' } });
    expect(second.status).toBe(200);
    const analysis = await analysisOf(sandbox, sessionId);
    const { sessionId: _echo, ...stored } = second.body;
    expect(analysis?.phone_checks.trust).toEqual(stored);
    expect(analysis?.phone_checks.trust).toMatchObject({ tripped: true, tripReasons: ['CALL_FORWARDING_ACTIVE'], sensitivity: 'high', checkedAt: FROZEN_AT });
    expect(analysis?.phone_checks.ownership.outcome).toBe('NO_MATCH');
    // The whole session still parses with the sessions area's response schema.
    SingleSessionResponseSchema.parse((await sandbox.call('GET', `/v1/sessions/${sessionId}`)).body);
  });

  it('writes the carrier age gate to phone_checks.carrier_age_gate', async () => {
    const sandbox = await testSandbox();
    const sessionId = await createSession(sandbox, { phone: MAGIC_PHONES.under18 });
    const answer = await sandbox.call('POST', AGE_GATE, { body: { sessionId } });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ outcome: 'FAIL', ageVerified: 'NOT_VERIFIED', sessionId });
    const stored = findSession(sandbox.platform.worlds.get(), sessionId)?.record.analysis_data as any;
    expect(stored.phone_checks.carrier_age_gate).toMatchObject({ outcome: 'FAIL', ageVerified: 'NOT_VERIFIED', requiredAge: 18 });
    const parsed = SingleSessionResponseSchema.parse((await sandbox.call('GET', `/v1/sessions/${sessionId}`)).body);
    expect(parsed.session_record.analysis_data?.phone_checks?.carrier_age_gate?.outcome).toBe('FAIL');
  });

  it('lets the body override the applicant’s phone and names', async () => {
    const sandbox = await testSandbox();
    const sessionId = await createSession(sandbox, { phone: MAGIC_PHONES.noData });
    const answer = await sandbox.call('POST', OWNERSHIP, { body: { sessionId, phone: MAGIC_PHONES.happyPath, firstName: 'Someone', lastName: 'Else' } });
    expect(answer.body).toMatchObject({ outcome: 'MATCH', nameScore: 100 });
    expect(answer.headers.get('x-sandbox-explain')).not.toContain('taken from session');
  });

  it('does not charge a second time when the session’s workflow already has the PHONE_OWNERSHIP_MATCH and PHONE_TRUST_CHECK steps', async () => {
    const sandbox = await testSandbox();
    putWorkflow(sandbox, PHONE_WORKFLOW, ['phone-ownership-match', 'phone-trust-check']);
    const sessionId = await createSession(sandbox, { phone: MAGIC_PHONES.happyPath, workflowId: PHONE_WORKFLOW });
    const afterSession = await balanceOf(sandbox);

    const ownership = await sandbox.call('POST', OWNERSHIP, { body: { sessionId } });
    expect(ownership.status).toBe(200);
    expect(ownership.headers.get('x-sandbox-explain')).toContain(
      `billing: phone ownership not charged: the workflow of session ${sessionId} has the PHONE_OWNERSHIP_MATCH step`,
    );
    expect((await sandbox.call('POST', OWNERSHIP, { body: { sessionId } })).status).toBe(200);
    expect((await sandbox.call('POST', TRUST, { body: { sessionId } })).status).toBe(200);
    expect(await balanceOf(sandbox)).toBe(afterSession);

    // The age gate is not a step of this workflow: billed.
    expect((await sandbox.call('POST', AGE_GATE, { body: { sessionId } })).status).toBe(200);
    expect(await balanceOf(sandbox)).toBe(afterSession - 1);
    // Without the sessionId the same check is a standalone call: billed.
    expect((await sandbox.call('POST', OWNERSHIP, { body: { phone: MAGIC_PHONES.happyPath, firstName: 'Olivia' } })).status).toBe(200);
    expect(await balanceOf(sandbox)).toBe(afterSession - 2);
  });

  it('needs no balance for a check the session’s workflow already paid for', async () => {
    const sandbox = await testSandbox();
    putWorkflow(sandbox, PHONE_WORKFLOW, ['phone-trust-check']);
    const sessionId = await createSession(sandbox, { phone: MAGIC_PHONES.simSwap30d, workflowId: PHONE_WORKFLOW });
    await sandbox.call('PUT', '/__sandbox/organizations/org_demo/balance', { key: null, body: { balance: 0 } });
    expect((await sandbox.call('POST', TRUST, { body: { sessionId } })).status).toBe(200);
    expect((await sandbox.call('POST', OWNERSHIP, { body: { sessionId } })).status).toBe(402);
    expect(await balanceOf(sandbox)).toBe(0);
  });

  it('answers 503 for the carrier outage number with a session, storing and billing nothing', async () => {
    const sandbox = await testSandbox();
    const sessionId = await createSession(sandbox, { phone: MAGIC_PHONES.carrierOutage });
    const before = await balanceOf(sandbox);
    const answer = await sandbox.call('POST', OWNERSHIP, { body: { sessionId } });
    expect(answer.status).toBe(503);
    expect(answer.body).toEqual({ error: 'Service temporarily unavailable.' });
    expect(findSession(sandbox.platform.worlds.get(), sessionId)?.record.analysis_data).toBeUndefined();
    expect(await balanceOf(sandbox)).toBe(before);
  });

  it('answers 404 for an unknown session and 403 for another organization’s, billing and storing nothing', async () => {
    const sandbox = await testSandbox();
    const theirs = await createSession(sandbox, { phone: MAGIC_PHONES.happyPath }, KEYS.other);
    const before = await balanceOf(sandbox);

    const unknown = await sandbox.call('POST', OWNERSHIP, { body: { sessionId: UNKNOWN_SESSION } });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toBe(`Session ${UNKNOWN_SESSION} was not found: check the id (sessions live in the namespace that created them).`);
    for (const path of [OWNERSHIP, TRUST, AGE_GATE]) {
      const other = await sandbox.call('POST', path, { body: { sessionId: theirs } });
      expect(other.status).toBe(403);
      expect(other.body.error).toBe(`Session ${theirs} belongs to another organization: use an API key of the organization that created it.`);
    }
    expect(findSession(sandbox.platform.worlds.get(), theirs)?.record.analysis_data).toBeUndefined();
    expect(await balanceOf(sandbox)).toBe(before);
  });

  it('answers 400 when neither the body nor the session gives a phone, billing and storing nothing', async () => {
    const sandbox = await testSandbox();
    const sessionId = await createSession(sandbox, {});
    const before = await balanceOf(sandbox);
    for (const path of [OWNERSHIP, TRUST, AGE_GATE]) {
      const answer = await sandbox.call('POST', path, { body: { sessionId } });
      expect(answer.status).toBe(400);
      expect(answer.body.error).toBe(
        `Invalid request: body field phone is required: session ${sessionId} has no applicant phone on file; send an E.164 number such as +447700900001.`,
      );
    }
    expect(findSession(sandbox.platform.worlds.get(), sessionId)?.record.analysis_data).toBeUndefined();
    expect(await balanceOf(sandbox)).toBe(before);
  });

  it('answers 400 for an empty sessionId', async () => {
    const sandbox = await testSandbox();
    const answer = await sandbox.call('POST', TRUST, { body: { sessionId: '' } });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe('Invalid request: body field sessionId must not be empty: send the id of a session of your organization.');
  });
});
