/**
 * The self-exclusion registry over HTTP: every row of the spec's 'Self-exclusion registry' table, the
 * duplicate-face chain, listing (de-duplication, truncation at the limit edges), and the errors.
 */
import { describe, expect, it } from 'vitest';
import {
  AddIdentityResponseSchema,
  ExcludeApplicantResponseSchema,
  ExcludeFaceResponseSchema,
  PurgeEnrollmentResponseSchema,
  RegistryListResponseSchema,
  RemoveFaceResponseSchema,
  RemoveIdentityResponseSchema,
} from '../../src/igaming/igaming.schemas.ts';
import { FROZEN_AT, KEYS, testSandbox, type TestSandbox } from '../helpers/sandbox.ts';
import { antiCheat, playerSession, finishedSession, SELFIES } from './helpers.ts';

const IDENTITY = '/v1/igaming/self-exclusion/identity';
const REGISTRY = '/v1/igaming/self-exclusion';

async function registry(sandbox: TestSandbox, query = '') {
  const answer = await sandbox.call('GET', `${REGISTRY}${query}`);
  expect(answer.status).toBe(200);
  return RegistryListResponseSchema.parse(answer.body);
}

describe('identity exclusions', () => {
  it('adds numbers trimmed and upper-cased, in request order, with added / already_excluded / invalid', async () => {
    const sandbox = await testSandbox();
    const first = await sandbox.call('POST', IDENTITY, {
      body: { document_number: '  x1234567 ', reason: 'operator request', first_name: 'Jane', last_name: 'Doe' },
    });
    expect(first.status).toBe(200);
    expect(AddIdentityResponseSchema.parse(first.body)).toEqual({ excluded: [{ document_number: 'X1234567', status: 'added' }] });

    const many = await sandbox.call('POST', IDENTITY, { body: { document_numbers: ['doc-1', 'X1234567', 'DOC-1', '   '] } });
    expect(many.body).toEqual({
      excluded: [
        { document_number: 'DOC-1', status: 'added' },
        { document_number: 'X1234567', status: 'already_excluded' },
        { document_number: 'DOC-1', status: 'already_excluded' },
        { document_number: '', status: 'invalid' },
      ],
    });

    const list = await registry(sandbox);
    expect(list).toEqual({
      entries: [
        {
          type: 'identity',
          document_number: 'X1234567',
          reason: 'operator request',
          added_by: 'key_live_demo',
          added_at: FROZEN_AT,
          first_name: 'Jane',
          last_name: 'Doe',
        },
        { type: 'identity', document_number: 'DOC-1', reason: null, added_by: 'key_live_demo', added_at: FROZEN_AT },
      ],
      truncated: false,
    });
  });

  it('an already excluded number keeps its first reason and names (already_excluded changes nothing)', async () => {
    const sandbox = await testSandbox();
    await sandbox.call('POST', IDENTITY, { body: { document_number: 'A1', reason: 'first' } });
    sandbox.clock.advance(60_000);
    const again = await sandbox.call('POST', IDENTITY, { body: { document_number: 'a1', reason: 'second', first_name: 'Other' } });
    expect(again.body.excluded).toEqual([{ document_number: 'A1', status: 'already_excluded' }]);
    expect((await registry(sandbox)).entries).toEqual([
      { type: 'identity', document_number: 'A1', reason: 'first', added_by: 'key_live_demo', added_at: FROZEN_AT },
    ]);
  });

  it.each([
    [{}, 'document_number is required'],
    [{ document_numbers: [] }, 'document_numbers must not be empty'],
    [{ document_number: 'A1', document_numbers: ['B2'] }, 'exactly one'],
    [{ document_number: 42 }, 'document_number must be'],
    [{ document_numbers: 'A1' }, 'document_numbers must be an array'],
    [{ documentNumber: 'A1' }, 'documentNumber is not accepted: iGaming fields are snake_case only, send document_number'],
    [{ document_number: 'A1', firstName: 'Jane' }, 'firstName is not accepted: iGaming fields are snake_case only, send first_name'],
    [{ document_number: 'A1', reason: '' }, 'reason must not be empty'],
  ])('refuses %j with a 400 naming the field, storing nothing', async (body, message) => {
    const sandbox = await testSandbox();
    const answer = await sandbox.call('POST', IDENTITY, { body });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toContain(message);
    expect((await registry(sandbox)).entries).toEqual([]);
  });

  it('accepts any non-empty number ("/", space, "#", "?" included) and removes it through the URL-encoded path', async () => {
    const sandbox = await testSandbox();
    const numbers = ['doc/1', 'ab cd', 'n#5', 'what?', 'bad*number'];
    const added = await sandbox.call('POST', IDENTITY, { body: { document_numbers: numbers } });
    expect(added.body.excluded).toEqual(numbers.map((number) => ({ document_number: number.toUpperCase(), status: 'added' })));
    for (const number of numbers) {
      const removed = await sandbox.call('DELETE', `${IDENTITY}/${encodeURIComponent(number.toUpperCase())}`);
      expect(removed.status, number).toBe(200);
      expect(removed.body, number).toEqual({ removed: true, face_unexcluded: false });
    }
    expect((await registry(sandbox)).entries).toEqual([]);
  });

  it('removal is URL-decoded and normalized, never 404, and refuses an empty number', async () => {
    const sandbox = await testSandbox();
    await sandbox.call('POST', IDENTITY, { body: { document_numbers: ['AB 12', 'C/D'] } });
    const removed = await sandbox.call('DELETE', `${IDENTITY}/${encodeURIComponent(' ab 12 ')}`);
    expect(removed.status).toBe(200);
    expect(RemoveIdentityResponseSchema.parse(removed.body)).toEqual({ removed: true, face_unexcluded: false });

    const absent = await sandbox.call('DELETE', `${IDENTITY}/AB%2012`);
    expect(absent.status).toBe(200);
    expect(absent.body).toEqual({ removed: false, face_unexcluded: false });

    expect((await sandbox.call('DELETE', `${IDENTITY}/${encodeURIComponent('c/d')}`)).body).toEqual({ removed: true, face_unexcluded: false });
    for (const bad of ['%20%20', 'x'.repeat(201)]) {
      const refused = await sandbox.call('DELETE', `${IDENTITY}/${bad}`);
      expect(refused.status).toBe(400);
      expect(refused.body.error).toContain('path parameter "document_number"');
    }
  });
});

