import { mkdtempSync, writeFileSync, cpSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  buildSandboxFixture,
  DEFAULT_SANDBOX_FIXTURES_DIR,
  fillPlaceholders,
  loadSandboxSessionFixtures,
  SANDBOX_FIXTURE_IDS,
  SANDBOX_SESSION_TEST_IDENTIFIERS,
  sandboxSessionFor,
  sandboxSessionList,
  scenarioForId,
} from '../../src/sessions/sandbox-sessions.ts';
import { SessionListResponseSchema, SingleSessionResponseSchema, UPLOAD_FLAGS, type SingleSessionResponse } from '../../src/sessions/sessions.schemas.ts';
import { freshly, functionsCompiledBy } from '../helpers/compiled-functions.ts';
import { forbiddenNullPaths, URLS } from './helpers.ts';

const ORG = 'org_demo';
const get = (id: string, org = ORG): SingleSessionResponse => sandboxSessionFor(id, org, URLS).body;

/** Parses with the schema and checks nothing was stripped or nulled. */
function assertWellFormed(body: SingleSessionResponse): void {
  expect(SingleSessionResponseSchema.parse(body)).toEqual(body);
  expect(forbiddenNullPaths(body)).toEqual([]);
  expect(JSON.stringify(body)).not.toMatch(/\{(organization_id|base_url|verify_url|console_url)\}|%7B/);
}

