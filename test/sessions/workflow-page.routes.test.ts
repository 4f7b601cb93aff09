import { describe, expect, it } from 'vitest';
import { STEP_MODULES } from '../../src/workflows/steps/index.ts';
import { STEP_CODES } from '../../src/workflows/steps/index.ts';
import { STEP_PREREQUISITES } from '../../src/workflows/workflow-steps.ts';
import { testSandbox, type TestSandbox } from '../helpers/sandbox.ts';
import { createHeadlessSession, createWorkflow, fixtureImage } from '../workflows/helpers.ts';
import { doStep, openSessionPage, stepForm, submitForm } from './page-forms.ts';
import { CALLBACK, callbackOf, createSession, JANE } from './route-helpers.ts';

/** A hosted session (POST /v1/sessions) of a new workflow with these steps. */
async function hostedSession(sandbox: TestSandbox, steps: string[], extra: Record<string, unknown> = { redirectUrl: CALLBACK }): Promise<string> {
  const workflowId = await createWorkflow(
    sandbox,
    steps.map((id) => ({ id })),
  );
  return (await createSession(sandbox, { ...JANE, phone: '+14155550123', workflowId, ...extra })).id;
}

const fresh = () => testSandbox({ rateLimit: false });

async function workflowState(sandbox: TestSandbox, id: string) {
  const response = await sandbox.call('GET', `/v1/sessions/${id}/workflow`);
  expect(response.status, response.text).toBe(200);
  return response.body;
}