describe('the registry state table, row by row', () => {
  it('document number absent -> add identity -> present, status added', async () => {
    const sandbox = await testSandbox();
    expect((await sandbox.call('POST', IDENTITY, { body: { document_number: 'P1' } })).body.excluded[0].status).toBe('added');
    expect((await registry(sandbox)).entries.map((e) => e.type === 'identity' && e.document_number)).toEqual(['P1']);
  });

  it('document number present -> add identity -> present, status already_excluded', async () => {
    const sandbox = await testSandbox();
    await sandbox.call('POST', IDENTITY, { body: { document_number: 'P1' } });
    expect((await sandbox.call('POST', IDENTITY, { body: { document_number: 'P1' } })).body.excluded[0].status).toBe('already_excluded');
    expect((await registry(sandbox)).entries).toHaveLength(1);
  });

  it('document number present -> remove identity -> absent, removed true, the linked face exclusion cleared', async () => {
    const sandbox = await testSandbox();
    const session = await finishedSession(sandbox);
    await antiCheat(sandbox, session.id, SELFIES.personA);
    const excluded = await sandbox.call('POST', '/v1/igaming/self-exclusion/applicant', { body: { session_id: session.id, reason: 'player request' } });
    expect(excluded.body).toMatchObject({ face_attached: true, document_number: session.documentNumber });
    expect((await antiCheat(sandbox, 'later-session', SELFIES.personAPng)).body.verdict).toBe('SELF_EXCLUSION');

    const removed = await sandbox.call('DELETE', `${IDENTITY}/${session.documentNumber}`);
    expect(removed.body).toEqual({ removed: true, face_unexcluded: true });
    expect((await registry(sandbox)).entries).toEqual([]);
    expect((await antiCheat(sandbox, 'another-session', SELFIES.personAWebp)).body.verdict).toBe('DUPLICATE');
  });

  it('document number absent -> remove identity -> absent, removed false, no error', async () => {
    const sandbox = await testSandbox();
    const answer = await sandbox.call('DELETE', `${IDENTITY}/NEVER1`);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ removed: false, face_unexcluded: false });
  });

  it('face excluded -> clear face -> not excluded, unexcluded true', async () => {
    const sandbox = await testSandbox();
    const sessA = await playerSession(sandbox, 'sess-a');
    await antiCheat(sandbox, sessA, SELFIES.personA);
    const excluded = await sandbox.call('POST', '/v1/igaming/self-exclusion/face', { body: { session_id: sessA, reason: 'player request' } });
    expect(ExcludeFaceResponseSchema.parse(excluded.body)).toEqual({ excluded: true, session_id: sessA, reason: 'player request' });
    expect((await registry(sandbox)).entries).toEqual([{ type: 'face', session_id: sessA, reason: 'player request', excluded_at: FROZEN_AT }]);

    const cleared = await sandbox.call('DELETE', `/v1/igaming/self-exclusion/face/${sessA}`);
    expect(RemoveFaceResponseSchema.parse(cleared.body)).toEqual({ unexcluded: true });
    expect((await registry(sandbox)).entries).toEqual([]);
  });

  it('face not excluded -> clear face -> not excluded, unexcluded false, no error', async () => {
    const sandbox = await testSandbox();
    await antiCheat(sandbox, 'sess-a', SELFIES.personA);
    expect((await sandbox.call('DELETE', '/v1/igaming/self-exclusion/face/sess-a')).body).toEqual({ unexcluded: false });
    expect((await sandbox.call('DELETE', '/v1/igaming/self-exclusion/face/unknown-session')).body).toEqual({ unexcluded: false });
  });

  it('face enrolled -> purge enrollment -> deleted: the face entry leaves the registry, identity entries stay', async () => {
    const sandbox = await testSandbox();
    const sessA = await playerSession(sandbox, 'sess-a');
    const enrolled = await antiCheat(sandbox, sessA, SELFIES.personA);
    await sandbox.call('POST', '/v1/igaming/self-exclusion/face', { body: { session_id: sessA } });
    await sandbox.call('POST', IDENTITY, { body: { document_number: 'KEEP1' } });

    const purged = await sandbox.call('DELETE', `/v1/igaming/anti-cheat/${sessA}`);
    expect(enrolled.body.verdict).toBe('UNIQUE');
    expect(PurgeEnrollmentResponseSchema.parse(purged.body)).toEqual({ deleted: true, face_id: expect.any(String) });
    expect((await registry(sandbox)).entries).toEqual([
      { type: 'identity', document_number: 'KEEP1', reason: null, added_by: 'key_live_demo', added_at: FROZEN_AT },
    ]);
    // Idempotent: nothing left to delete.
    expect((await sandbox.call('DELETE', `/v1/igaming/anti-cheat/${sessA}`)).body).toEqual({ deleted: false, face_id: null });
    // The face is gone: the same selfie enrols anew.
    expect((await antiCheat(sandbox, 'sess-b', SELFIES.personAPng)).body.verdict).toBe('UNIQUE');
  });
});

