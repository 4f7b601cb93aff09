/**
 * Every workflow step type driven to its end with its documented positive input (the inputs the step
 * tests under test/workflows pass with), on a hosted session of a workflow that holds the step after the
 * steps it needs. Keyed by the step-code table: a new step type does not typecheck until it has its drive,
 * and the tests that walk STEP_CODES then cover it.
 */
import { readFileSync } from 'node:fs';
import type { StepCode } from '../../src/workflows/steps/index.ts';
import type { DeepfakeFrameMeta } from '../api/real-client/client.ts';
import type { CallResult } from './sandbox.ts';

const fixture = (name: string) => readFileSync(new URL(`../../fixtures/${name}`, import.meta.url));
const LIVE_SCAN = JSON.parse(fixture('deepfake-live-scan.json').toString('utf8')) as { frames: string[]; frameMeta: DeepfakeFrameMeta[] };

/** The live fixture scan (fixtures/deepfake-live-scan.json): its frames and, as DEEPFAKE_DETECTION's complete takes it, its frame_meta. */
export const LIVE_SCAN_STEP = {
  frames: LIVE_SCAN.frames,
  frame_meta: LIVE_SCAN.frameMeta.map((meta) => ({
    action_id: meta.actionId,
    action: meta.action,
    timestamp: meta.timestamp,
    yaw: meta.yaw,
    pitch: meta.pitch,
    roll: meta.roll,
    left_eye_openness: meta.leftEyeOpenness,
    right_eye_openness: meta.rightEyeOpenness,
    face_detected: meta.faceDetected,
  })),
};

/** The applicant of every driven session: the phone is the carrier checks' happy-path magic number. */
export const DRIVEN_APPLICANT = { email: 'jane.doe@example.com', first_name: 'Jane', last_name: 'Doe', phone: '+447700900001' };

/** What a drive does on its session, every request through `call` (so that a test sees each answer). */
export interface StepDriver {
  sessionId: string;
  call(method: string, path: string, options?: { body?: unknown; key?: string | null }): Promise<CallResult>;
  put(url: string, bytes: Buffer, contentType: string): Promise<void>;
}

export interface StepDrive {
  /** The workflow's steps: the driven step last, after the steps it needs (their config, when not the default). */
  workflow: { id: StepCode; config?: Record<string, unknown> }[];
  /** Submits every step of the workflow in order, ending with the driven one completed. */
  drive(driver: StepDriver): Promise<void>;
}

const submit = (driver: StepDriver, step: StepCode, body: unknown) => driver.call('POST', `/v1/sessions/${driver.sessionId}/steps/${step}`, { body });
const advance = (driver: StepDriver, ms: number) => driver.call('POST', '/__sandbox/clock', { key: null, body: { advance: ms } });

/** Fixture images uploaded to the session's slots (POST …/uploads, then PUT): slot → file key. */
async function upload(driver: StepDriver, files: Record<string, string>): Promise<Record<string, string>> {
  const entries = Object.entries(files);
  const slots = await driver.call('POST', `/v1/sessions/${driver.sessionId}/uploads`, {
    body: { files: entries.map(([slot, name]) => ({ file_name: name, content_type: 'image/jpeg', upload_type: slot })) },
  });
  const keys: Record<string, string> = {};
  for (const [index, signed] of (slots.body.signed_urls as { file_key: string; upload_url: string; slot: string }[]).entries()) {
    await driver.put(signed.upload_url, fixture(`images/${(entries[index] as [string, string])[1]}`), 'image/jpeg');
    keys[signed.slot] = signed.file_key;
  }
  return keys;
}

async function passportAndSelfie(driver: StepDriver): Promise<void> {
  const keys = await upload(driver, { id_front: 'passport.jpg', selfie_front: 'face.jpg' });
  await submit(driver, 'ID_VERIFICATION', { document_type: 'passport-us', uploads: { id_front: keys.id_front, selfie_front: keys.selfie_front } });
}

