/**
 * Re-verifications (real client: reVerifications.create, startLiveness, createLivenessUploadUrl,
 * completeLiveness; not in the API spec): a returning user proves liveness again against a workflow that
 * has a face-liveness step. The states and the error codes of each state are data in
 * re-verifications.machine.ts; errors carry the client's `code` in the body (`not_found`,
 * `reverify_disabled`, `already_completed`, `expired`, `liveness_not_started`,
 * `liveness_upload_incomplete`, `insufficient_balance`).
 *
 * The decision comes from the uploaded frames (the image engine's frame checks: a face in every frame,
 * the same face throughout, more than one picture), the capture timing on the virtual clock (frames cannot
 * be complete before the script has run: completing earlier asks for the liveness again) and the
 * workflow's confidence threshold and attempt limit.
 *
 * LIMITATIONS:
 * - The timeline file must be JSON; its content is not compared with the script.
 * - The clip is checked for presence, not decoded. original_session_id is never reported.
 */
import type { Explained } from '../platform/explained.ts';
import { livenessScript } from '../face/api.ts';
import { examineFrames } from '../images/frame-sequence.ts';
import { loadImages } from '../images/image-loading.ts';
import { imageApiError } from '../images/image-request.ts';
import type { OrganizationFixture } from '../platform/auth/organizations.ts';
import { balanceOf, charge, type FundsPolicy } from '../platform/billing/billing.ts';
import { ApiError } from '../platform/errors/api-error.ts';
import type { World } from '../platform/namespaces/world.ts';
import { uuidFrom } from '../platform/random/random.ts';
import { MAX_UPLOAD_BYTES, type UploadStore } from '../platform/uploads/uploads.ts';
import { workflowById, stepCode, type WorkflowRecord } from '../workflows/api.ts';
import { codedError } from '../platform/errors/error-codes.ts';
import { RE_VERIFICATIONS_ERROR_CODES } from './re-verifications.errors.ts';
import { REFUSALS, RE_VERIFICATION_TTL_MS, stateAt, type LifecycleOperation, type ReVerificationState } from './re-verifications.machine.ts';
import {
  CHALLENGE_TYPES,
  type ChallengeType,
  type CompleteLivenessResponse,
  type CreateReVerificationBody,
  type Decision,
  type StartLivenessResponse,
  type UploadUrlBody,
  type UploadUrlResponse,
} from './re-verifications.schemas.ts';
import { round } from '../platform/numbers.ts';

export const DEFAULT_CHALLENGE_TYPE: ChallengeType = 'FaceMovementAndLightChallenge';
export const DEFAULT_CONFIDENCE_THRESHOLD = 70;
export const DEFAULT_MAX_ATTEMPTS = 3;
/** Frames must show the same face as the first one (the face-compare threshold). */
export const SAME_FACE_SIMILARITY = 80;

/** device_fingerprint values that force an outcome (catalog: magic values). */
export const RE_VERIFICATION_MAGIC_FINGERPRINTS = [
  {
    input: 'sandbox-liveness-fails',
    outcome: 'every attempt: liveness FAILED (confidence 12.5), decision retry, then failed at the attempt limit',
    description: 'A presentation attack: whatever the frames show, the liveness check fails.',
  },
] as const;

interface StoredUploads {
  frameKeys: string[];
  timelineKey: string;
  clipKey?: string;
}

export interface StoredReVerification {
  id: string;
  organizationId: string;
  workflowId: string;
  deviceFingerprint?: string;
  /** The stored state; EXPIRED is derived on read (machine.stateAt). */
  state: ReVerificationState;
  createdAt: string;
  expiresAtMs: number;
  challengeType: ChallengeType;
  confidenceThreshold: number;
  maxAttempts: number;
  failedAttempts: number;
  /** Liveness attempts started so far. */
  attempts: number;
  livenessSessionId?: string;
  startedAtMs?: number;
  scriptDurationMs?: number;
  uploads?: StoredUploads;
  /** The decision of the attempt that ended it (COMPLETED or FAILED), replayed by a repeated complete. */
  decision?: CompleteLivenessResponse;
}

const reVerifications = (world: World) => world.data.collection<StoredReVerification>('re-verifications');

function workflowLiveness(workflow: WorkflowRecord) {
  return workflow.steps.find((step) => stepCode(step.id) === 'FACE_LIVENESS');
}