describe('the duplicate-face chain', () => {
  it('enrol A, enrol B matching A, exclude B (flagged via A), purge B (deleted false), purge A (face entry gone, identity stays)', async () => {
    const sandbox = await testSandbox();
    const a = await finishedSession(sandbox, { first_name: 'Ann', last_name: 'Able' });
    const b = await finishedSession(sandbox, { first_name: 'Bob', last_name: 'Baker' });

    // Enrol A, then B with the same face (re-encoded): B is a duplicate pointing at A.
    const enrolA = await antiCheat(sandbox, a.id, SELFIES.personA);
    expect(enrolA.body).toMatchObject({ verdict: 'UNIQUE', action: 'allow' });
    const enrolB = await antiCheat(sandbox, b.id, SELFIES.personAPng);
    expect(enrolB.body).toEqual({ verdict: 'DUPLICATE', action: 'manual-review' });
    expect(enrolB.headers.get('x-sandbox-explain')).toContain(`to the enrolment of session ${a.id}`);

    // Exclude B's applicant: B's document number is added and the face is flagged through A.
    const excluded = await sandbox.call('POST', '/v1/igaming/self-exclusion/applicant', { body: { session_id: b.id, reason: 'player request' } });
    expect(excluded.status).toBe(200);
    expect(ExcludeApplicantResponseSchema.parse(excluded.body)).toEqual({
      face_attached: true,
      document_number: b.documentNumber,
      identity_status: 'added',
      matched_session_id: a.id,
    });
    expect((await antiCheat(sandbox, 'newcomer', SELFIES.personAWebp)).body).toEqual({ verdict: 'SELF_EXCLUSION', action: 'block' });
    // The face entry is represented by its linked identity entry: listed once.
    expect((await registry(sandbox)).entries).toEqual([
      {
        type: 'identity',
        document_number: b.documentNumber,
        reason: 'player request',
        added_by: 'key_live_demo',
        added_at: FROZEN_AT,
        first_name: 'Bob',
        last_name: 'Baker',
      },
    ]);

    // Purge B: it never enrolled a face of its own.
    expect((await sandbox.call('DELETE', `/v1/igaming/anti-cheat/${b.id}`)).body).toEqual({ deleted: false, face_id: null });
    // Purge A: the face (and its exclusion) goes, B's identity entry stays.
    expect((await sandbox.call('DELETE', `/v1/igaming/anti-cheat/${a.id}`)).body).toEqual({ deleted: true, face_id: expect.any(String) });
    expect((await registry(sandbox)).entries.map((entry) => entry.type)).toEqual(['identity']);
    expect((await sandbox.call('DELETE', `${IDENTITY}/${b.documentNumber}`)).body).toEqual({ removed: true, face_unexcluded: false });
  });

  it('a face excluded on its own is listed as a face entry, after the identity entries', async () => {
    const sandbox = await testSandbox();
    const sessA = await playerSession(sandbox, 'sess-a');
    const sessB = await playerSession(sandbox, 'sess-b');
    await antiCheat(sandbox, sessA, SELFIES.personA);
    await antiCheat(sandbox, sessB, SELFIES.personB);
    await sandbox.call('POST', '/v1/igaming/self-exclusion/face', { body: { session_id: sessB, reason: 'by face' } });
    await sandbox.call('POST', IDENTITY, { body: { document_number: 'ID-9' } });
    expect((await registry(sandbox)).entries.map((e) => e.type)).toEqual(['identity', 'face']);
  });
});