async function selfieAge(driver: StepDriver): Promise<void> {
  const keys = await upload(driver, { selfie_front: 'face.jpg' });
  await submit(driver, 'AGE_ESTIMATION', { uploads: { selfie_front: keys.selfie_front } });
}

/** A step of `start`, a wait of `ms` on the sandbox clock, then `complete`. */
const startWaitComplete =
  (step: StepCode, start: Record<string, unknown>, ms: number) =>
  async (driver: StepDriver): Promise<void> => {
    await submit(driver, step, { action: 'start', ...start });
    await advance(driver, ms);
    await submit(driver, step, { action: 'complete' });
  };

const alone = (id: StepCode, body: unknown): StepDrive => ({ workflow: [{ id }], drive: async (driver) => void (await submit(driver, id, body)) });

export const STEP_DRIVES: Record<StepCode, StepDrive> = {
  ID_VERIFICATION: { workflow: [{ id: 'ID_VERIFICATION' }], drive: passportAndSelfie },
  FACE_LIVENESS: {
    workflow: [{ id: 'ID_VERIFICATION' }, { id: 'FACE_LIVENESS' }],
    drive: async (driver) => {
      await passportAndSelfie(driver);
      await submit(driver, 'FACE_LIVENESS', { action: 'start' });
      await submit(driver, 'FACE_LIVENESS', { action: 'complete' });
    },
  },
  AGE_ESTIMATION: { workflow: [{ id: 'AGE_ESTIMATION' }], drive: selfieAge },
  PEP_SANCTIONS: alone('PEP_SANCTIONS', { email: DRIVEN_APPLICANT.email, first_name: 'Jane', last_name: 'Doe', date_of_birth: '1990-01-01' }),
  ADVERSE_MEDIA: {
    workflow: [{ id: 'ADVERSE_MEDIA' }],
    drive: startWaitComplete('ADVERSE_MEDIA', { first_name: 'Clara', last_name: 'Clean', date_of_birth: '1985-03-14' }, 3000),
  },
  FACE_LIVENESS_CONSENT_SETTINGS: alone('FACE_LIVENESS_CONSENT_SETTINGS', {}),
  DEEPFAKE_DETECTION: {
    workflow: [{ id: 'DEEPFAKE_DETECTION' }],
    drive: async (driver) => {
      const start = await submit(driver, 'DEEPFAKE_DETECTION', { action: 'start', include_audio: true });
      const { upload_urls: urls, s3_keys: keys } = start.body.deepfake as { upload_urls: Record<string, string>; s3_keys: Record<string, string> };
      for (const [index, name] of LIVE_SCAN.frames.entries()) await driver.put(urls[`frame_${index}`] as string, fixture(`images/${name}`), 'image/jpeg');
      const s3_keys = Object.fromEntries(Object.entries(keys).filter(([slot]) => slot.startsWith('frame_')));
      await submit(driver, 'DEEPFAKE_DETECTION', { action: 'complete', scan_duration_ms: 3500, frame_meta: LIVE_SCAN_STEP.frame_meta, s3_keys });
    },
  },
  DEEP_AGE: {
    workflow: [{ id: 'AGE_ESTIMATION' }, { id: 'DEEP_AGE', config: { minimum_age: 18 } }],
    drive: async (driver) => {
      await selfieAge(driver);
      await submit(driver, 'DEEP_AGE', { action: 'start' });
      await submit(driver, 'DEEP_AGE', { action: 'complete' });
    },
  },
  ADDRESS_VERIFICATION: {
    workflow: [{ id: 'ADDRESS_VERIFICATION' }],
    drive: async (driver) => {
      const start = await submit(driver, 'ADDRESS_VERIFICATION', { action: 'start' });
      await driver.put(start.body.address_verification.upload_url as string, fixture('images/passport.jpg'), 'image/jpeg');
      await submit(driver, 'ADDRESS_VERIFICATION', { action: 'complete' });
    },
  },
  BACKGROUND_CHECK: {
    workflow: [{ id: 'ID_VERIFICATION' }, { id: 'BACKGROUND_CHECK' }],
    drive: async (driver) => {
      await passportAndSelfie(driver);
      await startWaitComplete('BACKGROUND_CHECK', {}, 3000)(driver);
    },
  },
  TITLE_SEARCH: alone('TITLE_SEARCH', { address: '1 Sandbox Way, Springfield, IL 62701' }),
  CUSTOM_PROMPT: {
    workflow: [{ id: 'CUSTOM_PROMPT', config: { prompt: 'Show your utility bill', slots: ['bill'] } }],
    drive: async (driver) => {
      const keys = await upload(driver, { id_front: 'passport.jpg' });
      await submit(driver, 'CUSTOM_PROMPT', { uploads: { bill: keys.id_front } });
    },
  },
  CONSENT: {
    workflow: [{ id: 'CONSENT' }],
    drive: async (driver) => {
      const signature = await upload(driver, { selfie_front: 'face.jpg' });
      await submit(driver, 'CONSENT', { accepted: true, legal_name: 'Jane Doe', signature_upload: signature.selfie_front });
    },
  },
  BANK_STATEMENT_UPLOAD: { workflow: [{ id: 'BANK_STATEMENT_UPLOAD' }], drive: startWaitComplete('BANK_STATEMENT_UPLOAD', {}, 5000) },
  AI_BANK_STATEMENT_ANALYSIS: {
    workflow: [{ id: 'BANK_STATEMENT_UPLOAD' }, { id: 'AI_BANK_STATEMENT_ANALYSIS' }],
    drive: async (driver) => {
      await startWaitComplete('BANK_STATEMENT_UPLOAD', { bank: 'SandboxCapital' }, 5000)(driver);
      await submit(driver, 'AI_BANK_STATEMENT_ANALYSIS', {});
    },
  },
  DOCUMENT_UPLOAD: {
    workflow: [{ id: 'DOCUMENT_UPLOAD' }],
    drive: async (driver) => {
      const keys = await upload(driver, { id_front: 'passport.jpg' });
      await submit(driver, 'DOCUMENT_UPLOAD', { uploads: { document: keys.id_front } });
    },
  },
  WHITE_LABEL: alone('WHITE_LABEL', { acknowledged: true }),
  PHONE_TRUST_CHECK: alone('PHONE_TRUST_CHECK', {}),
  CARRIER_AGE_GATE: alone('CARRIER_AGE_GATE', {}),
  PHONE_OWNERSHIP_MATCH: alone('PHONE_OWNERSHIP_MATCH', {}),
  PHONE_VERIFICATION: {
    workflow: [{ id: 'PHONE_VERIFICATION' }],
    drive: async (driver) => {
      await submit(driver, 'PHONE_VERIFICATION', { action: 'start' });
      const outbox = await driver.call('GET', `/__sandbox/outbox?session=${driver.sessionId}&channel=sms`, { key: null });
      const code = /code is (\d{6})/.exec((outbox.body.messages as { text: string }[])[0]?.text ?? '')?.[1];
      await submit(driver, 'PHONE_VERIFICATION', { action: 'complete', code });
    },
  },
};

/** A workflow of the drive's steps and a hosted session on it (POST /v1/sessions with workflow_id), as `driver` calls. */
export async function drivenSession(drive: StepDrive, call: StepDriver['call']): Promise<string> {
  const workflow = await call('POST', '/v1/workflows', { body: { name: 'First call', steps: drive.workflow } });
  const session = await call('POST', '/v1/sessions', {
    body: { ...DRIVEN_APPLICANT, workflow_id: workflow.body.workflow.id, send_email_invite: false, send_phone_invite: false },
  });
  return session.body.id as string;
}
