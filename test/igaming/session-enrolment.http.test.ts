/**
 * Faces enrolled by hosted sessions: a session finished (control plane or the applicant's page) with a
 * selfie_front upload enrols its face in the same registry anti-cheat and self-exclusion use.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { pageAddress } from '../helpers/hosted-pages.ts';
import { testSandbox, type TestSandbox } from '../helpers/sandbox.ts';
import { antiCheat, SELFIES } from './helpers.ts';

const picture = (file: string) => readFileSync(new URL(`../../fixtures/images/${file}`, import.meta.url));

/** A hosted session whose applicant uploaded `selfie` to the selfie_front slot; its id, and the page's form address in `forms`. */
const forms = new Map<string, string>();
async function sessionWithSelfie(sandbox: TestSandbox, selfie: Buffer | undefined, email: string): Promise<string> {
  const created = await sandbox.call('POST', '/v1/sessions', { body: { first_name: 'Sam', last_name: 'Lee', email } });
  const id = created.body.id as string;
  forms.set(id, pageAddress(created.body.session_url, '/outcome'));
  if (selfie !== undefined) {
    const urls = await sandbox.call('POST', `/v1/sessions/${id}/uploads`, {
      body: { files: [{ file_name: 'selfie.jpg', content_type: 'image/jpeg', upload_type: 'selfie_front' }] },
    });
    const url = new URL(urls.body.signed_urls[0].upload_url);
    const put = await sandbox.app.request(url.pathname + url.search, { method: 'PUT', headers: { 'content-type': 'image/jpeg' }, body: selfie });
    expect(put.status).toBe(200);
  }
  return id;
}

describe('hosted sessions enrol their selfie when they finish', () => {
  it('control-plane finish enrols; an applicant finish with the same face is a duplicate of it', async () => {
    const sandbox = await testSandbox();
    const first = await sessionWithSelfie(sandbox, picture('face.jpg'), 'a@example.com');
    const driven = await sandbox.call('POST', `/__sandbox/sessions/${first}/outcome`, { key: null, body: { outcome: 'VERIFIED' } });
    expect(driven.headers.get('x-sandbox-explain')).toContain('selfie_front enrolled as face');

    const second = await sessionWithSelfie(sandbox, picture('face-cropped.jpg'), 'b@example.com');
    const page = await sandbox.app.request(forms.get(second) as string, { method: 'POST', body: new URLSearchParams({ outcome: 'success' }) });
    expect(page.status).toBe(200);
    expect(page.headers.get('x-sandbox-explain')).toContain(`selfie_front matches the face of session ${first}`);

    const excluded = await sandbox.call('POST', '/v1/igaming/self-exclusion/applicant', { body: { session_id: second } });
    expect(excluded.body).toMatchObject({ face_attached: true, matched_session_id: first, identity_status: 'added' });
    const player = await antiCheat(sandbox, 'player-9', SELFIES.personAPng);
    expect(player.body).toEqual({ verdict: 'SELF_EXCLUSION', action: 'block' });
    expect(player.headers.get('x-sandbox-explain')).toContain(`the face of session ${first} is self-excluded`);
  });

  it('no selfie, a faceless selfie or an unfinished outcome enrols nothing', async () => {
    const sandbox = await testSandbox();
    const noSelfie = await sessionWithSelfie(sandbox, undefined, 'c@example.com');
    await sandbox.call('POST', `/__sandbox/sessions/${noSelfie}/outcome`, { key: null, body: { outcome: 'SUBMITTED' } });
    const blank = await sessionWithSelfie(sandbox, Buffer.from(SELFIES.noFace, 'base64'), 'd@example.com');
    const blankDriven = await sandbox.call('POST', `/__sandbox/sessions/${blank}/outcome`, { key: null, body: { outcome: 'SUBMITTED' } });
    expect(blankDriven.headers.get('x-sandbox-explain')).toContain('selfie_front has no face');
    const failed = await sessionWithSelfie(sandbox, picture('face.jpg'), 'e@example.com');
    await sandbox.call('POST', `/__sandbox/sessions/${failed}/outcome`, { key: null, body: { outcome: 'FAILED' } });
    for (const id of [noSelfie, blank, failed]) {
      expect((await sandbox.call('POST', '/v1/igaming/self-exclusion/face', { body: { session_id: id } })).body.excluded).toBe(false);
    }
    expect((await antiCheat(sandbox, 'player-1', SELFIES.personA)).body.verdict).toBe('UNIQUE');
  });
});
