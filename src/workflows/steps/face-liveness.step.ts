/**
 * The headless FACE_LIVENESS step, spoken as both clients do: `start` mints a liveness session (the face
 * area's, with the streaming credentials the TypeScript client reads) and the capture `script` the iOS
 * client plays; `upload-url` presigns the attempt's frames (image/jpeg), its timeline (application/json)
 * and, when clip_mime_type is given, its clip, through the platform's upload store; `complete` scores the
 * capture against the step's confidence_threshold.
 *
 * The score, 0-100, is the face-detection confidence of what the applicant captured: the mean over the
 * uploaded frames that carry a face (no face in any frame is a FAILED capture, confidence null), else the selfie of the ID_VERIFICATION step, else (no ID step, no frames) the liveness session's
 * own confidence. When the ID_VERIFICATION selfie is known, the frames must show the same person
 * (LIVENESS_ID_MISMATCH otherwise). `passed` is SUCCEEDED, the same person and score >= threshold.
 *
 * Frames presigned before or after start count for the next complete (which spends them).
 *
 * Refusals (409, see workflow-errors.ts): complete before start (LIVENESS_NOT_STARTED),
 * complete with announced frames not PUT (LIVENESS_UPLOAD_INCOMPLETE), complete while the result is still
 * processing (LIVENESS_RESULT_NOT_READY: the applicant last name Slowliveness makes the result take
 * LIVENESS_TIMINGS.processingMs on the sandbox clock after start).
 *
 * LIMITATIONS:
 * - The clip and the timeline are stored, not analysed; neither is required for complete.
 */
import { z } from '@hono/zod-openapi';
import {
  compareFaces,
  createLivenessSession,
  DEFAULT_LIVENESS_THRESHOLD,
  FACE_MATCH_THRESHOLD,
  LIVENESS_TIMINGS,
  type LivenessChallengeType,
  livenessConfidence,
  livenessScript,
} from '../../face/api.ts';
import type { AnalysedImage } from '../../images/image-analysis.ts';
import type { World } from '../../platform/namespaces/world.ts';
import { round } from '../../platform/numbers.ts';
import { uploadsOwnedBy } from '../../platform/uploads/uploads.ts';
import { sessionUploadOwner } from '../session-results.ts';
import { describeZodError } from '../../platform/errors/api-error.ts';
import { loadMedia, readUploadAs, type IdVerificationState } from './id-verification.step.ts';
import { stepConflict, workflowError } from '../workflow-errors.ts';
import type { FaceLivenessRequirements, LivenessPayload } from './step-schemas.ts';
import { codedError } from '../../platform/errors/error-codes.ts';
import { WORKFLOWS_ERROR_CODES } from '../workflows.errors.ts';
import { mustBe } from '../../platform/validation/request-fields.ts';
import { CLIP_MIME_TYPES } from './step-bodies.ts';
import { defineStep, magicFailureCode, type StepFailure, type StepDeps, type UploadReader, type FailureRow } from './step-module.ts';
import { actionButton, fileField, LIVENESS_FRAME_COUNT, requiredFile, submitButton, text, type StepForm } from './hosted-forms.ts';
import { html } from 'hono/html';

export const LIVENESS_ACTIONS = ['start', 'complete', 'upload-url'] as const;

export const FaceLivenessStepBodySchema = z
  .strictObject({
    action: z.enum(LIVENESS_ACTIONS, { error: mustBe('action', 'one of start, complete, upload-url') }),
    frame_count: z.unknown().optional().openapi({ type: 'integer', minimum: 1, maximum: 8, description: 'upload-url only (required there): 1-8' }),
    clip_mime_type: z
      .unknown()
      .optional()
      .openapi({ type: 'string', enum: [...CLIP_MIME_TYPES], description: 'upload-url only (optional)' }),
  })
  .openapi('FaceLivenessStepBody');
export type FaceLivenessStepBody = z.infer<typeof FaceLivenessStepBodySchema>;

/** upload-url's own fields, validated only for that action (the spec: accepted with every action). */
export const LivenessUploadUrlFieldsSchema = z.object({
  frame_count: z
    .number({ error: mustBe('frame_count', 'an integer from 1 to 8', 'send the number of frames you will upload, 1-8') })
    .int({ error: mustBe('frame_count', 'a whole number from 1 to 8') })
    .min(1, { error: mustBe('frame_count', 'at least 1') })
    .max(8, { error: mustBe('frame_count', 'at most 8') }),
  clip_mime_type: z.enum(CLIP_MIME_TYPES, { error: mustBe('clip_mime_type', 'video/webm or video/mp4 (or omit it)') }).optional(),
});