/** POST /v1/re-verifications: 201 PENDING; 404 not_found (unknown workflow), 403 reverify_disabled. */
export function createReVerification(world: World, organizationId: string, body: CreateReVerificationBody) {
  const workflow = workflowById(world, organizationId, body.workflow_id);
  if (!workflow) throw codedError(RE_VERIFICATIONS_ERROR_CODES, 'not_found', { workflowId: body.workflow_id });
  const liveness = workflowLiveness(workflow);
  if (!liveness || liveness.config.reverify_enabled === false) {
    throw codedError(RE_VERIFICATIONS_ERROR_CODES, 'reverify_disabled', { workflowId: workflow.id, hasLiveness: liveness !== undefined });
  }
  const configured = liveness.config.challenge_type;
  const challengeType = (CHALLENGE_TYPES as readonly unknown[]).includes(configured) ? (configured as ChallengeType) : DEFAULT_CHALLENGE_TYPE;
  const threshold = typeof liveness.config.confidence_threshold === 'number' ? liveness.config.confidence_threshold : DEFAULT_CONFIDENCE_THRESHOLD;
  const now = world.clock.now();
  const stored: StoredReVerification = {
    id: world.uuid(),
    organizationId,
    workflowId: workflow.id,
    ...(body.device_fingerprint === undefined ? {} : { deviceFingerprint: body.device_fingerprint }),
    state: 'PENDING',
    createdAt: world.clock.iso(now),
    expiresAtMs: now + RE_VERIFICATION_TTL_MS,
    challengeType,
    confidenceThreshold: threshold,
    maxAttempts: workflow.settings?.max_failed_attempts ?? DEFAULT_MAX_ATTEMPTS,
    failedAttempts: 0,
    attempts: 0,
  };
  reVerifications(world).put(stored);
  return {
    value: {
      re_verification_id: stored.id,
      workflow_id: workflow.id,
      status: 'PENDING' as const,
      expires_at: world.clock.iso(stored.expiresAtMs),
      liveness: { challenge_type: challengeType },
    },
    explanations: [
      `re-verification PENDING against workflow ${workflow.id} (${challengeType}, threshold ${threshold}, ${stored.maxAttempts} attempts); expires in 30 min`,
    ],
  };
}

/** The organization's re-verification, refused with the code of its state for `operation`. */
function requireOpen(world: World, organizationId: string, id: string, operation: LifecycleOperation): StoredReVerification {
  const stored = reVerifications(world).get(id);
  if (!stored || stored.organizationId !== organizationId) {
    throw codedError(RE_VERIFICATIONS_ERROR_CODES, 'not_found', { reVerificationId: id });
  }
  const state = stateAt(stored, world.clock.now());
  const refusal = REFUSALS[state][operation];
  if (refusal !== undefined) {
    const facts = { id, operation: operation.replace('-', ' '), state, expiresAt: world.clock.iso(stored.expiresAtMs) };
    throw codedError(RE_VERIFICATIONS_ERROR_CODES, refusal, facts);
  }
  return stored;
}

function requireBalance(world: World, organization: OrganizationFixture): void {
  if (balanceOf(world, organization) < 1) {
    throw codedError(RE_VERIFICATIONS_ERROR_CODES, 'insufficient_balance', { organizationId: organization.id });
  }
}

/** The capture script of an attempt, seeded by the re-verification and the attempt number. */
export function scriptFor(challengeType: ChallengeType, id: string, attempt: number) {
  return livenessScript(challengeType, ['re-verification-script', id, attempt]);
}

/** POST /v1/re-verifications/{id}/liveness/start: a new attempt with its script (a restart replaces it). */
export function startLiveness(world: World, organization: OrganizationFixture, id: string): Explained<StartLivenessResponse> {
  const stored = requireOpen(world, organization.id, id, 'start');
  requireBalance(world, organization);
  const attempts = stored.attempts + 1;
  const script = scriptFor(stored.challengeType, stored.id, attempts);
  const { uploads: _dropped, ...rest } = stored;
  const next: StoredReVerification = {
    ...rest,
    state: 'LIVENESS_STARTED',
    attempts,
    livenessSessionId: world.uuid(),
    startedAtMs: world.clock.now(),
    scriptDurationMs: script.durationMs,
  };
  reVerifications(world).put(next);
  return {
    value: { liveness_session_id: next.livenessSessionId as string, script },
    explanations: [
      `liveness attempt ${attempts} of ${stored.maxAttempts} started: ${script.durationMs} ms script, frames complete no earlier than ${world.clock.iso((next.startedAtMs ?? 0) + script.durationMs)}`,
    ],
  };
}

