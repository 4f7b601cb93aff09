import { describe, expect, it } from 'vitest';
import {
  BoundariesResponseSchema,
  CreateAgeVerificationResponseSchema,
  ParentConnectListResponseSchema,
  ParentConnectRequestSchema,
} from '../../src/age-verification/age-verification.schemas.ts';
import { FROZEN_AT, KEYS, testSandbox, type TestSandbox } from '../helpers/sandbox.ts';

const CHILD = { email: 'kid@example.com', firstName: 'Sam', lastName: 'Lee', phone: '+14155550123' };
const RESTRICTIONS = [
  { key: 'chat', label: 'In-game chat', type: 'toggle', category: 'feature', default: true },
  { key: 'dailyMinutes', label: 'Daily play time', type: 'minutes', default: 90, min: 0, max: 240 },
  { key: 'rating', label: 'Content rating', type: 'select', category: 'content', options: ['E', 'T'], default: 'E' },
];

async function create(sandbox: TestSandbox, body: Record<string, unknown>) {
  const response = await sandbox.call('POST', '/v1/age-verification', { body: { ...CHILD, ...body } });
  expect(response.status, response.text).toBe(200);
  return CreateAgeVerificationResponseSchema.parse(response.body);
}

async function parentConnect(sandbox: TestSandbox, body: Record<string, unknown> = {}) {
  const created = await create(sandbox, {
    method: 'parent-connect',
    ageBand: '13-17',
    platformRestrictions: RESTRICTIONS,
    eulaUrl: 'https://example.com/eula',
    ...body,
  });
  const link = new URL(created.links.find((entry) => entry.rel === 'parent_connect')?.href ?? '');
  const id = link.pathname.split('/').at(-1) as string;
  return { created, id, page: `${link.pathname}${link.search}`, form: `${link.pathname}/events${link.search}` };
}

const get = async (sandbox: TestSandbox, id: string) =>
  ParentConnectRequestSchema.parse((await sandbox.call('GET', `/v1/age-verification/parent-connect/${id}`)).body);
const drive = (sandbox: TestSandbox, id: string, body: Record<string, unknown>) =>
  sandbox.call('POST', `/__sandbox/age-verification/parent-connect/${id}/events`, { key: null, body });

/** Posts the parent's page form at `form`, the page link's form address. */
async function pressPage(sandbox: TestSandbox, form: string, fields: Record<string, string>) {
  const response = await sandbox.app.request(form, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });
  return { status: response.status, text: await response.text() };
}

