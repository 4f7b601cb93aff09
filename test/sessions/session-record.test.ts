import { describe, expect, it } from 'vitest';
import {
  applicantUserIdFor,
  buildApplicantUser,
  buildCreateSessionResponse,
  buildResourceLinks,
  buildSenderUser,
  buildSessionRecord,
  buildSessionUrl,
  buildSignedUploads,
  markUploaded,
  senderUserIdFor,
  LIST_PAGE_KEPT_ITEMS,
  listItemJson,
  listPageJson,
  toListItem,
  toSingleSessionResponse,
} from '../../src/sessions/session-record.ts';
import {
  CreateSessionBodySchema,
  CreateSessionResponseSchema,
  SessionListItemSchema,
  SessionRecordSchema,
  SessionUploadsBodySchema,
  SessionUploadsResponseSchema,
  SingleSessionResponseSchema,
  UPLOAD_FLAGS,
  UserProfileSchema,
  type SessionRecord,
} from '../../src/sessions/sessions.schemas.ts';
import { addMs, forbiddenNullPaths, NOW, pendingRecord, SESSION_ID, URLS } from './helpers.ts';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

function createFrom(raw: Record<string, unknown>, workflow?: { id: string; stepIds: string[]; expiresInHours?: number }) {
  const body = CreateSessionBodySchema.parse(raw);
  return buildSessionRecord({
    id: SESSION_ID,
    organizationId: 'org_demo',
    userId: applicantUserIdFor('org_demo', body.email),
    senderUserId: senderUserIdFor('org_demo'),
    type: 'session',
    body,
    ...(workflow === undefined ? {} : { workflow }),
    nowIso: NOW,
  });
}

describe('building a session record', () => {
  it('builds a PENDING record with only the keys that have values', () => {
    const record = createFrom({ firstName: 'Jane', lastName: 'Doe', email: 'jane@example.com' });
    expect(record).toEqual({
      id: SESSION_ID,
      organization_id: 'org_demo',
      user_id: applicantUserIdFor('org_demo', 'jane@example.com'),
      sender_user_id: senderUserIdFor('org_demo'),
      status: 'PENDING',
      type: 'session',
      session_progress: 'PENDING',
      created_at: NOW,
      updated_at: NOW,
      meta_data: {},
      uploads: Object.fromEntries(UPLOAD_FLAGS.map((flag) => [flag, false])),
    });
    expect(SessionRecordSchema.parse(record)).toEqual(record);
    expect(forbiddenNullPaths(record)).toEqual([]);
  });

  it('records external_id, workflow, redirect_url and expiry when given', () => {
    const record = createFrom(
      {
        first_name: 'Jane',
        last_name: 'Doe',
        email: 'jane@example.com',
        external_id: 'cust-9',
        redirect_url: 'https://example.com/back',
        expires_in_hours: 24,
      },
      { id: 'wf-1', stepIds: ['id-verification', 'face-liveness'], expiresInHours: 72 },
    );
    expect(record).toMatchObject({
      external_id: 'cust-9',
      workflow_id: 'wf-1',
      workflow_steps: ['id-verification', 'face-liveness'],
      redirect_url: 'https://example.com/back',
      expires_at: addMs(NOW, 24 * 3_600_000),
    });
    expect(forbiddenNullPaths(record)).toEqual([]);
  });

  it("applies the workflow's expiry when the request has none, and none when neither has one", () => {
    const body = { first_name: 'Jane', last_name: 'Doe', email: 'jane@example.com' };
    expect(createFrom(body, { id: 'wf-1', stepIds: [], expiresInHours: 72 }).expires_at).toBe(addMs(NOW, 72 * 3_600_000));
    expect('expires_at' in createFrom(body, { id: 'wf-1', stepIds: [] })).toBe(false);
  });

  it('gives the same applicant e-mail in an organization the same user id, whatever its case', () => {
    expect(applicantUserIdFor('org_demo', 'Jane@Example.com')).toBe(applicantUserIdFor('org_demo', 'jane@example.com'));
    expect(applicantUserIdFor('org_other', 'jane@example.com')).not.toBe(applicantUserIdFor('org_demo', 'jane@example.com'));
    expect(applicantUserIdFor('org_demo', 'jane@example.com')).toMatch(UUID_V4);
  });
});