/** POST /v1/re-verifications/{id}/liveness/upload-url: frame URLs and keys of equal length, timeline, clip both-or-neither. */
export function createLivenessUploadUrl(
  world: World,
  uploads: UploadStore,
  organizationId: string,
  id: string,
  body: UploadUrlBody,
  baseUrl: string,
): Explained<UploadUrlResponse> {
  const stored = requireOpen(world, organizationId, id, 'upload-url');
  const owner = `re-verification:${stored.id}:${stored.attempts}`;
  const presign = (contentType: string, slot: string) =>
    uploads.presign(world, organizationId, { contentType, byteLength: MAX_UPLOAD_BYTES, owner, slot }, baseUrl);
  const frames = Array.from({ length: body.frame_count }, (_, index) => presign('image/jpeg', `frame_${index}`));
  const timeline = presign('application/json', 'timeline');
  const clip = body.clip_mime_type === undefined ? undefined : presign(body.clip_mime_type, 'clip');
  reVerifications(world).put({
    ...stored,
    uploads: { frameKeys: frames.map((frame) => frame.fileKey), timelineKey: timeline.fileKey, ...(clip ? { clipKey: clip.fileKey } : {}) },
  });
  return {
    value: {
      frame_upload_urls: frames.map((frame) => frame.uploadUrl),
      frame_keys: frames.map((frame) => frame.fileKey),
      timeline_upload_url: timeline.uploadUrl,
      timeline_key: timeline.fileKey,
      ...(clip ? { clip_upload_url: clip.uploadUrl, clip_key: clip.fileKey } : {}),
    },
    explanations: [
      `${body.frame_count} frame URLs (image/jpeg), timeline (application/json)${clip ? `, clip (${body.clip_mime_type})` : ''}; valid 15 minutes`,
    ],
  };
}

interface LivenessResult {
  status: 'SUCCEEDED' | 'FAILED';
  confidence: number | null;
  /** A capture problem (ask for the liveness again) rather than a failed check. */
  captureProblem: boolean;
  reason: string;
}

/** POST /v1/re-verifications/{id}/liveness/complete: the decision of the attempt; charges one token. */
export async function completeLiveness(
  world: World,
  uploads: UploadStore,
  organization: OrganizationFixture,
  id: string,
  funds: FundsPolicy,
): Promise<Explained<CompleteLivenessResponse>> {
  const stored = requireOpen(world, organization.id, id, 'complete');
  if (stored.decision !== undefined) {
    return { value: stored.decision, explanations: [`re-verification ${id} is ${stored.state}: its decision replayed (nothing charged)`] };
  }
  requireBalance(world, organization);
  const issued = stored.uploads;
  if (!issued) throw codedError(RE_VERIFICATIONS_ERROR_CODES, 'liveness_upload_incomplete', { id, missing: undefined });

  // Every issued upload must have arrived.
  const slots = [
    ...issued.frameKeys.map((key, index) => ({ slot: `frame_${index}`, key })),
    { slot: 'timeline', key: issued.timelineKey },
    ...(issued.clipKey ? [{ slot: 'clip', key: issued.clipKey }] : []),
  ];
  const arrived = new Map<string, Buffer>();
  const missing: string[] = [];
  for (const { slot, key } of slots) {
    try {
      arrived.set(key, (await uploads.read(world, organization.id, key)).bytes);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      missing.push(slot);
    }
  }
  if (missing.length > 0) throw codedError(RE_VERIFICATIONS_ERROR_CODES, 'liveness_upload_incomplete', { id, missing });

  const result = await judgeLiveness(world, stored, issued, arrived);
  const verified = result.status === 'SUCCEEDED';
  // A capture problem asks for the liveness again without spending an attempt.
  const failedAttempts = verified || result.captureProblem ? stored.failedAttempts : stored.failedAttempts + 1;
  const decision: Decision = verified ? 'verified' : result.captureProblem ? 'retry_liveness' : failedAttempts >= stored.maxAttempts ? 'failed' : 'retry';
  const state: ReVerificationState = decision === 'verified' ? 'COMPLETED' : decision === 'failed' ? 'FAILED' : 'PENDING';
  const body: CompleteLivenessResponse = {
    decision,
    failed_attempts: failedAttempts,
    max_attempts: stored.maxAttempts,
    liveness: { status: result.status, confidence: result.confidence },
    ...(verified && stored.deviceFingerprint !== undefined ? { user_id: uuidFrom('re-verification-user', organization.id, stored.deviceFingerprint) } : {}),
  };
  const { uploads: _used, ...rest } = stored;
  reVerifications(world).put({ ...rest, state, failedAttempts, ...(state === 'PENDING' ? {} : { decision: body }) });
  const remaining = charge(world, organization, funds);
  return {
    value: body,
    explanations: [
      `liveness ${result.status}: ${result.reason}; decision ${decision} (${failedAttempts}/${stored.maxAttempts} failed attempts); 1 token charged, balance ${remaining}`,
    ],
  };
}

