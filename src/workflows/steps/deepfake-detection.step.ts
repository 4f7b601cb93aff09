/**
 * DEEPFAKE_DETECTION: `start` mints the upload URLs of the scan (six frames as image/jpeg, the video clip,
 * and the audio clip when include_audio) owned by the session's deepfake scan, plus the challenge word the
 * applicant speaks; `complete` reads the six frames (and whether the clips arrived) and lets the deepfake
 * area judge them (judgeScan: face presence, poses against frame_meta, timing, the clips). LIVE with trust
 * PASS completes the step; DEEPFAKE or trust REJECT is DEEPFAKE_DETECTED; anything else DEEPFAKE_INCONCLUSIVE.
 * Unlike POST /v1/deepfake/analyze, the step is not billed (steps are not). complete before start: 409
 * STEP_NOT_STARTED.
 */
import { z } from '@hono/zod-openapi';
import {
  AUDIO_CONTENT_TYPES,
  AUDIO_SLOT,
  challengeWordFor,
  DEEPFAKE_ACTIONS,
  deepfakeUploadOwner,
  FRAME_CONTENT_TYPE,
  FRAME_SLOTS,
  type FrameMeta,
  type FrameSlot,
  judgeScan,
} from '../../deepfake/api.ts';
import type { LoadedImage } from '../../images/image-loading.ts';
import { flag, mustBe } from '../../platform/validation/request-fields.ts';
import { stepConflict } from '../workflow-errors.ts';
import { loadMedia, readUploadAs } from './id-verification.step.ts';
import { defineStep, type StepFailure, type FailureRow } from './step-module.ts';
import { readFile } from 'node:fs/promises';
import { html } from 'hono/html';
import { codedError } from '../../platform/errors/error-codes.ts';
import { WORKFLOWS_ERROR_CODES } from '../workflows.errors.ts';
import { sampleFile, submitButton, text, type PageFile, type StepForm } from './hosted-forms.ts';

const VIDEO_SLOT = 'video_clip';
const VIDEO_CONTENT_TYPE = 'video/webm';
const AUDIO_CONTENT_TYPE = AUDIO_CONTENT_TYPES[0];

const finite = (field: string) => z.number({ error: mustBe(field, 'a number') });
const key = (field: string) => z.string({ error: mustBe(`s3_keys.${field}`, 'the file key start returned for it') }).min(1);

const FrameMetaBodySchema = z.strictObject({
  action_id: z.string({ error: mustBe('action_id', 'a string') }),
  action: z.enum(DEEPFAKE_ACTIONS, { error: mustBe('action', `one of ${DEEPFAKE_ACTIONS.join(', ')}`) }),
  timestamp: finite('timestamp'),
  yaw: finite('yaw'),
  pitch: finite('pitch'),
  roll: finite('roll'),
  left_eye_openness: finite('left_eye_openness').min(0).max(1),
  right_eye_openness: finite('right_eye_openness').min(0).max(1),
  face_detected: flag('face_detected'),
});

export const DeepfakeDetectionStepBodySchema = z
  .discriminatedUnion(
    'action',
    [
      z.strictObject({ action: z.literal('start'), include_audio: flag('include_audio').optional() }),
      z.strictObject({
        action: z.literal('complete'),
        scan_duration_ms: finite('scan_duration_ms').positive(),
        frame_meta: z
          .array(FrameMetaBodySchema, { error: mustBe('frame_meta', 'an array of exactly 6 frame descriptions') })
          .length(6, { error: 'frame_meta must hold exactly 6 frames, one per uploaded frame (frame_0 ... frame_5)' }),
        s3_keys: z.strictObject({
          ...(Object.fromEntries(FRAME_SLOTS.map((slot) => [slot, key(slot)])) as Record<FrameSlot, ReturnType<typeof key>>),
          audio_clip: key(AUDIO_SLOT).optional(),
          video_clip: key(VIDEO_SLOT).optional(),
        }),
      }),
    ],
    { error: mustBe('action', 'start or complete') },
  )
  .openapi('DeepfakeDetectionStepBody');
export type DeepfakeDetectionStepBody = z.infer<typeof DeepfakeDetectionStepBodySchema>;