export const DEFAULT_LIVENESS_CHALLENGE = 'FaceMovementChallenge';

function livenessThreshold(resolved: Record<string, unknown>): number {
  return typeof resolved.confidence_threshold === 'number' ? resolved.confidence_threshold : DEFAULT_LIVENESS_THRESHOLD;
}

export interface LivenessState extends Record<string, unknown> {
  livenessSessionId?: string;
  /** When the running attempt started (sandbox clock). */
  startedAtMs?: number;
  /** Attempts started so far (seeds each attempt's script). */
  starts?: number;
  /** File keys presigned by the last upload-url of the running attempt. */
  frameKeys?: string[];
  timelineKey?: string;
  clipKey?: string;
  /** The ID_VERIFICATION selfie's score and file key (read from that step's state for `complete`, not saved here). */
  selfieScore?: number;
  selfieKey?: string;
}

type LivenessDeps = Pick<StepDeps, 'readUpload' | 'presign'>;

export interface LivenessContext {
  world: World;
  sessionId: string;
  organizationId: string;
  /** The applicant's last name (magic values). */
  lastName: string;
  /** The step's index, for the 409 bodies. */
  index: number;
}

export interface LivenessAction {
  liveness: LivenessState;
  /** The step response's `liveness` object. */
  payload: LivenessPayload;
  /** Set by `complete`: the attempt's verdict (no failure = passed) and the analysis_data it records. */
  verdict?: { failure?: StepFailure; analysis: Record<string, unknown> };
  explanations: string[];
}

export const FRAME_CONTENT_TYPE = 'image/jpeg';
export const TIMELINE_CONTENT_TYPE = 'application/json';
/** The applicant last name that keeps the liveness result processing for LIVENESS_TIMINGS.processingMs after start. */
export const SLOW_LIVENESS_LAST_NAME = 'Slowliveness';
/** What a forced not-live capture scores (as the face area's test_liveness_spoof). */
const SPOOF_CONFIDENCE = 12.5;

/** The keys of `keys` whose bytes arrived. */
function arrivedKeys(world: World, sessionId: string, keys: readonly string[]): Set<string> {
  const arrived = new Set(
    uploadsOwnedBy(world, sessionUploadOwner(sessionId))
      .filter((upload) => upload.uploadedAtMs !== undefined)
      .map((upload) => upload.fileKey),
  );
  return new Set(keys.filter((key) => arrived.has(key)));
}

async function framesOf(keys: readonly string[], readUpload: UploadReader): Promise<AnalysedImage[]> {
  const fields: Record<string, Buffer> = {};
  for (const [index, key] of keys.entries()) fields[`frame_${index}`] = await readUploadAs(readUpload, key, `frame_${index}`);
  return Object.values(await loadMedia(fields)).map(({ analysis }) => analysis);
}

const isMagic = (lastName: string, magic: string) => lastName.trim().toLowerCase() === magic.toLowerCase();

function start(context: LivenessContext, requirements: FaceLivenessRequirements, state: LivenessState): LivenessAction {
  const { world, organizationId, sessionId } = context;
  const challengeType = requirements.challenge_type as LivenessChallengeType;
  const created = createLivenessSession(world, organizationId, { session_id: sessionId, challenge_type: challengeType });
  const starts = (state.starts ?? 0) + 1;
  const script = livenessScript(challengeType, ['workflow-liveness-script', sessionId, starts]);
  return {
    liveness: { ...state, livenessSessionId: created.value.liveness_session_id, startedAtMs: world.clock.now(), starts },
    payload: { action: 'start' as const, challenge_type: challengeType, ...created.value, script },
    explanations: [`liveness attempt ${starts}: ${script.durationMs} ms ${challengeType} script`, ...created.explanations],
  };
}

function requireStarted(context: LivenessContext, state: LivenessState, action: string): string {
  if (state.livenessSessionId === undefined) {
    throw stepConflict(
      'LIVENESS_NOT_STARTED',
      `FACE_LIVENESS on session ${context.sessionId} has not started: submit {"action": "start"} first, then ${action}.`,
      { current_step: context.index, step_id: 'FACE_LIVENESS' },
    );
  }
  return state.livenessSessionId;
}