describe('applicant exclusion', () => {
  it('a session without face or document number excludes nothing and says so', async () => {
    const sandbox = await testSandbox();
    const created = await sandbox.call('POST', '/v1/sessions', { body: { first_name: 'P', last_name: 'Q', email: 'p@example.com' } });
    const answer = await sandbox.call('POST', '/v1/igaming/self-exclusion/applicant', { body: { session_id: created.body.id } });
    expect(answer.status).toBe(200);
    expect(ExcludeApplicantResponseSchema.parse(answer.body)).toEqual({
      face_attached: false,
      document_number: null,
      message: expect.stringContaining('Nothing to exclude for this session'),
    });
    expect((await registry(sandbox)).entries).toEqual([]);
  });

  it('a finished session without a face adds its document number (already_excluded the second time)', async () => {
    const sandbox = await testSandbox();
    const session = await finishedSession(sandbox);
    const first = await sandbox.call('POST', '/v1/igaming/self-exclusion/applicant', { body: { session_id: session.id } });
    expect(first.body).toEqual({ face_attached: false, document_number: session.documentNumber, identity_status: 'added' });
    const second = await sandbox.call('POST', '/v1/igaming/self-exclusion/applicant', { body: { session_id: session.id } });
    expect(second.body).toEqual({ face_attached: false, document_number: session.documentNumber, identity_status: 'already_excluded' });
  });

  it('404 for an unknown session or another organization’s, 400 for a malformed or missing session_id', async () => {
    const sandbox = await testSandbox();
    const other = await finishedSession(sandbox, undefined, { key: KEYS.other });
    expect((await sandbox.call('POST', '/v1/igaming/self-exclusion/applicant', { body: { session_id: other.id } })).status).toBe(404);
    expect((await sandbox.call('POST', '/v1/igaming/self-exclusion/applicant', { body: { session_id: '8a4e2c1d-0000-4000-8000-000000000000' } })).status).toBe(
      404,
    );
    for (const body of [{}, { session_id: '' }, { session_id: 'has space' }, { session_id: 7 }, { sessionId: 'abc' }]) {
      const answer = await sandbox.call('POST', '/v1/igaming/self-exclusion/applicant', { body });
      expect(answer.status).toBe(400);
      expect(answer.body.error).toMatch(/session_id|sessionId/);
    }
  });
});

describe('face exclusion', () => {
  it('a session with no enrolled face: excluded false with the reason why', async () => {
    const sandbox = await testSandbox();
    const answer = await sandbox.call('POST', '/v1/igaming/self-exclusion/face', { body: { session_id: 'no-face-here' } });
    expect(answer.status).toBe(200);
    expect(ExcludeFaceResponseSchema.parse(answer.body)).toEqual({
      excluded: false,
      session_id: 'no-face-here',
      reason: expect.stringContaining('No enrolled face'),
    });
  });

  it('through a duplicate: matched_session_id on exclude and on clear', async () => {
    const sandbox = await testSandbox();
    const orig = await playerSession(sandbox, 'orig');
    const dup = await playerSession(sandbox, 'dup');
    await antiCheat(sandbox, orig, SELFIES.personA);
    await antiCheat(sandbox, dup, SELFIES.personAPng);
    expect((await sandbox.call('POST', '/v1/igaming/self-exclusion/face', { body: { session_id: dup } })).body).toEqual({
      excluded: true,
      session_id: dup,
      matched_session_id: orig,
    });
    expect((await registry(sandbox)).entries).toEqual([{ type: 'face', session_id: orig, reason: null, excluded_at: FROZEN_AT }]);
    expect((await sandbox.call('DELETE', `/v1/igaming/self-exclusion/face/${dup}`)).body).toEqual({ unexcluded: true, matched_session_id: orig });
  });
});