describe('sandbox test identifiers', () => {
  it('answers every fixture as a well-formed single-session response for the caller organization', () => {
    for (const id of SANDBOX_FIXTURE_IDS) {
      const body = get(id);
      assertWellFormed(body);
      expect(body.session_record.id).toBe(id);
      expect(body.session_record.organization_id).toBe(ORG);
      expect(body.session_record.user_id).toBe(body.user.id);
      expect(body.session_record.sender_user_id).toBe(body.sender_user.id);
      expect(body.resource_links.session_details).toBe(`http://127.0.0.1:4010/v1/sessions/${id}`);
      expect(body.resource_links.session_url?.startsWith(`http://127.0.0.1:4010/verify/${id}?oid=org_demo`)).toBe(true);
    }
  });

  it('test_verified: VERIFIED with every field and every analysis member populated, passing', () => {
    const record = get('test_verified').session_record;
    expect(record.status).toBe('VERIFIED');
    expect(record.session_progress).toBe('COMPLETED');
    for (const key of [
      'external_id',
      'location',
      'workflow_id',
      'bank_statement_request_id',
      'workflow_steps',
      'meta_data',
      'uploads',
      'analysis_data',
      'redirect_url',
      'expires_at',
      'submitted_at',
    ]) {
      expect(record, key).toHaveProperty(key);
    }
    expect(Object.keys(record.analysis_data ?? {})).toEqual([
      'id_analysis_data',
      'secondary_id_analysis_data',
      'tertiary_id_analysis_data',
      'compare_faces_data',
      'id_matches_selfie',
      'faceliveness_score',
      'pep_sanctions_data',
      'adverse_media_data',
      'document_risk_data',
      'selected_document_types',
      'custom_form_data',
      'title_search_data',
      'phone_checks',
    ]);
    expect(Object.keys(record.meta_data ?? {})).toEqual([
      'applicantSubmissionIp',
      'applicantSubmissionDevice',
      'applicantViewTime',
      'applicantSubmissionBrowser',
      'applicantSubmissionLocation',
      'applicantSubmissionLocationDetails',
    ]);
    expect(record.analysis_data?.compare_faces_data?.face_match_result).toBe('MATCH');
    expect(record.analysis_data?.id_matches_selfie).toBe(true);
    expect(Object.keys(record.uploads ?? {})).toEqual([...UPLOAD_FLAGS]);
    expect(get('test_verified').user.phone).toMatch(/^\+1\d{10}$/);
  });

  it('test_rejected: the documented values of the AI auto-decline', () => {
    const record = get('test_rejected').session_record;
    expect(record.status).toBe('REJECTED');
    expect(record.analysis_data?.compare_faces_data?.face_match_confidence).toBe(42.3);
    expect(record.analysis_data?.compare_faces_data?.face_match_result).toBe('NO_MATCH');
    expect(record.analysis_data?.id_matches_selfie).toBe(false);
    expect(record.analysis_data?.id_analysis_data?.expiry_date_pass).toBe(false);
    expect(record.analysis_data?.id_analysis_data?.valid_state_pass).toBe(false);
    const declined = record.meta_data?.declinedData;
    expect(declined?.declined).toBe(true);
    expect(declined?.score).toBe(42.3);
    expect(declined?.reason).toMatchObject({ code: 'LOW_FACE_MATCH', slot: 'PRIMARY', severity: 'CRITICAL' });
  });

  it('test_submitted: SUBMITTED with passing scores', () => {
    const record = get('test_submitted').session_record;
    expect([record.status, record.session_progress]).toEqual(['SUBMITTED', 'COMPLETED']);
    expect(record.analysis_data?.compare_faces_data?.face_match_result).toBe('MATCH');
    expect(record.analysis_data?.id_matches_selfie).toBe(true);
    expect(record.analysis_data?.id_analysis_data).toMatchObject({ expiry_date_pass: true, valid_state_pass: true, age_restriction_pass: true });
    expect(record.analysis_data?.faceliveness_score).toBeGreaterThanOrEqual(70);
    expect(record.meta_data?.declinedData).toBeUndefined();
  });

  it('test_pending: PENDING, session_progress PENDING, no analysis_data', () => {
    const record = get('test_pending').session_record;
    expect([record.status, record.session_progress]).toEqual(['PENDING', 'PENDING']);
    expect('analysis_data' in record).toBe(false);
    expect('submitted_at' in record).toBe(false);
    expect(Object.values(record.uploads ?? {}).every((flag) => flag === false)).toBe(true);
  });

  it('test_voided: VOIDED with no analysis_data', () => {
    const record = get('test_voided').session_record;
    expect(record.status).toBe('VOIDED');
    expect('analysis_data' in record).toBe(false);
  });

  it('test_failed: FAILED, session_progress COMPLETED, failureData with 3 attempts', () => {
    const record = get('test_failed').session_record;
    expect([record.status, record.session_progress]).toEqual(['FAILED', 'COMPLETED']);
    const failure = record.meta_data?.failureData;
    expect(failure?.failedAttempts).toBe(3);
    expect(failure?.attempts).toHaveLength(3);
    for (const attempt of failure?.attempts ?? []) {
      expect(['NO_FACE_DETECTED', 'OCR_NAME_MISSING', 'DOC_TYPE_NOT_ALLOWED']).toContain(attempt.reason);
      expect(['PRIMARY', 'SECONDARY']).toContain(attempt.slot);
    }
  });

  it('substitutes the caller organization, percent-encoded inside URLs', () => {
    const body = get('test_pending', 'org a&b');
    expect(body.session_record.organization_id).toBe('org a&b');
    expect(body.resource_links.session_url).toBe('http://127.0.0.1:4010/verify/test_pending?oid=org%20a%26b');
  });

  it('keeps the fixture files equal to what their recipes build', () => {
    for (const id of SANDBOX_FIXTURE_IDS) {
      expect(loadSandboxSessionFixtures().get(id), id).toEqual(buildSandboxFixture(id));
    }
  });

  it("reads the fixture files on a process's first synthetic read without compiling a parser", async () => {
    const fresh = await freshly(() => import('../../src/sessions/sandbox-sessions.ts'));
    expect(functionsCompiledBy(() => fresh.loadSandboxSessionFixtures())).toBe(0);
  });

  it('refuses to load a broken fixture file, naming the file and the problem', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sandbox-fixtures-'));
    cpSync(fileURLToPath(DEFAULT_SANDBOX_FIXTURES_DIR), dir, { recursive: true });
    const broken = JSON.parse(JSON.stringify(buildSandboxFixture('test_voided'))) as { session_record: Record<string, unknown> };
    broken.session_record.external_id = null;
    writeFileSync(join(dir, 'test_voided.json'), JSON.stringify(broken));
    expect(() => loadSandboxSessionFixtures(dir)).toThrow(/test_voided\.json is not a single-session response: session_record\.external_id/);
  });

  it('documents every fixture in the test-identifier table', () => {
    const inputs = SANDBOX_SESSION_TEST_IDENTIFIERS.map((entry) => entry.input);
    for (const id of SANDBOX_FIXTURE_IDS) expect(inputs).toContain(id);
    for (const entry of SANDBOX_SESSION_TEST_IDENTIFIERS.filter((e) => e.input.startsWith('test_'))) {
      expect(get(entry.input).session_record.status).toBe(entry.outcome);
    }
  });
});