const toFrameMeta = (meta: z.infer<typeof FrameMetaBodySchema>): FrameMeta => ({
  actionId: meta.action_id,
  action: meta.action,
  timestamp: meta.timestamp,
  yaw: meta.yaw,
  pitch: meta.pitch,
  roll: meta.roll,
  leftEyeOpenness: meta.left_eye_openness,
  rightEyeOpenness: meta.right_eye_openness,
  faceDetected: meta.face_detected,
});

/** The deepfake scans the page offers, as the frames a camera would send (fixtures/images). */
const DEEPFAKE_SCANS = {
  live: {
    label: 'a live scan: person A from two angles',
    frames: ['face.jpg', 'face-cropped.jpg', 'face.jpg', 'face-cropped.jpg', 'face.jpg', 'face-cropped.jpg'],
  },
  replay: {
    label: 'a photo held to the camera: the same picture in every frame',
    frames: ['face.jpg', 'face.jpg', 'face.jpg', 'face.jpg', 'face.jpg', 'face.jpg'],
  },
  switch: {
    label: 'another person half-way: person B in the last frame',
    frames: ['face.jpg', 'face-cropped.jpg', 'face.jpg', 'face-cropped.jpg', 'face.jpg', 'different-face.jpg'],
  },
} as const;
type DeepfakeScan = keyof typeof DEEPFAKE_SCANS;