describe('user profiles', () => {
  it('builds the applicant from the request, omitting phone when none was given', () => {
    const user = buildApplicantUser({ id: 'u1', person: { firstName: 'Jane', lastName: 'Doe', email: 'jane@example.com' }, nowIso: NOW });
    expect(user).toEqual({ id: 'u1', email: 'jane@example.com', first_name: 'Jane', last_name: 'Doe', created_at: NOW, updated_at: NOW });
    const withPhone = buildApplicantUser({
      id: 'u1',
      person: { firstName: 'Jane', lastName: 'Doe', email: 'j@example.com', phone: '+14155550123' },
      nowIso: NOW,
    });
    expect(Object.keys(withPhone)).toEqual(['id', 'email', 'first_name', 'last_name', 'phone', 'created_at', 'updated_at']);
    expect(withPhone.phone).toBe('+14155550123');
  });

  it('gives each organization one deterministic sender user', () => {
    const sender = buildSenderUser('org_demo', 'Demo Org');
    expect(buildSenderUser('org_demo', 'Demo Org')).toEqual(sender);
    expect(sender.id).toBe(senderUserIdFor('org_demo'));
    expect(sender.id).toMatch(UUID_V4);
    expect(sender.email).toMatch(/^[a-z.]+@demo-org\.example$/);
    expect(sender.phone).toMatch(/^\+1\d{3}5550\d{3}$/);
    expect(Date.parse(sender.created_at)).toBeLessThan(Date.parse(NOW));
    expect(UserProfileSchema.parse(sender)).toEqual(sender);
    expect(buildSenderUser('org_other').id).not.toBe(sender.id);
  });

  it('keeps each organization its own sender user id past the number of ids kept', () => {
    const first = senderUserIdFor('org_demo');
    const ids = Array.from({ length: 1500 }, (_, n) => senderUserIdFor(`org_${n}`));
    expect(new Set(ids).size).toBe(1500);
    expect(senderUserIdFor('org_demo')).toBe(first);
    expect(senderUserIdFor('org_7')).toBe(ids[7]);
  });
});

describe('responses', () => {
  it('answers create with id, session_url, camelCase externalId, expires_at and the two links', () => {
    const record = createFrom({
      firstName: 'Jane',
      lastName: 'Doe',
      email: 'jane@example.com',
      externalId: 'cust 1',
      redirectUrl: 'https://example.com/done?a=1&b=2',
      expiresInHours: 2,
    });
    const response = buildCreateSessionResponse(record, URLS);
    expect(response).toEqual({
      id: SESSION_ID,
      session_url: `http://127.0.0.1:4010/verify/${SESSION_ID}?oid=org_demo&redirect_url=https%3A%2F%2Fexample.com%2Fdone%3Fa%3D1%26b%3D2`,
      externalId: 'cust 1',
      expires_at: addMs(NOW, 2 * 3_600_000),
      links: [
        {
          rel: 'admin_console',
          href: `http://127.0.0.1:4010/console/sessions/${SESSION_ID}`,
          description: 'View and review this session in the admin console',
        },
        {
          rel: 'session_details',
          href: `http://127.0.0.1:4010/v1/sessions/${SESSION_ID}`,
          description: 'Retrieve this session and its results through the API',
        },
      ],
    });
    expect(Object.keys(response)).toEqual(['id', 'session_url', 'externalId', 'expires_at', 'links']);
    expect(CreateSessionResponseSchema.parse(response)).toEqual(response);
  });

  it('leaves externalId and expires_at out of the create answer when they do not apply', () => {
    const response = buildCreateSessionResponse(createFrom({ firstName: 'Jane', lastName: 'Doe', email: 'jane@example.com' }), URLS);
    expect(Object.keys(response)).toEqual(['id', 'session_url', 'links']);
    expect(response.session_url).toBe(`http://127.0.0.1:4010/verify/${SESSION_ID}?oid=org_demo`);
  });

  it('percent-encodes the session id and organization in the hosted URL', () => {
    expect(buildSessionUrl('https://verify.example/', 'a/b c', 'org&1')).toBe('https://verify.example/a%2Fb%20c?oid=org%261');
  });

  it('puts the page token after oid and redirect_url, keeps a non-default namespace last, and leaves the default one out', () => {
    const scope = (namespace: string) => ({ namespace, pageToken: (id: string) => `tok-${namespace}-${id}` });
    expect(buildSessionUrl('https://v.example', 's1', 'org', 'https://x.example/cb', { scope: scope('ci-7') })).toBe(
      'https://v.example/s1?oid=org&redirect_url=https%3A%2F%2Fx.example%2Fcb&token=tok-ci-7-s1&namespace=ci-7',
    );
    expect(buildSessionUrl('https://v.example', 's1', 'org', undefined, { scope: scope('default') })).toBe('https://v.example/s1?oid=org&token=tok-default-s1');
  });

  it('lists the eight list-shape fields only', () => {
    const record = createFrom({ firstName: 'Jane', lastName: 'Doe', email: 'jane@example.com', externalId: 'x' });
    const item = toListItem(record);
    expect(Object.keys(item)).toEqual(['id', 'organization_id', 'user_id', 'sender_user_id', 'status', 'type', 'session_progress', 'created_at', 'updated_at']);
    expect(SessionListItemSchema.parse(item)).toEqual(item);
  });

  it('renders a list item as the JSON text of its list shape, and a new version of the record anew', () => {
    const record = createFrom({ firstName: 'Jane', lastName: 'Doe', email: 'jane@example.com', externalId: 'x' });
    expect(listItemJson(record)).toBe(JSON.stringify(toListItem(record)));
    expect(listItemJson(record)).toBe(listItemJson(record));
    const decided = { ...record, status: 'VERIFIED' as const, updated_at: addMs(NOW, 60_000) };
    expect(JSON.parse(listItemJson(decided))).toMatchObject({ status: 'VERIFIED', updated_at: addMs(NOW, 60_000) });
    expect(JSON.parse(listItemJson(record))).toMatchObject({ status: 'PENDING', updated_at: NOW });
  });

  it('renders a page as JSON.stringify of its sessions and next_token gives, anew when a record or the token changes', () => {
    const records = [pendingRecord(), { ...pendingRecord(), id: 'other' }];
    const expected = (page: SessionRecord[], token: string | null) => JSON.stringify({ sessions: page.map(toListItem), next_token: token });
    expect(listPageJson('q', records, 'tok.sig')).toBe(expected(records, 'tok.sig'));
    expect(listPageJson('q', records, 'tok.sig')).toBe(expected(records, 'tok.sig'));
    expect(listPageJson('q', records, null)).toBe(expected(records, null));
    const decided = [{ ...(records[0] as SessionRecord), status: 'VERIFIED' as const }, records[1] as SessionRecord];
    expect(listPageJson('q', decided, null)).toBe(expected(decided, null));
    expect(listPageJson('q', records.slice(1), null)).toBe(expected(records.slice(1), null));
    expect(listPageJson('q', [], null)).toBe(JSON.stringify({ sessions: [], next_token: null }));
    const walked = Array.from({ length: LIST_PAGE_KEPT_ITEMS + 1 }, (_, i) => ({ ...pendingRecord(), id: `s-${i}` }));
    expect(listPageJson('walk', walked, 'tok.sig')).toBe(expected(walked, 'tok.sig'));
  });

  it('wraps the record with user, sender_user and string-only resource_links', () => {
    const record = pendingRecord();
    const user = buildApplicantUser({ id: record.user_id, person: { firstName: 'Jane', lastName: 'Doe', email: 'jane@example.com' }, nowIso: NOW });
    const body = toSingleSessionResponse(record, user, buildSenderUser('org_demo'), URLS);
    expect(body.resource_links).toEqual(buildResourceLinks(record, URLS));
    expect(body.resource_links).toEqual({
      session_url: `http://127.0.0.1:4010/verify/${SESSION_ID}?oid=org_demo`,
      admin_console: `http://127.0.0.1:4010/console/sessions/${SESSION_ID}`,
      session_details: `http://127.0.0.1:4010/v1/sessions/${SESSION_ID}`,
    });
    expect(SingleSessionResponseSchema.parse(body)).toEqual(body);
    expect(forbiddenNullPaths(body)).toEqual([]);
  });
});