function uploadUrl(context: LivenessContext, body: FaceLivenessStepBody, state: LivenessState, deps: LivenessDeps): LivenessAction {
  const parsed = LivenessUploadUrlFieldsSchema.safeParse({ frame_count: body.frame_count, clip_mime_type: body.clip_mime_type });
  if (!parsed.success) throw workflowError('VALIDATION_ERROR', describeZodError(parsed.error, 'json'));
  const owner = sessionUploadOwner(context.sessionId);
  const frames = Array.from({ length: parsed.data.frame_count }, (_, index) =>
    deps.presign({ contentType: FRAME_CONTENT_TYPE, owner, slot: `liveness_frame_${index}` }),
  );
  const timeline = deps.presign({ contentType: TIMELINE_CONTENT_TYPE, owner, slot: 'liveness_timeline' });
  const clipType = parsed.data.clip_mime_type;
  const clip = clipType === undefined ? undefined : deps.presign({ contentType: clipType, owner, slot: 'liveness_clip' });
  return {
    liveness: {
      ...state,
      frameKeys: frames.map((frame) => frame.fileKey),
      timelineKey: timeline.fileKey,
      ...(clip === undefined ? {} : { clipKey: clip.fileKey }),
    },
    payload: {
      action: 'upload-url' as const,
      frame_upload_urls: frames.map((frame) => frame.uploadUrl),
      frame_keys: frames.map((frame) => frame.fileKey),
      frame_content_type: FRAME_CONTENT_TYPE,
      timeline_upload_url: timeline.uploadUrl,
      timeline_key: timeline.fileKey,
      ...(clip === undefined ? {} : { clip_upload_url: clip.uploadUrl, clip_key: clip.fileKey, clip_content_type: clipType }),
      expires_at: timeline.expiresAt,
    },
    explanations: [
      `${frames.length} frame upload URL(s) (${FRAME_CONTENT_TYPE}), a timeline URL (${TIMELINE_CONTENT_TYPE})${clip === undefined ? '' : ` and a clip URL (${clipType})`}: PUT them, then complete`,
    ],
  };
}

interface Score {
  status: 'SUCCEEDED' | 'FAILED';
  confidence: number | null;
  source: string;
  /** The frames show another person than the ID_VERIFICATION selfie (the comparison's sentence). */
  mismatch?: string;
}

async function scoreCapture(state: LivenessState, livenessSessionId: string, deps: LivenessDeps): Promise<Score> {
  const frameKeys = state.frameKeys ?? [];
  if (frameKeys.length === 0) {
    return state.selfieScore !== undefined
      ? { status: 'SUCCEEDED', confidence: state.selfieScore, source: 'the ID_VERIFICATION selfie (no frames were uploaded)' }
      : { status: 'SUCCEEDED', confidence: livenessConfidence(livenessSessionId), source: `liveness session ${livenessSessionId}` };
  }
  const frames = await framesOf(frameKeys, deps.readUpload);
  const withFace = frames.filter((frame) => frame.face !== null);
  const source = `${frames.length} uploaded frame(s), ${withFace.length} with a face`;
  if (withFace.length === 0) return { status: 'FAILED', confidence: null, source };
  const confidence = round(withFace.reduce((sum, frame) => sum + (frame.face?.confidence ?? 0) * 100, 0) / withFace.length, 2);
  if (state.selfieKey === undefined) return { status: 'SUCCEEDED', confidence, source };
  const [selfie] = Object.values(await loadMedia({ selfie_front: await readUploadAs(deps.readUpload, state.selfieKey, 'selfie_front') }));
  const comparison = compareFaces(selfie?.analysis as AnalysedImage, withFace[0] as AnalysedImage, FACE_MATCH_THRESHOLD);
  return comparison.value.isMatch
    ? { status: 'SUCCEEDED', confidence, source }
    : { status: 'SUCCEEDED', confidence, source, mismatch: `frames vs the ID_VERIFICATION selfie: ${comparison.explanations.join('; ')}` };
}