/** The live scan's frame metadata (fixtures/deepfake-live-scan.json), in the step body's snake case. */
async function liveScanFrameMeta(): Promise<Record<string, unknown>[]> {
  const scan = JSON.parse(await readFile(new URL('../../../fixtures/deepfake-live-scan.json', import.meta.url), 'utf8')) as {
    frameMeta: Record<string, unknown>[];
  };
  return scan.frameMeta.map((meta) =>
    Object.fromEntries(Object.entries(meta).map(([key, value]) => [key.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`), value])),
  );
}

const deepfakeForm: StepForm = {
  title: 'Face scan',
  fields: () => html`<p>The page starts a scan, uploads its six frames and asks whether a live person was in front of the camera.</p>
<label>What the camera sees <select name="scan">${Object.entries(DEEPFAKE_SCANS).map(([value, scan]) => html`<option value="${value}">${scan.label}</option>`)}</select></label>
${submitButton('Scan my face')}`,
  submit: async (form, client) => {
    const choice = text(form, 'scan') ?? 'live';
    if (!(choice in DEEPFAKE_SCANS)) throw codedError(WORKFLOWS_ERROR_CODES, 'HOSTED_SCAN_UNKNOWN', { scans: Object.keys(DEEPFAKE_SCANS) });
    const frames = DEEPFAKE_SCANS[choice as DeepfakeScan].frames;
    const started = await client.submit({ action: 'start' });
    const { upload_urls: urls, s3_keys: keys } = started.deepfake as { upload_urls: Record<string, string>; s3_keys: Record<string, string> };
    const s3Keys: Record<string, string> = {};
    for (const [index, name] of frames.entries()) {
      const slot = `frame_${index}`;
      await client.deliver(urls[slot] as string, (await sampleFile(name)) as PageFile);
      s3Keys[slot] = keys[slot] as string;
    }
    const frameMeta = await liveScanFrameMeta();
    const lastTimestamp = Number(frameMeta.at(-1)?.timestamp ?? 0);
    return client.submit({ action: 'complete', scan_duration_ms: lastTimestamp + 600, frame_meta: frameMeta, s3_keys: s3Keys });
  },
};

const DEEPFAKE_DETECTION_FAILURES = {
  DEEPFAKE_DETECTED: {
    category: 'LIVENESS',
    user_action: 'RETRY_LIVENESS',
    reason: 'DEEPFAKE_DETECTED',
    content: 'frames the deepfake engine judges DEEPFAKE or trust REJECT (e.g. no face, poses that do not fit frame_meta), or its magic challenge words',
    magicLastName: null,
    message: 'The capture looks synthetic or replayed.',
  },
  DEEPFAKE_INCONCLUSIVE: {
    category: 'LIVENESS',
    user_action: 'RETRY_LIVENESS',
    reason: 'DEEPFAKE_DETECTED',
    content: 'frames the deepfake engine judges INCONCLUSIVE or trust REVIEW',
    magicLastName: null,
    message: 'The deepfake analysis was inconclusive.',
  },
} satisfies Record<string, FailureRow>;

export const DEEPFAKE_DETECTION_STEP = defineStep<DeepfakeDetectionStepBody>({
  code: 'DEEPFAKE_DETECTION',
  summary: 'start mints the frame/audio/video upload URLs; complete has the deepfake engine judge the six frames against frame_meta',
  body: DeepfakeDetectionStepBodySchema,
  headless: false,
  requirements: () => ({ frames: FRAME_SLOTS.length, frame_content_type: FRAME_CONTENT_TYPE, actions: [...DEEPFAKE_ACTIONS] }),
  failures: DEEPFAKE_DETECTION_FAILURES,
  hostedForm: deepfakeForm,
  async run(context, body) {
    const owner = deepfakeUploadOwner(context.sessionId);
    const challengeWord = challengeWordFor(context.world.seed, context.organizationId, context.sessionId);
    if (body.action === 'start') {
      const slots = [
        ...FRAME_SLOTS.map((slot) => ({ slot, contentType: FRAME_CONTENT_TYPE })),
        { slot: VIDEO_SLOT, contentType: VIDEO_CONTENT_TYPE },
        ...(body.include_audio === true ? [{ slot: AUDIO_SLOT, contentType: AUDIO_CONTENT_TYPE }] : []),
      ];
      const urls: Record<string, string> = {};
      const keys: Record<string, string> = {};
      for (const { slot, contentType } of slots) {
        const presigned = context.deps.presign({ contentType, owner, slot });
        urls[slot] = presigned.uploadUrl;
        keys[slot] = presigned.fileKey;
      }
      return {
        kind: 'progress',
        state: { startedAt: context.nowIso },
        payload: { deepfake: { action: 'start', upload_urls: urls, s3_keys: keys, challenge_word: challengeWord } },
        explanations: [
          `DEEPFAKE_DETECTION: ${slots.length} upload URLs (frames ${FRAME_CONTENT_TYPE}, video ${VIDEO_CONTENT_TYPE}${body.include_audio === true ? `, audio ${AUDIO_CONTENT_TYPE}` : ''}); say "${challengeWord}"`,
        ],
      };
    }
    if (context.state?.startedAt === undefined) {
      throw stepConflict(
        'STEP_NOT_STARTED',
        `DEEPFAKE_DETECTION on session ${context.sessionId} has not started: submit {"action": "start"} first, then complete.`,
        {
          current_step: context.index,
          step_id: 'DEEPFAKE_DETECTION',
        },
      );
    }
    const fields: Record<string, Buffer> = {};
    for (const slot of FRAME_SLOTS) fields[slot] = await readUploadAs(context.deps.readUpload, body.s3_keys[slot], `s3_keys.${slot}`);
    const frames = (await loadMedia(fields)) as Record<FrameSlot, LoadedImage>;
    const clip = async (slot: string, fileKey: string | undefined) =>
      fileKey !== undefined && (await readUploadAs(context.deps.readUpload, fileKey, `s3_keys.${slot}`)).length > 0;
    const judgement = judgeScan({
      frames,
      meta: body.frame_meta.map(toFrameMeta),
      scanDurationMs: body.scan_duration_ms,
      expectedChallenge: challengeWord,
      audioUploaded: await clip(AUDIO_SLOT, body.s3_keys.audio_clip),
      videoUploaded: await clip(VIDEO_SLOT, body.s3_keys.video_clip),
    });
    const result = {
      verdict: judgement.verdict,
      confidence: judgement.confidence,
      risk_score: judgement.riskScore,
      trust_verdict: judgement.trustVerdict,
      trust_score: judgement.trustScore,
      failure_reasons: judgement.failureReasons,
    };
    const detected = judgement.verdict === 'DEEPFAKE' || judgement.trustVerdict === 'REJECT';
    const live = judgement.verdict === 'LIVE' && judgement.trustVerdict === 'PASS';
    const common = {
      state: {},
      analysis: { deepfake_detection: result },
      payload: { deepfake: { action: 'complete', ...result } },
      explanations: [judgement.explanation],
    };
    if (live) return { kind: 'passed', ...common };
    const failure: StepFailure = {
      code: detected ? 'DEEPFAKE_DETECTED' : 'DEEPFAKE_INCONCLUSIVE',
      slot: 'LIVENESS',
      detail: `verdict ${judgement.verdict}, trust ${judgement.trustVerdict} (${judgement.failureReasons.join(', ') || 'no reasons given'})`,
    };
    return { kind: 'failed', failure, ...common };
  },
});