describe('listing', () => {
  async function withIdentities(count: number): Promise<TestSandbox> {
    const sandbox = await testSandbox();
    const numbers = Array.from({ length: count }, (_, i) => `N${String(i).padStart(4, '0')}`);
    expect((await sandbox.call('POST', IDENTITY, { body: { document_numbers: numbers } })).status).toBe(200);
    return sandbox;
  }

  it('truncates exactly at the limit: limit = count is complete, limit = count - 1 is truncated', async () => {
    const sandbox = await withIdentities(5);
    expect(await registry(sandbox, '?limit=5')).toMatchObject({ truncated: false, entries: { length: 5 } });
    expect(await registry(sandbox, '?limit=6')).toMatchObject({ truncated: false, entries: { length: 5 } });
    const short = await registry(sandbox, '?limit=4');
    expect(short.truncated).toBe(true);
    expect(short.entries.map((e) => e.type === 'identity' && e.document_number)).toEqual(['N0000', 'N0001', 'N0002', 'N0003']);
    expect(await registry(sandbox, '?limit=1')).toMatchObject({ truncated: true, entries: { length: 1 } });
  });

  it('defaults to 200 entries and allows 1000', async () => {
    const sandbox = await withIdentities(201);
    expect(await registry(sandbox)).toMatchObject({ truncated: true, entries: { length: 200 } });
    expect(await registry(sandbox, '?limit=1000')).toMatchObject({ truncated: false, entries: { length: 201 } });
  });

  it.each(['0', '1001', 'abc', '2.5', '-1', ''])('refuses limit=%s with a 400', async (limit) => {
    const sandbox = await testSandbox();
    const answer = await sandbox.call('GET', `${REGISTRY}?limit=${limit}`);
    expect(answer.status).toBe(400);
    expect(answer.body.error).toContain('limit must be an integer from 1 to 1000');
  });

  it('sandbox keys read a fixed synthetic registry', async () => {
    const sandbox = await testSandbox();
    const answer = await sandbox.call('GET', `${REGISTRY}?limit=2`, { key: KEYS.sandbox });
    expect(answer.status).toBe(200);
    expect(RegistryListResponseSchema.parse(answer.body)).toMatchObject({
      truncated: true,
      entries: [{ document_number: 'DOC-1' }, { document_number: 'X1234567' }],
    });
  });

  it('keeps organizations and namespaces apart', async () => {
    const sandbox = await testSandbox();
    await sandbox.call('POST', IDENTITY, { body: { document_number: 'MINE1' } });
    expect((await sandbox.call('GET', REGISTRY, { key: KEYS.other })).body.entries).toEqual([]);
    expect((await sandbox.call('GET', REGISTRY, { namespace: 'ci-worker-2' })).body.entries).toEqual([]);
  });
});

describe('authentication on every registry route', () => {
  const ROUTES: [string, string, unknown?][] = [
    ['POST', '/v1/igaming/self-exclusion/applicant', { session_id: 'abc' }],
    ['POST', IDENTITY, { document_number: 'A1' }],
    ['DELETE', `${IDENTITY}/A1`],
    ['POST', '/v1/igaming/self-exclusion/face', { session_id: 'abc' }],
    ['DELETE', '/v1/igaming/self-exclusion/face/abc'],
    ['GET', REGISTRY],
    ['DELETE', '/v1/igaming/anti-cheat/abc'],
  ];

  it.each(ROUTES)('%s %s: missing key 403, invalid or revoked 401, sandbox-key writes 403', async (method, path, body) => {
    const sandbox = await testSandbox();
    expect((await sandbox.call(method, path, { key: null, body })).status).toBe(403);
    expect((await sandbox.call(method, path, { key: 'sk_live_nope_1234', body })).status).toBe(401);
    expect((await sandbox.call(method, path, { key: KEYS.revoked, body })).status).toBe(401);
    if (method !== 'GET') expect((await sandbox.call(method, path, { key: KEYS.sandbox, body })).status).toBe(403);
  });

  it('malformed session ids in the path are 400', async () => {
    const sandbox = await testSandbox();
    for (const path of ['/v1/igaming/anti-cheat/%20bad', '/v1/igaming/self-exclusion/face/a%2Fb', `/v1/igaming/anti-cheat/${'x'.repeat(129)}`]) {
      const answer = await sandbox.call('DELETE', path);
      expect(answer.status).toBe(400);
      expect(answer.body.error).toContain('session_id');
    }
  });
});