describe('session uploads', () => {
  it('signs one URL per file, with upload_type only for named slots', () => {
    const files = SessionUploadsBodySchema.parse({
      files: [
        { file_name: 'Front.JPG', content_type: 'image/jpeg', upload_type: 'id_front' },
        { file_name: 'letter', content_type: 'application/pdf', slot: 'employment letter' },
      ],
    });
    const response = buildSignedUploads(files, (file) => ({
      fileKey: `uploads/key-${file.slot}`,
      uploadUrl: `http://127.0.0.1:4010/uploads/${encodeURIComponent(file.slot)}?signature=x`,
    }));
    expect(response).toEqual({
      signed_urls: [
        { file_key: 'uploads/key-id_front', slot: 'id_front', upload_type: 'id_front', upload_url: 'http://127.0.0.1:4010/uploads/id_front?signature=x' },
        { file_key: 'uploads/key-employment letter', slot: 'employment letter', upload_url: 'http://127.0.0.1:4010/uploads/employment%20letter?signature=x' },
      ],
    });
    expect(SessionUploadsResponseSchema.parse(response)).toEqual(response);
  });

  it('flips the uploads flag of a named slot once its file arrives, and ignores free slots', () => {
    const record = pendingRecord();
    const later = addMs(NOW, 5000);
    const uploaded = markUploaded(record, 'selfie_front', later);
    expect(uploaded.uploads?.selfie_front).toBe(true);
    expect(uploaded.uploads?.id_front).toBe(false);
    expect(uploaded.updated_at).toBe(later);
    expect(record.uploads?.selfie_front).toBe(false);
    expect(markUploaded(uploaded, 'selfie_front', addMs(later, 1))).toBe(uploaded);
    expect(markUploaded(record, 'employment_letter', later)).toBe(record);
    expect(markUploaded(record, 'hold_up_3_fingers', later).uploads?.hold_up_3_fingers).toBe(true);
  });
});