async function judgeLiveness(world: World, stored: StoredReVerification, issued: StoredUploads, arrived: Map<string, Buffer>): Promise<LivenessResult> {
  if (stored.deviceFingerprint === RE_VERIFICATION_MAGIC_FINGERPRINTS[0].input) {
    return { status: 'FAILED', confidence: 12.5, captureProblem: false, reason: `magic value: device_fingerprint ${stored.deviceFingerprint}` };
  }
  const endsAt = (stored.startedAtMs ?? 0) + (stored.scriptDurationMs ?? 0);
  if (world.clock.now() < endsAt) {
    return {
      status: 'FAILED',
      confidence: null,
      captureProblem: true,
      reason: `completed before the ${stored.scriptDurationMs} ms script could finish (${world.clock.iso(endsAt)})`,
    };
  }
  try {
    JSON.parse((arrived.get(issued.timelineKey) ?? Buffer.alloc(0)).toString('utf8'));
  } catch {
    return { status: 'FAILED', confidence: null, captureProblem: true, reason: 'the timeline upload is not JSON' };
  }
  let frames;
  try {
    const loaded = await loadImages(Object.fromEntries(issued.frameKeys.map((key, index) => [`frame_${index}`, arrived.get(key) ?? Buffer.alloc(0)])), {
      readStorageKey: () => null,
    });
    frames = Object.values(loaded).map((entry) => entry.analysis);
  } catch (error) {
    const problem = imageApiError(error);
    return {
      status: 'FAILED',
      confidence: null,
      captureProblem: true,
      reason: `a frame could not be read (${problem instanceof Error ? problem.message : 'undecodable'})`,
    };
  }
  const findings = examineFrames(frames);
  if (findings.framesWithFace < findings.frames) {
    return {
      status: 'FAILED',
      confidence: findings.framesWithFace === 0 ? null : round(100 * findings.meanFaceConfidence * (findings.framesWithFace / findings.frames), 1),
      captureProblem: true,
      reason: `${findings.frames - findings.framesWithFace} of ${findings.frames} frames show no face`,
    };
  }
  const confidence = round((100 * findings.meanFaceConfidence + findings.lowestSimilarity) / 2, 1);
  if (findings.distinctPictures < 2)
    return {
      status: 'FAILED',
      confidence: round(Math.min(confidence, 20), 1),
      captureProblem: false,
      reason: 'every frame is the same picture (a replayed still)',
    };
  if (findings.lowestSimilarity < SAME_FACE_SIMILARITY)
    return {
      status: 'FAILED',
      confidence,
      captureProblem: false,
      reason: `the face changes between frames (similarity ${findings.lowestSimilarity} < ${SAME_FACE_SIMILARITY})`,
    };
  if (confidence < stored.confidenceThreshold)
    return { status: 'FAILED', confidence, captureProblem: false, reason: `confidence ${confidence} < threshold ${stored.confidenceThreshold}` };
  return {
    status: 'SUCCEEDED',
    confidence,
    captureProblem: false,
    reason: `${findings.frames} frames of one face, confidence ${confidence} >= threshold ${stored.confidenceThreshold}`,
  };
}