async function complete(context: LivenessContext, config: Record<string, unknown>, state: LivenessState, deps: LivenessDeps): Promise<LivenessAction> {
  const { world, sessionId, index, lastName } = context;
  const livenessSessionId = requireStarted(context, state, '{"action": "complete"} once the capture is done');
  const readyAtMs = (state.startedAtMs ?? 0) + LIVENESS_TIMINGS.processingMs;
  if (isMagic(lastName, SLOW_LIVENESS_LAST_NAME) && world.clock.now() < readyAtMs) {
    throw stepConflict(
      'LIVENESS_RESULT_NOT_READY',
      `The liveness result of session ${sessionId} is still processing until ${world.clock.iso(readyAtMs)} (magic value: last name ${SLOW_LIVENESS_LAST_NAME}): poll complete again.`,
      { current_step: index, step_id: 'FACE_LIVENESS', failure_reason: 'FACE_LIVENESS_RESULT_NOT_READY' },
    );
  }
  const announced = state.frameKeys ?? [];
  const arrived = arrivedKeys(world, sessionId, announced);
  const missing = announced.map((key, frame) => (arrived.has(key) ? undefined : `frame ${frame}`)).filter((name) => name !== undefined);
  if (missing.length > 0) {
    throw stepConflict(
      'LIVENESS_UPLOAD_INCOMPLETE',
      `FACE_LIVENESS on session ${sessionId} announced ${announced.length} frame(s) but ${missing.join(', ')} did not arrive: PUT each to its frame_upload_urls entry (Content-Type ${FRAME_CONTENT_TYPE}), then complete again.`,
      { current_step: index, step_id: 'FACE_LIVENESS' },
    );
  }
  const threshold = livenessThreshold(config);
  const forced = magicFailureCode(FACE_LIVENESS_FAILURES, lastName);
  const scored = await scoreCapture(state, livenessSessionId, deps);
  const score: Score =
    forced === 'LIVENESS_FAILED'
      ? { status: 'SUCCEEDED', confidence: SPOOF_CONFIDENCE, source: `magic value: last name ${lastName.trim()}` }
      : forced === 'LIVENESS_ID_MISMATCH'
        ? { ...scored, status: 'SUCCEEDED', confidence: scored.confidence ?? SPOOF_CONFIDENCE, mismatch: `magic value: last name ${lastName.trim()}` }
        : scored;
  const live = score.status === 'SUCCEEDED' && score.confidence !== null && score.confidence >= threshold;
  const passed = live && score.mismatch === undefined;
  const detail =
    score.confidence === null
      ? `liveness FAILED: no face in ${score.source}`
      : `liveness score ${score.confidence} from ${score.source} ${score.confidence >= threshold ? '>=' : '<'} confidence_threshold ${threshold}`;
  const failure: StepFailure | undefined = !live
    ? { code: 'LIVENESS_FAILED', slot: 'LIVENESS', detail }
    : score.mismatch !== undefined
      ? { code: 'LIVENESS_ID_MISMATCH', slot: 'LIVENESS', detail: score.mismatch }
      : undefined;
  // A new capture needs a new start: the finished liveness session and its uploads are spent.
  const {
    livenessSessionId: _spent,
    frameKeys: _frames,
    timelineKey: _timeline,
    clipKey: _clip,
    startedAtMs: _started,
    selfieScore: _score,
    selfieKey: _key,
    ...rest
  } = state;
  return {
    liveness: rest,
    payload: {
      action: 'complete' as const,
      liveness_session_id: livenessSessionId,
      status: score.status,
      confidence: score.confidence,
      passed,
      confidence_threshold: threshold,
    },
    verdict: { analysis: score.confidence === null ? {} : { faceliveness_score: score.confidence }, ...(failure === undefined ? {} : { failure }) },
    explanations: [score.mismatch === undefined ? detail : `${detail}; ${score.mismatch}`],
  };
}

function faceLivenessRequirements(config: Record<string, unknown>): FaceLivenessRequirements {
  return { challenge_type: DEFAULT_LIVENESS_CHALLENGE, confidence_threshold: livenessThreshold(config) };
}

async function runFaceLivenessAction(
  context: LivenessContext,
  body: FaceLivenessStepBody,
  config: Record<string, unknown>,
  state: LivenessState,
  deps: LivenessDeps,
): Promise<LivenessAction> {
  if (body.action === 'start') return start(context, faceLivenessRequirements(config), state);
  if (body.action === 'upload-url') return uploadUrl(context, body, state, deps);
  return complete(context, config, state, deps);
}