describe('any other sandbox id', () => {
  it('answers byte-identical bodies for the same id, carrying the id asked for', () => {
    const first = sandboxSessionFor('my-session-42', ORG, URLS);
    const second = sandboxSessionFor('my-session-42', ORG, URLS);
    expect(JSON.stringify(second.body)).toBe(JSON.stringify(first.body));
    expect(second.body).toEqual(first.body);
    expect(first.body.session_record.id).toBe('my-session-42');
    expect(first.scenario).toBe(scenarioForId('my-session-42'));
    expect(first.explanation).toBe(`sandbox: id "my-session-42" is not a test identifier -> ${first.scenario} chosen from a hash of the id`);
  });

  it('varies between ids and reaches every scenario', () => {
    const bodies = Array.from({ length: 60 }, (_, i) => sandboxSessionFor(`id-${i}`, ORG, URLS));
    expect(new Set(bodies.map((b) => b.body.user.email)).size).toBeGreaterThan(50);
    expect(new Set(bodies.map((b) => b.body.session_record.created_at)).size).toBeGreaterThan(50);
    expect(new Set(bodies.map((b) => b.scenario))).toEqual(new Set(['VERIFIED', 'REJECTED', 'SUBMITTED', 'PENDING', 'VOIDED', 'FAILED']));
  });

  it('fills each random scenario consistently with its status', () => {
    for (let i = 0; i < 80; i++) {
      const { body, scenario } = sandboxSessionFor(`consistency-${i}`, ORG, URLS);
      assertWellFormed(body);
      const record = body.session_record;
      expect(record.status).toBe(scenario);
      const analysis = record.analysis_data;
      switch (scenario) {
        case 'VERIFIED':
        case 'SUBMITTED':
          expect(analysis?.compare_faces_data?.face_match_result).toBe('MATCH');
          expect(analysis?.id_matches_selfie).toBe(true);
          expect(record.session_progress).toBe('COMPLETED');
          break;
        case 'REJECTED':
          expect(analysis?.compare_faces_data?.face_match_result).toBe('NO_MATCH');
          expect(record.meta_data?.declinedData?.score).toBe(analysis?.compare_faces_data?.face_match_confidence);
          break;
        case 'FAILED':
          expect(record.session_progress).toBe('COMPLETED');
          expect(record.meta_data?.failureData?.failedAttempts).toBe(3);
          expect(analysis).toBeUndefined();
          break;
        case 'PENDING':
        case 'VOIDED':
          expect(analysis).toBeUndefined();
          expect(record.submitted_at).toBeUndefined();
          break;
      }
      expect(Date.parse(record.updated_at)).toBeGreaterThanOrEqual(Date.parse(record.created_at));
    }
  });

  it('handles ids with characters that need encoding in links', () => {
    const body = get('a/b c?');
    expect(body.session_record.id).toBe('a/b c?');
    expect(body.resource_links.session_details).toBe('http://127.0.0.1:4010/v1/sessions/a%2Fb%20c%3F');
  });
});

describe('sandbox session list', () => {
  it('lists five sessions, one each of VERIFIED, REJECTED, PENDING, SUBMITTED, VOIDED, with next_token null', () => {
    const list = sandboxSessionList(ORG);
    expect(SessionListResponseSchema.parse(list)).toEqual(list);
    expect(list.next_token).toBeNull();
    expect(list.sessions.map((s) => [s.id, s.status])).toEqual([
      ['test_verified', 'VERIFIED'],
      ['test_rejected', 'REJECTED'],
      ['test_pending', 'PENDING'],
      ['test_submitted', 'SUBMITTED'],
      ['test_voided', 'VOIDED'],
    ]);
    expect(list.sessions.every((s) => s.organization_id === ORG)).toBe(true);
    expect(Object.keys(list.sessions[0] ?? {})).toHaveLength(9);
  });

  it('fills placeholders in any value', () => {
    expect(fillPlaceholders({ a: '{organization_id}', b: ['{base_url}/x?o={organization_id}'] }, 'o 1', URLS)).toEqual({
      a: 'o 1',
      b: ['http://127.0.0.1:4010/x?o=o%201'],
    });
  });
});