describe('age verification: create', () => {
  it.each([
    ['quiz', 'intel-quiz'],
    ['credit-card', 'credit-card'],
  ])('method %s: a hosted age-verification session answered as %s, readable through the sessions API', async (method, answered) => {
    const sandbox = await testSandbox();
    const body = await create(sandbox, { method, externalId: 'user-7', expiresInHours: 2 });
    expect(body).toMatchObject({ method: answered, external_id: 'user-7', expires_at: '2026-01-15T11:30:00.000Z' });
    expect(new URL(body.session_url).pathname).toBe(`/verify/deep-age/${body.id}`);
    expect(body.links.map((link) => link.rel)).toEqual(['admin_console', 'session_details']);
    const session = await sandbox.call('GET', `/v1/sessions/${body.id}`);
    expect(session.body.session_record).toMatchObject({ id: body.id, type: 'age-verification', status: 'PENDING', external_id: 'user-7' });
    const sessionUrl = new URL(body.session_url);
    expect(sessionUrl.search).toBe(`?token=${sandbox.pageToken(body.id)}`);
    const page = await sandbox.app.request(`${sessionUrl.pathname}${sessionUrl.search}`);
    expect(page.status).toBe(302);
    expect(page.headers.get('location')).toBe(`/verify/${body.id}?oid=org_demo&token=${sandbox.pageToken(body.id)}`);
    expect((await sandbox.app.request(sessionUrl.pathname)).status).toBe(404);
  });

  it('method parent-connect: also a PENDING Parent Connect request with every key present; expires_at null without an expiry', async () => {
    const sandbox = await testSandbox();
    const { created, id } = await parentConnect(sandbox);
    expect(created.expires_at).toBeNull();
    expect(created).not.toHaveProperty('external_id');
    const record = await get(sandbox, id);
    expect(record).toEqual({
      id,
      child_session_id: created.id,
      parent_session_id: null,
      status: 'PENDING',
      age_band: '13-17',
      contact_method: null,
      platform_restrictions: RESTRICTIONS,
      boundaries: null,
      eula_url: 'https://example.com/eula',
      eula_accepted: false,
      child_attestation_id: record.child_attestation_id,
      parent_attestation_id: null,
      boundaries_revision: null,
      consent_given_at: null,
      consent_expires_at: null,
      reconsent_due_at: null,
      invite_expires_at: null,
      declined_at: null,
      created_at: FROZEN_AT,
      updated_at: FROZEN_AT,
    });
    expect(record.child_attestation_id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('refuses bad bodies naming the field, 402 with an empty balance, 403 for a sandbox key; nothing is stored', async () => {
    const sandbox = await testSandbox();
    for (const [body, field] of [
      [{ method: 'selfie' }, 'method'],
      [{ method: 'quiz', phone: '555-0123' }, 'phone'],
      [{ method: 'quiz', ageBand: '13-17' }, 'ageBand'],
      [{ method: 'parent-connect', eulaUrl: 'http://example.com/eula' }, 'eulaUrl'],
      [{ method: 'parent-connect', platformRestrictions: [{ key: 'rating', label: 'Rating', type: 'select' }] }, 'options'],
      [{ method: 'parent-connect', platformRestrictions: [{ key: 'm', label: 'Minutes', type: 'minutes', min: 60, max: 10 }] }, 'min must not exceed max'],
      [{ method: 'quiz', expiresInHours: 0 }, 'expiresInHours'],
    ] as const) {
      const response = await sandbox.call('POST', '/v1/age-verification', { body: { ...CHILD, ...body } });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.error).toContain(field);
    }
    expect((await sandbox.call('POST', '/v1/age-verification', { body: { ...CHILD, method: 'quiz' }, key: KEYS.broke })).status).toBe(402);
    expect((await sandbox.call('POST', '/v1/age-verification', { body: { ...CHILD, method: 'quiz' }, key: KEYS.sandbox })).status).toBe(403);
    expect((await sandbox.call('GET', '/v1/age-verification/parent-connect')).body).toEqual({ parent_connect_requests: [], next_token: null });
  });
});

describe('Parent Connect status machine', () => {
  it('PENDING -> PARENT_INVITED -> PARENT_VERIFIED -> CONSENT_GIVEN through the control plane, then boundaries by the child attestation', async () => {
    const sandbox = await testSandbox();
    const { id } = await parentConnect(sandbox);
    const invited = ParentConnectRequestSchema.parse((await drive(sandbox, id, { event: 'invite' })).body);
    expect(invited).toMatchObject({ status: 'PARENT_INVITED', contact_method: 'email', invite_expires_at: '2026-01-22T09:30:00.000Z' });
    sandbox.clock.advance(3_600_000);
    const verified = ParentConnectRequestSchema.parse((await drive(sandbox, id, { event: 'verify_parent' })).body);
    expect(verified.status).toBe('PARENT_VERIFIED');
    expect(verified.parent_session_id).not.toBeNull();
    expect(verified.parent_attestation_id).not.toBeNull();
    const consent = ParentConnectRequestSchema.parse((await drive(sandbox, id, { event: 'give_consent', boundaries: { chat: false, dailyMinutes: 60 } })).body);
    expect(consent).toMatchObject({
      status: 'CONSENT_GIVEN',
      boundaries: { chat: false, dailyMinutes: 60, rating: 'E' },
      boundaries_revision: 1,
      eula_accepted: true,
      consent_given_at: '2026-01-15T10:30:00.000Z',
      consent_expires_at: '2027-01-15T10:30:00.000Z',
      reconsent_due_at: '2026-12-16T10:30:00.000Z',
      updated_at: '2026-01-15T10:30:00.000Z',
    });
    const updated = ParentConnectRequestSchema.parse((await drive(sandbox, id, { event: 'update_boundaries', boundaries: { dailyMinutes: 30 } })).body);
    expect(updated).toMatchObject({ boundaries: { chat: false, dailyMinutes: 30, rating: 'E' }, boundaries_revision: 2 });
    const boundaries = BoundariesResponseSchema.parse((await sandbox.call('GET', `/v1/age-verification/boundaries/${consent.child_attestation_id}`)).body);
    expect(boundaries).toEqual({
      child_attestation_id: consent.child_attestation_id,
      parent_attestation_id: verified.parent_attestation_id,
      parent_connect_id: id,
      age_band: '13-17',
      parental_consent: true,
      eula_accepted: true,
      boundaries: { chat: false, dailyMinutes: 30, rating: 'E' },
      boundaries_revision: 2,
      boundaries_match_attestation: true,
      consent_expires_at: '2027-01-15T10:30:00.000Z',
      updated_at: '2026-01-15T10:30:00.000Z',
    });
    const again = await drive(sandbox, id, { event: 'invite' });
    expect(again.status).toBe(409);
    expect(again.body.error).toContain('CONSENT_GIVEN');
  });

  it('DECLINED from any open status; EXPIRED when the invitation lapses on the clock or on the expire event', async () => {
    const sandbox = await testSandbox();
    const declined = await parentConnect(sandbox);
    expect(ParentConnectRequestSchema.parse((await drive(sandbox, declined.id, { event: 'decline' })).body)).toMatchObject({
      status: 'DECLINED',
      declined_at: FROZEN_AT,
    });
    expect((await drive(sandbox, declined.id, { event: 'invite' })).status).toBe(409);

    const lapsed = await parentConnect(sandbox);
    await drive(sandbox, lapsed.id, { event: 'invite' });
    sandbox.clock.advance(7 * 86_400_000 - 1);
    expect((await get(sandbox, lapsed.id)).status).toBe('PARENT_INVITED');
    sandbox.clock.advance(1);
    expect((await get(sandbox, lapsed.id)).status).toBe('EXPIRED');
    expect((await drive(sandbox, lapsed.id, { event: 'verify_parent' })).status).toBe(409);

    const forced = await parentConnect(sandbox);
    expect((await drive(sandbox, forced.id, { event: 'expire' })).status).toBe(409);
    await drive(sandbox, forced.id, { event: 'invite' });
    expect(ParentConnectRequestSchema.parse((await drive(sandbox, forced.id, { event: 'expire' })).body).status).toBe('EXPIRED');
  });

  it('the parent’s hosted page drives the same machine: boundaries from the form, the EULA must be accepted', async () => {
    const sandbox = await testSandbox();
    const { id, page: pagePath, form } = await parentConnect(sandbox);
    const page = await sandbox.app.request(pagePath);
    expect(await page.text()).toContain('Invite the parent');
    expect((await pressPage(sandbox, form, { event: 'invite' })).status).toBe(303);
    expect((await pressPage(sandbox, form, { event: 'verify_parent' })).status).toBe(303);
    const noEula = await pressPage(sandbox, form, { event: 'give_consent', b_dailyMinutes: '45', b_rating: 'T' });
    expect(noEula.status).toBe(400);
    expect(noEula.text).toContain('EULA');
    const outOfRange = await pressPage(sandbox, form, { event: 'give_consent', b_dailyMinutes: '999', accept_eula: 'on' });
    expect(outOfRange.status).toBe(400);
    expect(outOfRange.text).toContain('dailyMinutes');
    expect((await get(sandbox, id)).status).toBe('PARENT_VERIFIED');
    expect((await pressPage(sandbox, form, { event: 'give_consent', b_chat: 'on', b_dailyMinutes: '45', b_rating: 'T', accept_eula: 'on' })).status).toBe(303);
    expect(await get(sandbox, id)).toMatchObject({ status: 'CONSENT_GIVEN', boundaries: { chat: true, dailyMinutes: 45, rating: 'T' }, eula_accepted: true });
    expect((await pressPage(sandbox, form, { event: 'decline' })).status).toBe(409);
    expect((await pressPage(sandbox, 'nope', { event: 'invite' })).status).toBe(404);
  });
});

describe('Parent Connect reads', () => {
  it('lists newest first with next_token, by child_session_id, and filters status after the page read', async () => {
    const sandbox = await testSandbox();
    const made: { id: string; child: string }[] = [];
    for (let index = 0; index < 3; index += 1) {
      const { created, id } = await parentConnect(sandbox);
      made.push({ id, child: created.id });
      sandbox.clock.advance(1000);
    }
    await drive(sandbox, made[2]?.id as string, { event: 'invite' });
    const first = ParentConnectListResponseSchema.parse((await sandbox.call('GET', '/v1/age-verification/parent-connect?limit=2')).body);
    expect(first.parent_connect_requests.map((record) => record.id)).toEqual([made[2]?.id, made[1]?.id]);
    const second = ParentConnectListResponseSchema.parse(
      (await sandbox.call('GET', `/v1/age-verification/parent-connect?limit=2&next_token=${encodeURIComponent(first.next_token ?? '')}`)).body,
    );
    expect(second.parent_connect_requests.map((record) => record.id)).toEqual([made[0]?.id]);
    expect(second.next_token).toBeNull();
    const pendingFirstPage = ParentConnectListResponseSchema.parse(
      (await sandbox.call('GET', '/v1/age-verification/parent-connect?limit=2&status=PENDING')).body,
    );
    expect(pendingFirstPage.parent_connect_requests.map((record) => record.id)).toEqual([made[1]?.id]);
    expect(pendingFirstPage.next_token).not.toBeNull();
    const byChild = ParentConnectListResponseSchema.parse(
      (await sandbox.call('GET', `/v1/age-verification/parent-connect?child_session_id=${made[0]?.child}`)).body,
    );
    expect(byChild.parent_connect_requests.map((record) => record.id)).toEqual([made[0]?.id]);
    expect((await sandbox.call('GET', '/v1/age-verification/parent-connect?limit=101')).status).toBe(400);
    expect((await sandbox.call('GET', '/v1/age-verification/parent-connect?status=WAITING')).status).toBe(400);
    expect((await sandbox.call('GET', `/v1/age-verification/parent-connect?next_token=${encodeURIComponent(`${first.next_token}x`)}`)).status).toBe(400);
  });

  it('answers 404 for unknown ids and attestations and 403 for another organization’s request', async () => {
    const sandbox = await testSandbox();
    const { id } = await parentConnect(sandbox);
    expect((await sandbox.call('GET', '/v1/age-verification/parent-connect/pc_999')).status).toBe(404);
    expect((await sandbox.call('GET', `/v1/age-verification/parent-connect/${id}`, { key: KEYS.other })).status).toBe(403);
    const unknown = await sandbox.call('GET', '/v1/age-verification/boundaries/att_nope');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toContain('child_attestation_id');
    expect((await sandbox.call('GET', '/v1/age-verification/parent-connect', { key: KEYS.other })).body.parent_connect_requests).toEqual([]);
  });

  it('a sandbox key reads the test identifiers: pc_123 invited, six records listed, boundaries of att_child_123', async () => {
    const sandbox = await testSandbox();
    const invited = ParentConnectRequestSchema.parse((await sandbox.call('GET', '/v1/age-verification/parent-connect/pc_123', { key: KEYS.sandbox })).body);
    expect(invited).toMatchObject({ id: 'pc_123', status: 'PARENT_INVITED', age_band: '13-17', contact_method: 'email', boundaries: null });
    const list = ParentConnectListResponseSchema.parse((await sandbox.call('GET', '/v1/age-verification/parent-connect', { key: KEYS.sandbox })).body);
    expect(list.parent_connect_requests.map((record) => record.status)).toEqual([
      'PARENT_INVITED',
      'PENDING',
      'PARENT_VERIFIED',
      'CONSENT_GIVEN',
      'EXPIRED',
      'DECLINED',
    ]);
    const consent = ParentConnectListResponseSchema.parse(
      (await sandbox.call('GET', '/v1/age-verification/parent-connect?status=CONSENT_GIVEN', { key: KEYS.sandbox })).body,
    );
    expect(consent.parent_connect_requests.map((record) => record.id)).toEqual(['pc_consent_given']);
    const boundaries = BoundariesResponseSchema.parse((await sandbox.call('GET', '/v1/age-verification/boundaries/att_child_123', { key: KEYS.sandbox })).body);
    expect(boundaries).toMatchObject({
      parent_connect_id: 'pc_consent_given',
      boundaries: { chat: false, dailyMinutes: 60 },
      boundaries_revision: 2,
      parental_consent: true,
    });
  });

  it('a sandbox key reads an id outside the fixture table as synthetic data derived from the id, the same every time', async () => {
    const sandbox = await testSandbox();
    const read = async () => await sandbox.call('GET', '/v1/age-verification/parent-connect/pc_nope', { key: KEYS.sandbox });
    const first = await read();
    expect(first.status).toBe(200);
    const request = ParentConnectRequestSchema.parse(first.body);
    expect(request).toMatchObject({ id: 'pc_nope', child_attestation_id: 'att_child_pc_nope' });
    expect(['PENDING', 'PARENT_INVITED', 'PARENT_VERIFIED', 'CONSENT_GIVEN', 'EXPIRED', 'DECLINED']).toContain(request.status);
    expect((await read()).text).toBe(first.text);
    const boundaries = await sandbox.call('GET', '/v1/age-verification/boundaries/att_anything_9', { key: KEYS.sandbox });
    expect(boundaries.status).toBe(200);
    expect(BoundariesResponseSchema.parse(boundaries.body)).toMatchObject({
      child_attestation_id: 'att_anything_9',
      parent_connect_id: 'pc_att_anything_9',
      parental_consent: true,
      boundaries: { chat: false, dailyMinutes: 60 },
    });
    // A live key still gets 404 for what does not exist.
    expect((await sandbox.call('GET', '/v1/age-verification/parent-connect/pc_nope')).status).toBe(404);
  });
});