const faceLivenessForm: StepForm = {
  title: 'Liveness check',
  fields: (
    view,
  ) => html`<p>Pick the picture the camera would see: the page starts a liveness capture, uploads ${LIVENESS_FRAME_COUNT} frames taken from it and asks for the result.</p>
${fileField('frame', 'Picture for the frames (JPEG)', 'frame')}
${submitButton('Start the liveness check')}
${view.step.status === 'IN_PROGRESS' ? actionButton('complete', 'Ask for the result again (no new frames)', false) : ''}`,
  submit: async (form, client) => {
    if (text(form, 'action') === 'complete') return client.submit({ action: 'complete' });
    const frame = await requiredFile(form, 'frame', 'The picture for the frames');
    if (frame.contentType !== 'image/jpeg')
      throw codedError(WORKFLOWS_ERROR_CODES, 'HOSTED_FRAMES_NOT_JPEG', { label: frame.label, contentType: frame.contentType });
    await client.submit({ action: 'start' });
    const urls = await client.submit({ action: 'upload-url', frame_count: LIVENESS_FRAME_COUNT });
    const liveness = urls.liveness as { frame_upload_urls: string[] };
    for (const url of liveness.frame_upload_urls) await client.deliver(url, frame);
    return client.submit({ action: 'complete' });
  },
};

const FACE_LIVENESS_FAILURES = {
  LIVENESS_ID_MISMATCH: {
    category: 'FACE_MATCH',
    user_action: 'RETRY_LIVENESS',
    reason: 'LOW_FACE_MATCH',
    content: 'liveness frames of another person than the ID_VERIFICATION selfie (different-face.jpg frames after a face.jpg selfie)',
    magicLastName: 'Impostor',
    message: 'The face in the liveness capture does not match the verified ID.',
  },
  LIVENESS_FAILED: {
    category: 'LIVENESS',
    user_action: 'RETRY_LIVENESS',
    reason: 'LIVENESS_FAILED',
    content: 'liveness frames without a face (blank.png), or a score below the step’s confidence_threshold',
    magicLastName: 'Spoof',
    message: 'The liveness check did not pass.',
  },
} satisfies Record<string, FailureRow>;

export const FACE_LIVENESS_STEP = defineStep<FaceLivenessStepBody>({
  code: 'FACE_LIVENESS',
  summary: 'Liveness capture: start, upload-url for the frames, complete scores them against confidence_threshold (and the ID selfie)',
  body: FaceLivenessStepBodySchema,
  headless: true,
  requirements: faceLivenessRequirements,
  failures: FACE_LIVENESS_FAILURES,
  conflicts: {
    LIVENESS_NOT_STARTED: 'FACE_LIVENESS complete before start (or again after a complete, without a new start)',
    LIVENESS_RESULT_NOT_READY:
      'FACE_LIVENESS complete while the result is still processing (failure_reason FACE_LIVENESS_RESULT_NOT_READY; magic last name Slowliveness)',
    LIVENESS_UPLOAD_INCOMPLETE: 'FACE_LIVENESS complete after upload-url while some announced frames were not PUT',
  },
  hostedForm: faceLivenessForm,
  async run(context, body) {
    const selfie = context.earlier('ID_VERIFICATION')?.state as IdVerificationState | undefined;
    const state: LivenessState = {
      ...(context.state as LivenessState | undefined),
      ...(selfie === undefined ? {} : { selfieScore: selfie.selfieScore, selfieKey: selfie.selfieKey }),
    };
    const livenessContext = {
      world: context.world,
      sessionId: context.sessionId,
      organizationId: context.organizationId,
      lastName: context.applicant.last_name,
      index: context.index,
    };
    const action = await runFaceLivenessAction(livenessContext, body, context.config, state, context.deps);
    const { selfieScore: _score, selfieKey: _key, ...saved } = action.liveness;
    const common = { state: saved, payload: { liveness: action.payload }, explanations: action.explanations };
    if (action.verdict === undefined) return { kind: 'progress', ...common };
    const { failure, analysis } = action.verdict;
    return failure === undefined ? { kind: 'passed', analysis, ...common } : { kind: 'failed', failure, analysis, ...common };
  },
});
