/**
 * The headless FACE_LIVENESS step: `start` mints a liveness session with streaming credentials (the face
 * area's liveness sessions), `upload-url` presigns frame (and clip) uploads in the sandbox's own upload
 * store, `complete` scores liveness from image content against the step's confidence_threshold.
 *
 * The score, 0-100, is the face-detection confidence of what the applicant captured: the mean over the
 * uploaded frames when frames arrived after the last upload-url, else the selfie of the ID_VERIFICATION
 * step, else (a workflow with no ID step and no frames) the liveness session's own confidence. A
 * picture without a face scores 0.
 *
 * LIMITATIONS:
 * - The clip is stored but not analysed; frames must be JPEG (their upload URLs are presigned for
 *   image/jpeg).
 */
import { createLivenessSession, livenessConfidence } from '../face/face-liveness.service.ts';
import { round } from '../platform/numbers.ts';
import { loadImages } from '../images/image-loading.ts';
import { imageApiError } from '../images/image-request.ts';
import { ApiError, describeZodError } from '../platform/errors/api-error.ts';
import type { World } from '../platform/namespaces/world.ts';
import { uploadsOwnedBy } from '../platform/uploads/uploads.ts';
import type { FailureReason, FailureSlot } from '../sessions/sessions.schemas.ts';
import { sessionUploadOwner } from '../sessions/sessions.store.ts';
import type { UploadReader } from './id-verification.step.ts';
import type { StepState } from './workflow-step.machine.ts';
import { DEFAULT_LIVENESS_CHALLENGE, livenessThreshold } from './workflow-steps.ts';
import { LivenessUploadUrlFieldsSchema, type FaceLivenessStepBody } from './workflows.schemas.ts';

export interface LivenessState {
  livenessSessionId?: string;
  /** File keys of the frames presigned by the last upload-url. */
  frameKeys?: string[];
  /** The ID_VERIFICATION selfie's score, kept for `complete`. */
  selfieScore?: number;
}

export interface LivenessDeps {
  readUpload: UploadReader;
  /** Presigns one upload of the session (owner `session:<id>`) in the platform's upload store. */
  presign: (request: { contentType: string; owner: string; slot: string }) => { fileKey: string; uploadUrl: string; expiresAt: string };
}

export interface LivenessAction {
  liveness: LivenessState;
  /** The step response's `liveness` object. */
  payload: Record<string, unknown>;
  /** Set by `complete`: the attempt's verdict (no failure = passed) and the analysis_data it records. */
  verdict?: { failure?: { reason: FailureReason; slot: FailureSlot; detail: string }; analysis: Record<string, unknown> };
  explanations: string[];
}

export const FRAME_CONTENT_TYPE = 'image/jpeg';

/** Frames whose bytes arrived (each a file key of the last upload-url). */
function arrivedFrames(world: World, sessionId: string, frameKeys: readonly string[]): string[] {
  const arrived = new Set(
    uploadsOwnedBy(world, sessionUploadOwner(sessionId))
      .filter((upload) => upload.uploadedAtMs !== undefined)
      .map((upload) => upload.fileKey),
  );
  return frameKeys.filter((key) => arrived.has(key));
}

async function frameScore(keys: readonly string[], readUpload: UploadReader): Promise<number> {
  const fields: Record<string, Buffer> = {};
  for (const [index, key] of keys.entries()) fields[`frame_${index}`] = await readUpload(key);
  let loaded;
  try {
    loaded = await loadImages(fields, { readStorageKey: () => null });
  } catch (error) {
    throw imageApiError(error);
  }
  const scores = Object.values(loaded).map(({ analysis }) => (analysis.face === null ? 0 : analysis.face.confidence * 100));
  return round(scores.reduce((sum, score) => sum + score, 0) / scores.length, 2);
}

export async function runFaceLivenessAction(
  world: World,
  organizationId: string,
  sessionId: string,
  body: FaceLivenessStepBody,
  step: StepState & { config: Record<string, unknown> },
  state: LivenessState | undefined,
  deps: LivenessDeps,
): Promise<LivenessAction> {
  const liveness: LivenessState = { ...state };
  if (body.action === 'start') {
    const created = createLivenessSession(world, organizationId, { session_id: sessionId, challenge_type: DEFAULT_LIVENESS_CHALLENGE });
    liveness.livenessSessionId = created.session.liveness_session_id;
    return { liveness, payload: { action: 'start', challenge_type: DEFAULT_LIVENESS_CHALLENGE, ...created.session }, explanations: [created.explanation] };
  }
  if (body.action === 'upload-url') {
    const parsed = LivenessUploadUrlFieldsSchema.safeParse({ frame_count: body.frame_count, clip_mime_type: body.clip_mime_type });
    if (!parsed.success) throw new ApiError(400, describeZodError(parsed.error, 'json'));
    const owner = sessionUploadOwner(sessionId);
    const frames = Array.from({ length: parsed.data.frame_count }, (_, index) =>
      deps.presign({ contentType: FRAME_CONTENT_TYPE, owner, slot: `liveness_frame_${index}` }),
    );
    const clip = parsed.data.clip_mime_type === undefined ? undefined : deps.presign({ contentType: parsed.data.clip_mime_type, owner, slot: 'liveness_clip' });
    liveness.frameKeys = frames.map((frame) => frame.fileKey);
    return {
      liveness,
      payload: {
        action: 'upload-url',
        frame_upload_urls: frames.map((frame) => frame.uploadUrl),
        frame_keys: frames.map((frame) => frame.fileKey),
        frame_content_type: FRAME_CONTENT_TYPE,
        ...(clip === undefined ? {} : { clip_upload_url: clip.uploadUrl, clip_key: clip.fileKey, clip_content_type: parsed.data.clip_mime_type }),
        expires_at: (frames[0] as { expiresAt: string }).expiresAt,
      },
      explanations: [
        `${frames.length} frame upload URL(s)${clip === undefined ? '' : ' and a clip URL'}: PUT each with Content-Type ${FRAME_CONTENT_TYPE}, then complete`,
      ],
    };
  }
  if (liveness.livenessSessionId === undefined) {
    throw new ApiError(
      409,
      `FACE_LIVENESS on session ${sessionId} has not started: submit {"action": "start"} first, then {"action": "complete"} once the capture is done.`,
    );
  }
  const frames = arrivedFrames(world, sessionId, liveness.frameKeys ?? []);
  const threshold = livenessThreshold(step.config);
  const [score, source] =
    frames.length > 0
      ? [await frameScore(frames, deps.readUpload), `${frames.length} uploaded frame(s)`]
      : liveness.selfieScore !== undefined
        ? [liveness.selfieScore, 'the ID_VERIFICATION selfie']
        : [livenessConfidence(liveness.livenessSessionId), `liveness session ${liveness.livenessSessionId}`];
  const passed = score >= threshold;
  const detail = `liveness score ${score} from ${source} ${passed ? '>=' : '<'} confidence_threshold ${threshold}`;
  const { livenessSessionId } = liveness;
  // A new capture needs a new start: the finished liveness session is spent.
  const { livenessSessionId: _spent, frameKeys: _frames, ...rest } = liveness;
  return {
    liveness: rest,
    payload: { action: 'complete', liveness_session_id: livenessSessionId, status: 'SUCCEEDED', confidence: score, passed, confidence_threshold: threshold },
    verdict: { analysis: { faceliveness_score: score }, ...(passed ? {} : { failure: { reason: 'LIVENESS_FAILED', slot: 'LIVENESS', detail } }) },
    explanations: [detail],
  };
}