describe('the applicant’s page of a workflow session', () => {
  it('shows the steps and the current step’s form, with the QA shortcut beside it', async () => {
    const sandbox = await fresh();
    const id = await createHeadlessSession(sandbox, await createWorkflow(sandbox));
    const page = await openSessionPage(sandbox, id);
    expect(page.status).toBe(200);
    expect(page.html).toContain(
      '<ol class="steps"><li>Your ID document and a selfie <span class="status">PENDING</span></li><li>Liveness check <span class="status">PENDING</span></li></ol>',
    );
    const form = stepForm(page.html);
    expect(form.title).toBe('Your ID document and a selfie');
    expect(form.action).toBe(`http://127.0.0.1:4010/verify/${id}/steps/ID_VERIFICATION?oid=org_demo&token=${sandbox.pageToken(id)}`);
    expect(form.files).toEqual(['id_front', 'id_back', 'selfie_front']);
    expect(form.defaults).toMatchObject({ document_type: 'passport-us', id_front_sample: 'passport.jpg', id_back_sample: '', selfie_front_sample: 'face.jpg' });
    // Every file input and sample picker has its own label.
    expect(form.html).toContain('<label>Front of the document: your file <input type="file" name="id_front" accept="image/*"></label>');
    expect(form.html).toContain('<label>Selfie: or a sample image <select name="selfie_front_sample">');
    expect(page.html).toContain('<summary>QA shortcut: end the session with an outcome in one click</summary>');
    expect(page.html).toContain('name="outcome" value="face_mismatch"');
    expect(page.html).not.toMatch(/<script/i);
  });

  it('walks ID_VERIFICATION then FACE_LIVENESS with the sample images, through the step engine', async () => {
    const sandbox = await fresh();
    const id = await createHeadlessSession(sandbox, await createWorkflow(sandbox));
    const afterId = await doStep(sandbox, id, {}, 'Your ID document and a selfie');
    expect(afterId.status, afterId.html).toBe(200);
    expect(afterId.html).toContain('<h2>Your ID document and a selfie: COMPLETED</h2>');
    expect(stepForm(afterId.html).title).toBe('Liveness check');
    const afterLiveness = await submitForm(sandbox, stepForm(afterId.html));
    expect(afterLiveness.status, afterLiveness.html).toBe(200);
    expect(afterLiveness.html).toContain('<h2>Liveness check: COMPLETED</h2>');
    expect(afterLiveness.html).toContain('There is no step left to do');
    const state = await workflowState(sandbox, id);
    expect(state.status).toBe('VERIFIED');
    expect(state.steps.map((step: { status: string; attempts: number }) => [step.status, step.attempts])).toEqual([
      ['COMPLETED', 1],
      ['COMPLETED', 1],
    ]);
    const record = (await sandbox.call('GET', `/v1/sessions/${id}`)).body.session_record;
    expect(record.analysis_data.id_matches_selfie).toBe(true);
  });

  it('shows a failed attempt’s failure and the attempts left, and a retry with the applicant’s own files passes', async () => {
    const sandbox = await fresh();
    const id = await createHeadlessSession(sandbox, await createWorkflow(sandbox));
    const failed = await doStep(sandbox, id, { fields: { selfie_front_sample: 'different-face.jpg' } });
    expect(failed.status).toBe(200);
    expect(failed.html).toContain('<h2>Your ID document and a selfie: IN_PROGRESS</h2>');
    expect(failed.html).toContain('<code>SELFIE_ID_FACE_MISMATCH</code>');
    expect(failed.html).toContain('Attempts remaining: 2');
    const files = {
      id_front: { bytes: fixtureImage('passport.jpg'), name: 'my-passport.jpg', type: 'image/jpeg' },
      selfie_front: { bytes: fixtureImage('face.png'), name: 'me.png', type: 'image/png' },
    };
    const retried = await submitForm(sandbox, stepForm(failed.html), { fields: { selfie_front_sample: 'different-face.jpg' }, files });
    expect(retried.html).toContain('<h2>Your ID document and a selfie: COMPLETED</h2>');
  });

  it('shows the engine’s 400 sentence for a bad form and stores nothing', async () => {
    const sandbox = await fresh();
    const id = await createHeadlessSession(sandbox, await createWorkflow(sandbox));
    const form = stepForm((await openSessionPage(sandbox, id)).html);
    const before = [await workflowState(sandbox, id), (await sandbox.call('GET', `/v1/sessions/${id}`)).body];
    const answer = await submitForm(sandbox, form, { fields: { document_type: '' } });
    expect(answer.status).toBe(400);
    expect(answer.html).toMatch(/<p class="error" role="alert">[^<]*document_type must not be empty/);
    expect(stepForm(answer.html).title).toBe('Your ID document and a selfie');
    expect([await workflowState(sandbox, id), (await sandbox.call('GET', `/v1/sessions/${id}`)).body]).toEqual(before);
  });

  it('says which file is missing when neither a file nor a sample was chosen', async () => {
    const sandbox = await fresh();
    const id = await createHeadlessSession(sandbox, await createWorkflow(sandbox));
    await doStep(sandbox, id);
    const missing = await doStep(sandbox, id, { fields: { frame_sample: '' } });
    expect(missing.status).toBe(400);
    expect(missing.html).toContain('The picture for the frames is missing: choose a file or one of the sample images.');
    const png = await doStep(sandbox, id, { fields: { frame_sample: 'blank.png' } });
    expect(png.status).toBe(400);
    expect(png.html).toContain('The picture for the frames must be a JPEG (liveness frames are image/jpeg); sample blank.png is image/png.');
    const unknown = await doStep(sandbox, id, { fields: { frame_sample: '../organizations.json' } });
    expect(unknown.status).toBe(400);
    expect(unknown.html).toContain('frame_sample must be one of the sample images');
    expect((await workflowState(sandbox, id)).steps[1].status).toBe('PENDING');
  });

  it('refuses a post without the page token, or with another session’s', async () => {
    const sandbox = await fresh();
    const workflowId = await createWorkflow(sandbox);
    const id = await createHeadlessSession(sandbox, workflowId);
    const other = await createHeadlessSession(sandbox, workflowId);
    const form = stepForm((await openSessionPage(sandbox, id)).html);
    for (const action of [form.action.replace(/&token=[^&]+/, ''), form.action.replace(sandbox.pageToken(id), sandbox.pageToken(other))]) {
      const answer = await submitForm(sandbox, { ...form, action });
      expect(answer.status).toBe(403);
      expect(answer.html).toContain('Link not valid');
    }
    expect((await workflowState(sandbox, id)).steps[0].status).toBe('PENDING');
  });

  it('refuses a form posted from another origin', async () => {
    const sandbox = await fresh();
    const id = await createHeadlessSession(sandbox, await createWorkflow(sandbox));
    const answer = await submitForm(sandbox, stepForm((await openSessionPage(sandbox, id)).html), { headers: { origin: 'https://evil.example' } });
    expect(answer.status).toBe(403);
    expect((await workflowState(sandbox, id)).steps[0].status).toBe('PENDING');
  });

  it('answers 404 for a step the session does not have', async () => {
    const sandbox = await fresh();
    const id = await createHeadlessSession(sandbox, await createWorkflow(sandbox));
    const form = stepForm((await openSessionPage(sandbox, id)).html);
    const answer = await submitForm(sandbox, { ...form, action: form.action.replace('/steps/ID_VERIFICATION', '/steps/PEP_SANCTIONS') });
    expect(answer.status).toBe(404);
    expect(answer.html).toContain('has no step PEP_SANCTIONS');
  });

  it('walks a hosted session’s steps to the redirect callback with status success', async () => {
    const sandbox = await fresh();
    const id = await hostedSession(sandbox, ['ID_VERIFICATION', 'FACE_LIVENESS']);
    const afterId = await doStep(sandbox, id);
    expect(afterId.html).toContain('<h2>Your ID document and a selfie: COMPLETED</h2>');
    const done = await submitForm(sandbox, stepForm(afterId.html));
    expect(done.status, done.html).toBe(303);
    expect(callbackOf(done.location)).toEqual({ order: '77', session_id: id, status: 'success' });
    const record = (await sandbox.call('GET', `/v1/sessions/${id}`)).body.session_record;
    expect(record.status).toBe('VERIFIED');
    // Coming back to the link shows the finished run and the way back.
    const again = await openSessionPage(sandbox, id);
    expect(again.html).toContain('There is no step left to do');
    expect(again.html).toContain(`<a href="https://example.com/kyc/done?order=77&amp;session_id=${id}&amp;status=success">Return to Demo Org</a>`);
    expect(again.html).not.toContain('<details class="qa">');
  });

  it('redirects with failed / face_mismatch once the selfie used up the attempts', async () => {
    const sandbox = await fresh();
    const id = await hostedSession(sandbox, ['ID_VERIFICATION', 'FACE_LIVENESS']);
    let answer = await doStep(sandbox, id, { fields: { selfie_front_sample: 'different-face.jpg' } });
    expect(answer.html).toContain('Attempts remaining: 2');
    answer = await doStep(sandbox, id, { fields: { selfie_front_sample: 'different-face.jpg' } });
    expect(answer.html).toContain('Attempts remaining: 1');
    answer = await doStep(sandbox, id, { fields: { selfie_front_sample: 'different-face.jpg' } });
    expect(answer.status).toBe(303);
    expect(callbackOf(answer.location)).toEqual({ order: '77', session_id: id, status: 'failed', reason: 'face_mismatch' });
    expect((await sandbox.call('GET', `/v1/sessions/${id}`)).body.session_record.status).toBe('FAILED');
  });

  it('redirects with failed / document_unreadable when the document could not be read to the last attempt', async () => {
    const sandbox = await fresh();
    const id = await hostedSession(sandbox, ['ID_VERIFICATION']);
    let answer = await doStep(sandbox, id, { fields: { id_front_sample: 'blank.png' } });
    for (let attempt = 2; attempt <= 3; attempt++) answer = await submitForm(sandbox, stepForm(answer.html), { fields: { id_front_sample: 'blank.png' } });
    expect(callbackOf(answer.location)).toEqual({ order: '77', session_id: id, status: 'failed', reason: 'document_unreadable' });
  });

  it('keeps the QA shortcut beside the steps: one click ends the session with that outcome', async () => {
    const sandbox = await fresh();
    const id = await hostedSession(sandbox, ['ID_VERIFICATION', 'FACE_LIVENESS']);
    const page = await openSessionPage(sandbox, id);
    const action = /<details class="qa">[\s\S]*?<form method="post" action="([^"]+)"/.exec(page.html)?.[1]?.replace(/&amp;/g, '&') ?? '';
    const answer = await sandbox.app.request(new URL(action).pathname + new URL(action).search, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'outcome=face_mismatch',
    });
    expect(answer.status).toBe(303);
    expect(callbackOf(answer.headers.get('location'))).toMatchObject({ status: 'failed', reason: 'face_mismatch' });
  });

  for (const code of STEP_CODES) {
    it(`shows the ${code} form on a hosted session whose current step it is`, async () => {
      const sandbox = await fresh();
      const prerequisite = STEP_PREREQUISITES[code];
      const id = await hostedSession(sandbox, prerequisite === undefined ? [code] : [prerequisite, code]);
      const page = await openSessionPage(sandbox, id);
      expect(page.status, page.html).toBe(200);
      expect(page.html).toContain(`<li>${STEP_MODULES[code].hostedForm.title} <span class="status">PENDING</span></li>`);
      const form = stepForm(page.html);
      expect(form.title).toBe(STEP_MODULES[prerequisite ?? code].hostedForm.title);
      expect(form.action).toContain(`/verify/${id}/steps/${prerequisite ?? code}?`);
      expect(form.buttons.length).toBeGreaterThan(0);
    });
  }

  it('sends the phone code, refuses a wrong one with its failure, and passes with the code from the outbox', async () => {
    const sandbox = await fresh();
    const id = await hostedSession(sandbox, ['PHONE_VERIFICATION', 'PEP_SANCTIONS']);
    const sent = await doStep(sandbox, id, {}, 'Your phone number');
    expect(sent.status, sent.html).toBe(200);
    expect(sent.html).toContain('<h2>Your phone number: IN_PROGRESS</h2>');
    const form = stepForm(sent.html);
    expect(form.html).toContain('<label>Code <input type="text" name="code" value="" required></label>');
    const outbox = await sandbox.call('GET', `/__sandbox/outbox?session=${id}&channel=sms`, { key: null });
    const code = /\b(\d{6})\b/.exec(outbox.body.messages[0].text)?.[1] as string;
    const wrong = await submitForm(sandbox, form, { fields: { code: code === '000000' ? '111111' : '000000' } });
    expect(wrong.html).toContain('<code>PHONE_CODE_INCORRECT</code>');
    expect(wrong.html).toContain('Attempts remaining: 2');
    const empty = await submitForm(sandbox, stepForm(wrong.html), { fields: { code: 'abc' } });
    expect(empty.status).toBe(400);
    expect(empty.html).toMatch(/<p class="error" role="alert">[^<]*code must be the 6-digit code/);
    const right = await submitForm(sandbox, stepForm(empty.html), { fields: { code } });
    expect(right.html).toContain('<h2>Your phone number: COMPLETED</h2>');
    expect(stepForm(right.html).title).toBe('Sanctions and PEP screening');
  });

  it('screens the applicant on the PEP form: a clean name redirects with success, a date of birth left out shows the 400', async () => {
    const sandbox = await fresh();
    const id = await hostedSession(sandbox, ['PEP_SANCTIONS']);
    const page = await openSessionPage(sandbox, id);
    const form = stepForm(page.html);
    expect(form.defaults).toMatchObject({ first_name: 'Jane', last_name: 'Doe', email: 'jane.doe@example.com', date_of_birth: '' });
    const missing = await submitForm(sandbox, form);
    expect(missing.status).toBe(400);
    expect(missing.html).toContain('date_of_birth');
    const done = await submitForm(sandbox, form, { fields: { date_of_birth: '1990-04-12' } });
    expect(done.status, done.html).toBe(303);
    expect(callbackOf(done.location)).toEqual({ order: '77', session_id: id, status: 'success' });
    expect((await sandbox.call('GET', `/v1/sessions/${id}`)).body.session_record.analysis_data.pep_sanctions_data).toBeDefined();
  });

  it('takes the consent with the legal name typed, and a declined consent sends the applicant back abandoned / user_cancelled', async () => {
    const sandbox = await fresh();
    const accepted = await hostedSession(sandbox, ['CONSENT', 'PEP_SANCTIONS']);
    const page = await openSessionPage(sandbox, accepted);
    expect(stepForm(page.html).defaults).toMatchObject({ legal_name: 'Jane Doe', signature_upload_sample: '' });
    const agreed = await submitForm(sandbox, stepForm(page.html), { button: 'I agree' });
    expect(agreed.html).toContain('<h2>Your consent: COMPLETED</h2>');
    const declined = await hostedSession(sandbox, ['CONSENT', 'PEP_SANCTIONS']);
    const answer = await doStep(sandbox, declined, { button: 'I do not agree' });
    expect(answer.status).toBe(303);
    expect(callbackOf(answer.location)).toEqual({ order: '77', session_id: declined, status: 'abandoned', reason: 'user_cancelled' });
    expect((await sandbox.call('GET', `/v1/sessions/${declined}`)).body.session_record.status).toBe('REJECTED');
  });

  it('runs the deepfake scan the applicant picks: a live scan passes, a replayed photo is detected', async () => {
    const sandbox = await fresh();
    const live = await hostedSession(sandbox, ['DEEPFAKE_DETECTION'], {});
    const passed = await doStep(sandbox, live, { fields: { scan: 'live' } }, 'Face scan');
    expect(passed.status, passed.html).toBe(200);
    expect(passed.html).toContain('<h2>Face scan: COMPLETED</h2>');
    const replay = await hostedSession(sandbox, ['DEEPFAKE_DETECTION'], {});
    const detected = await doStep(sandbox, replay, { fields: { scan: 'replay' } });
    expect(detected.html).toContain('<code>DEEPFAKE_DETECTED</code>');
  });
});
