import { describe, expect, it } from 'vitest';
import { APPLICANT_OUTCOME_TABLE } from '../../src/sessions/redirect-callback.ts';
import { testSandbox, type TestSandbox } from '../helpers/sandbox.ts';
import { actionOf, BASE, CALLBACK, callbackOf, createSession, drive, getSession, HOUR, JANE, local, openPage, press } from './route-helpers.ts';

const fresh = () => testSandbox({ rateLimit: false });

async function pageOf(sandbox: TestSandbox, body: Record<string, unknown> = { ...JANE, redirectUrl: CALLBACK }, namespace?: string) {
  const created = await createSession(sandbox, body, namespace === undefined ? {} : { namespace });
  const page = await openPage(sandbox, created.session_url);
  return { created, page };
}

describe('the applicant’s hosted page', () => {
  it('renders on exactly the session_url, without an API key: the name and one button per outcome, no script', async () => {
    const sandbox = await fresh();
    const { created, page } = await pageOf(sandbox);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.html).toContain('<h1>Hello, Jane Doe</h1>');
    expect(page.html).toContain('Demo Org');
    expect(page.html).not.toMatch(/<script/i);
    const buttons = [...page.html.matchAll(/<input type="hidden" name="outcome" value="([a-z_]+)">/g)].map((m) => m[1]);
    expect(buttons).toEqual(APPLICANT_OUTCOME_TABLE.map((row) => row.outcome));
    for (const row of APPLICANT_OUTCOME_TABLE) expect(page.html).toContain(row.label);
    expect(actionOf(page.html)).toBe(`${BASE}/verify/${created.id}/outcome?oid=org_demo&token=${sandbox.pageToken(created.id)}`);
    // Opening the page starts the session.
    expect((await getSession(sandbox, created.id)).session_record.session_progress).toBe('STARTED');
  });

  it('escapes what the applicant typed', async () => {
    const sandbox = await fresh();
    const { page } = await pageOf(sandbox, { firstName: '<script>alert(1)</script>', lastName: 'O"Brien', email: 'x@example.com' });
    expect(page.html).not.toContain('<script>alert(1)</script>');
    expect(page.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt; O&quot;Brien');
  });

  const EXPECTED: Record<string, { query: Record<string, string>; status: string }> = {
    success: { query: { status: 'success' }, status: 'SUBMITTED' },
    document_unreadable: { query: { status: 'failed', reason: 'document_unreadable' }, status: 'FAILED' },
    face_mismatch: { query: { status: 'failed', reason: 'face_mismatch' }, status: 'REJECTED' },
    internal_error: { query: { status: 'failed', reason: 'internal_error' }, status: 'PENDING' },
    user_cancelled: { query: { status: 'abandoned', reason: 'user_cancelled' }, status: 'PENDING' },
    session_expired: { query: { status: 'expired', reason: 'session_expired' }, status: 'PENDING' },
  };

  for (const row of APPLICANT_OUTCOME_TABLE) {
    it(`button ${row.outcome}: 303 to redirect_url with the callback query, and the session moves to ${EXPECTED[row.outcome]?.status}`, async () => {
      const sandbox = await fresh();
      const { created, page } = await pageOf(sandbox);
      const answer = await press(sandbox, actionOf(page.html), row.outcome);
      expect(answer.status).toBe(303);
      const expected = EXPECTED[row.outcome];
      expect(callbackOf(answer.location)).toEqual({ order: '77', session_id: created.id, ...expected?.query });
      if (row.outcome === 'success') expect(answer.location).not.toContain('reason=');
      const record = (await getSession(sandbox, created.id)).session_record;
      expect(record.status).toBe(expected?.status);
      expect(record.status).toBe(row.resultingStatus);
    });
  }

  it('records the run as a real one would: success leaves passing analysis, face_mismatch a declined one, document_unreadable failureData', async () => {
    const sandbox = await fresh();
    const a = await pageOf(sandbox);
    await press(sandbox, actionOf(a.page.html), 'success');
    const submitted = (await getSession(sandbox, a.created.id)).session_record;
    expect(submitted.analysis_data?.compare_faces_data?.face_match_result).toBe('MATCH');
    expect(submitted.meta_data?.applicantSubmissionBrowser).toBeTypeOf('string');
    const b = await pageOf(sandbox);
    await press(sandbox, actionOf(b.page.html), 'face_mismatch');
    const rejected = (await getSession(sandbox, b.created.id)).session_record;
    expect(rejected.meta_data?.declinedData?.reason.code).toBe('LOW_FACE_MATCH');
    expect(rejected.analysis_data?.id_matches_selfie).toBe(false);
    const c = await pageOf(sandbox);
    await press(sandbox, actionOf(c.page.html), 'document_unreadable');
    const failed = (await getSession(sandbox, c.created.id)).session_record;
    expect(failed.meta_data?.failureData?.failedAttempts).toBe(3);
    expect(failed.session_progress).toBe('COMPLETED');
  });

  it('lets the applicant come back after cancelling or an internal error, and finish', async () => {
    const sandbox = await fresh();
    const { created, page } = await pageOf(sandbox);
    await press(sandbox, actionOf(page.html), 'user_cancelled');
    await press(sandbox, actionOf(page.html), 'internal_error');
    const again = await openPage(sandbox, created.session_url);
    expect(again.html).toContain('Finish verification');
    const finished = await press(sandbox, actionOf(again.html), 'success');
    expect(callbackOf(finished.location).status).toBe('success');
  });

  it('shows a result page (200 HTML) when the session has no redirect_url', async () => {
    const sandbox = await fresh();
    const { created, page } = await pageOf(sandbox, JANE);
    const answer = await press(sandbox, actionOf(page.html), 'face_mismatch');
    expect(answer.status).toBe(200);
    expect(answer.location).toBeNull();
    expect(answer.html).toContain('The verification could not be completed.');
    expect(answer.html).toContain('status <code>failed</code>, reason <code>face_mismatch</code>');
    expect(answer.html).toContain(`<code>${created.id}</code>`);
    expect(answer.html).toContain('<span class="status">REJECTED</span>');
    const success = await pageOf(sandbox, JANE);
    const done = await press(sandbox, actionOf(success.page.html), 'success');
    expect(done.html).toContain('Thank you: your verification was submitted.');
    expect(done.html).not.toContain('reason <code>');
  });

  it('says an expired session expired, and every button redirects with expired / session_expired, changing nothing', async () => {
    const sandbox = await fresh();
    const { created, page } = await pageOf(sandbox, { ...JANE, redirectUrl: CALLBACK, expiresInHours: 1 });
    sandbox.clock.advance(HOUR);
    const expiredPage = await openPage(sandbox, created.session_url);
    expect(expiredPage.status).toBe(200);
    expect(expiredPage.html).toContain(`This link expired at <strong>${created.expires_at}</strong>`);
    expect(expiredPage.html).toContain('<span class="status">EXPIRED</span>');
    const before = (await getSession(sandbox, created.id)).session_record;
    for (const row of APPLICANT_OUTCOME_TABLE) {
      const answer = await press(sandbox, actionOf(page.html), row.outcome);
      expect(answer.status).toBe(303);
      expect(callbackOf(answer.location)).toEqual({ order: '77', session_id: created.id, status: 'expired', reason: 'session_expired' });
    }
    expect((await getSession(sandbox, created.id)).session_record).toEqual(before);
  });

  it('answers a finished session’s page without buttons, and a late button press with 409 HTML', async () => {
    const sandbox = await fresh();
    const { created, page } = await pageOf(sandbox);
    await drive(sandbox, created.id, { outcome: 'VERIFIED' });
    const finished = await openPage(sandbox, created.session_url);
    expect(finished.status).toBe(200);
    expect(finished.html).toContain('is finished: status <span class="status">VERIFIED</span>');
    expect(finished.html).not.toContain('<form');
    const late = await press(sandbox, actionOf(page.html), 'success');
    expect(late.status).toBe(409);
    expect(late.html).toContain(`Session ${created.id} is VERIFIED (terminal); it cannot move to SUBMITTED`);
  });

  it('answers 404 HTML for an unknown session or another organization’s oid, and 400 for an unknown button', async () => {
    const sandbox = await fresh();
    const unknownId = '0d1c2b3a-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
    const unknown = await sandbox.app.request(`/verify/${unknownId}?oid=org_demo&token=${sandbox.pageToken(unknownId)}`);
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await unknown.text()).toContain('Verification not found');
    const { created, page } = await pageOf(sandbox);
    expect((await sandbox.app.request(local(created.session_url).replace('oid=org_demo', 'oid=org_other'))).status).toBe(404);
    const bad = await press(sandbox, actionOf(page.html), 'teleport');
    expect(bad.status).toBe(400);
    expect(bad.html).toContain('Unknown choice');
    expect((await getSession(sandbox, created.id)).session_record.status).toBe('PENDING');
  });

  it('keeps a non-default namespace through the whole round trip', async () => {
    const sandbox = await fresh();
    const { created, page } = await pageOf(sandbox, { ...JANE, redirectUrl: CALLBACK }, 'qa-run-9');
    const token = sandbox.pageToken(created.id, 'qa-run-9');
    expect(created.session_url).toBe(
      `${BASE}/verify/${created.id}?oid=org_demo&redirect_url=${encodeURIComponent(CALLBACK)}&token=${token}&namespace=qa-run-9`,
    );
    expect(page.status).toBe(200);
    const action = actionOf(page.html);
    expect(action).toBe(`${BASE}/verify/${created.id}/outcome?oid=org_demo&token=${token}&namespace=qa-run-9`);
    const answer = await press(sandbox, action, 'success');
    expect(callbackOf(answer.location).status).toBe('success');
    expect((await getSession(sandbox, created.id, { namespace: 'qa-run-9' })).session_record.status).toBe('SUBMITTED');
    expect((await sandbox.app.request(local(created.session_url).replace(/&namespace=qa-run-9/, ''))).status).toBe(404);
  });

  it('with the auto-decline scenario, finishing ends REJECTED and the callback says failed / face_mismatch', async () => {
    const sandbox = await fresh();
    const { created, page } = await pageOf(sandbox);
    const answer = await press(sandbox, actionOf(page.html), 'success', { 'X-Sandbox-Scenario': 'auto-decline' });
    expect(callbackOf(answer.location)).toEqual({ order: '77', session_id: created.id, status: 'failed', reason: 'face_mismatch' });
    expect(answer.headers.get('x-sandbox-explain')).toMatch(/^scenario auto-decline: AI auto-decline/);
    const record = (await getSession(sandbox, created.id)).session_record;
    expect(record.status).toBe('REJECTED');
    expect(record.meta_data?.declinedData?.reason).toMatchObject({ code: 'LOW_FACE_MATCH', slot: 'PRIMARY', severity: 'CRITICAL' });
  });
});
