/** Test helpers of the workflow area: create a workflow, a headless session, and upload fixture images to it. */
import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import { WorkflowResponseSchema } from '../../src/workflows/workflows.schemas.ts';
import { WorkflowSessionSchema } from '../../src/workflows/workflow-sessions.schemas.ts';
import { KEYS, type TestSandbox } from '../helpers/sandbox.ts';

export const APPLICANT = { email: 'jane.doe@example.com', first_name: 'Jane', last_name: 'Doe', phone: '+14155550123' };

export function fixtureImage(name: string): Buffer {
  return readFileSync(new URL(`../../fixtures/images/${name}`, import.meta.url));
}

export async function createWorkflow(
  sandbox: TestSandbox,
  steps: unknown[] = [{ id: 'ID_VERIFICATION' }, { id: 'FACE_LIVENESS' }],
  key: string = KEYS.live,
): Promise<string> {
  const response = await sandbox.call('POST', '/v1/workflows', { key, body: { name: 'Identity flow', steps } });
  expect(response.status, response.text).toBe(201);
  return WorkflowResponseSchema.parse(response.body).workflow.id;
}

export async function createHeadlessSession(
  sandbox: TestSandbox,
  workflowId: string,
  applicant: Record<string, unknown> = APPLICANT,
  key: string = KEYS.live,
): Promise<string> {
  const response = await sandbox.call('POST', `/v1/workflows/${workflowId}/sessions`, { key, body: applicant });
  expect(response.status, response.text).toBe(200);
  return WorkflowSessionSchema.parse(response.body).session_id;
}

/** Uploads fixture images to the session's named slots (POST /v1/sessions/{id}/uploads, then PUT); returns slot → file_key. */
export async function uploadToSession(
  sandbox: TestSandbox,
  sessionId: string,
  files: Record<string, string>,
  key: string = KEYS.live,
): Promise<Record<string, string>> {
  const entries = Object.entries(files);
  const contentType = (name: string) => (name.endsWith('.png') ? 'image/png' : 'image/jpeg');
  const response = await sandbox.call('POST', `/v1/sessions/${sessionId}/uploads`, {
    key,
    body: { files: entries.map(([slot, name]) => ({ file_name: name, content_type: contentType(name), upload_type: slot })) },
  });
  expect(response.status, response.text).toBe(200);
  const keys: Record<string, string> = {};
  for (const [index, signed] of (response.body.signed_urls as { file_key: string; upload_url: string; slot: string }[]).entries()) {
    const name = (entries[index] as [string, string])[1];
    await putBytes(sandbox, signed.upload_url, fixtureImage(name), contentType(name));
    keys[signed.slot] = signed.file_key;
  }
  return keys;
}

export async function putBytes(sandbox: TestSandbox, uploadUrl: string, bytes: Buffer, contentType: string): Promise<void> {
  const url = new URL(uploadUrl);
  const put = await sandbox.app.request(url.pathname + url.search, { method: 'PUT', headers: { 'content-type': contentType }, body: bytes });
  expect(put.status).toBe(200);
}

export function submit(sandbox: TestSandbox, sessionId: string, stepId: string, body: unknown, key: string = KEYS.live) {
  return sandbox.call('POST', `/v1/sessions/${sessionId}/steps/${stepId}`, { key, body });
}

/** A passing ID_VERIFICATION body: passport of person A, selfie of person A. */
export async function passportAndSelfie(sandbox: TestSandbox, sessionId: string, selfie = 'face.jpg', key: string = KEYS.live) {
  const keys = await uploadToSession(sandbox, sessionId, { id_front: 'passport.jpg', selfie_front: selfie }, key);
  return { document_type: 'passport-us', uploads: { id_front: keys.id_front, selfie_front: keys.selfie_front } };
}
