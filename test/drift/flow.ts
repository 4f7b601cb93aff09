/** The traffic the drift tests record: sessions, a workflow with its steps and uploads, a screening job polled to its end. */
import { readFileSync } from 'node:fs';
import type { Recorder } from './recorder.ts';

export const APPLICANT = { first_name: 'Jane', last_name: 'Doe', email: 'jane.doe@example.com' };

export async function recordKycFlow(r: Recorder): Promise<void> {
  const session = await r.call('POST', '/v1/sessions', APPLICANT);
  await r.call('GET', `/v1/sessions/${session.id}`);
  await r.call('GET', '/v1/sessions?limit=5');
  const { workflow } = await r.call('POST', '/v1/workflows', { name: 'KYC', steps: [{ id: 'ID_VERIFICATION' }, { id: 'FACE_LIVENESS' }] });
  const headless = await r.call('POST', `/v1/workflows/${workflow.id}/sessions`, { ...APPLICANT, phone: '+14155550123' });
  const uploads = await r.call('POST', `/v1/sessions/${headless.session_id}/uploads`, {
    files: [
      { file_name: 'passport.jpg', content_type: 'image/jpeg', slot: 'id_front' },
      { file_name: 'selfie.jpg', content_type: 'image/jpeg', slot: 'selfie_front' },
    ],
  });
  const [document, selfie] = uploads.signed_urls;
  await r.call('PUT', document.upload_url, new Uint8Array(readFileSync('fixtures/images/passport.jpg')));
  await r.call('PUT', selfie.upload_url, new Uint8Array(readFileSync('fixtures/images/face.jpg')));
  await r.call('POST', `/v1/sessions/${headless.session_id}/steps/ID_VERIFICATION`, {
    document_type: 'passport-us',
    uploads: { id_front: document.file_key, selfie_front: selfie.file_key },
  });
  await r.call('GET', `/v1/sessions/${headless.session_id}`);
  const job = await r.call('POST', '/v1/screening/adverse-media', { email: APPLICANT.email, firstName: 'Jane', lastName: 'Doe', dateOfBirth: '1990-04-01' });
  await r.call('GET', `/v1/async-jobs/${job.jobId}`);
  // The job is ready a minute later only if the replay's clock follows the recording's.
  r.wait(60_000);
  await r.call('GET', `/v1/async-jobs/${job.jobId}`);
}
