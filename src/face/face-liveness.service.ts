/**
 * Face liveness sessions of the real client: POST /v1/face/liveness/sessions hands out a session id and
 * temporary-credential-shaped secrets for a capture SDK, GET .../{lid}/result says whether the person
 * in front of the camera was live.
 *
 * The sandbox has no camera step: a session "captures" by itself on the virtual clock. The result is
 * IN_PROGRESS for LIVENESS_TIMINGS.processingMs after creation, then SUCCEEDED with a confidence drawn
 * from the liveness session id (80-99.5, stable per session); passed iff confidence >= the caller's
 * confidence_threshold (default 70). The session_id given at creation can force the other outcomes
 * (LIVENESS_MAGIC_VALUES). Sessions are stored per namespace and organization (403 for another one,
 * 404 unknown). Sandbox keys (read-only) get a synthetic result for any id.
 *
 * LIMITATIONS:
 * - The credentials are synthetic strings in the shape of AWS temporary credentials; nothing accepts them.
 * - No frames are uploaded or looked at: confidence does not come from pixels.
 * - Creating a session is not billed (the spec prices nothing here).
 */
import type { CatalogEntry } from '../platform/catalog/catalog.ts';
import { codedError } from '../platform/errors/error-codes.ts';
import type { World } from '../platform/namespaces/world.ts';
import { hashParts, rngFrom } from '../platform/random/random.ts';
import type { CreateLivenessSessionRequest, LivenessChallengeType, LivenessResult, LivenessScript, LivenessSession } from './face-liveness.schemas.ts';
import { round } from '../platform/numbers.ts';
import type { Explained } from '../platform/explained.ts';
import { FACE_ERROR_CODES } from './face.errors.ts';

export const LIVENESS_ENDPOINTS = {
  create: 'POST /v1/face/liveness/sessions',
  result: 'GET /v1/face/liveness/sessions/{lid}/result',
} as const;

export const LIVENESS_TIMINGS = {
  /** Result IN_PROGRESS this long after creation (virtual clock). */
  processingMs: 5_000,
  /** Session and credential lifetime. */
  ttlMs: 15 * 60_000,
} as const;

export const LIVENESS_REGION = 'us-east-1';

export const LIVENESS_HINTS = {
  body: 'Send {} or {"session_id": "<your session id>", "challenge_type": "FaceMovementChallenge" or "FaceMovementAndLightChallenge"}.',
  query: 'confidence_threshold is an integer from 1 to 100 (default 70); session_id, when given, is the one the liveness session was created with.',
} as const;
export const DEFAULT_LIVENESS_THRESHOLD = 70;
/** Confidence range of an ordinary (non-magic) session. */
export const LIVENESS_CONFIDENCE_RANGE = { min: 80, max: 99.5 } as const;

export type LivenessMagicEffect = { kind: 'failed' } | { kind: 'spoof'; confidence: number } | { kind: 'pending' };

export interface LivenessMagicValue {
  endpoint: string;
  input: string;
  outcome: string;
  description: string;
  sessionId: string;
  effect: LivenessMagicEffect;
}

const magic = (sessionId: string, effect: LivenessMagicEffect, outcome: string, description: string): LivenessMagicValue => ({
  endpoint: `${LIVENESS_ENDPOINTS.create} + ${LIVENESS_ENDPOINTS.result}`,
  input: `session_id ${sessionId}`,
  outcome,
  description,
  sessionId,
  effect,
});

/** session_id values (at creation, or the session_id query with a sandbox key) that force a result. */
export const LIVENESS_MAGIC_VALUES: readonly LivenessMagicValue[] = [
  magic('test_liveness_failed', { kind: 'failed' }, 'FAILED, passed false, no confidence (after 5 s)', 'the capture failed (face not visible, user gave up)'),
  magic(
    'test_liveness_spoof',
    { kind: 'spoof', confidence: 12.5 },
    'SUCCEEDED, confidence 12.5, passed false at any threshold above 12',
    'a presentation attack: the check ran and found no live person',
  ),
  magic('test_liveness_pending', { kind: 'pending' }, 'IN_PROGRESS until the session expires (15 min), then FAILED', 'the user never finishes the capture'),
];

/** The catalog rows: the magic values and the ordinary rule. */
export const LIVENESS_CATALOG: readonly CatalogEntry[] = [
  ...LIVENESS_MAGIC_VALUES.map(({ endpoint, input, outcome, description, sessionId }) => ({
    endpoint,
    input,
    outcome,
    description,
    trigger: { operation: LIVENESS_ENDPOINTS.create, body: { session_id: sessionId } },
  })),
  {
    endpoint: `${LIVENESS_ENDPOINTS.create} + ${LIVENESS_ENDPOINTS.result}`,
    input: 'any other session_id, or none',
    outcome: `IN_PROGRESS for 5 s, then SUCCEEDED with a confidence of ${LIVENESS_CONFIDENCE_RANGE.min}-${LIVENESS_CONFIDENCE_RANGE.max} fixed by the liveness session id; passed iff confidence >= confidence_threshold (default ${DEFAULT_LIVENESS_THRESHOLD})`,
    description: 'use confidence_threshold=100 to see passed false on an ordinary session; a sandbox key gets a synthetic result for any id',
  },
];

function magicFor(sessionId: string | undefined): LivenessMagicValue | undefined {
  return sessionId === undefined ? undefined : LIVENESS_MAGIC_VALUES.find((entry) => entry.sessionId === sessionId);
}

export interface LivenessSessionRecord {
  id: string;
  organizationId: string;
  sessionId?: string;
  challengeType: LivenessChallengeType;
  createdAtMs: number;
  expiresAtMs: number;
}

const sessions = (world: World) => world.data.collection<LivenessSessionRecord>('face-liveness-sessions');

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** Synthetic credentials in the shape of temporary cloud credentials, fixed by the session id. */
function credentialsFor(id: string): { access_key_id: string; secret_access_key: string; session_token: string } {
  const keyBytes = hashParts('face-liveness-access-key', id);
  const accessKey = [...keyBytes.subarray(0, 16)].map((byte) => BASE32[byte % 32]).join('');
  const secret = hashParts('face-liveness-secret', id).toString('base64').slice(0, 40);
  const token = Buffer.concat([0, 1, 2, 3].map((i) => hashParts('face-liveness-token', id, i))).toString('base64');
  return { access_key_id: `ASIA${accessKey}`, secret_access_key: secret, session_token: `IQoJb3JpZ2luX2VjE${token}` };
}

function present(world: World, record: LivenessSessionRecord): LivenessSession {
  const expiresAt = world.clock.iso(record.expiresAtMs);
  return {
    liveness_session_id: record.id,
    region: LIVENESS_REGION,
    credentials: { ...credentialsFor(record.id), expiration: expiresAt },
    expires_at: expiresAt,
  };
}

/** Creates and stores a liveness session; the explanation names a magic session_id when one was used. */
export function createLivenessSession(world: World, organizationId: string, body: CreateLivenessSessionRequest): Explained<LivenessSession> {
  const now = world.clock.now();
  const record: LivenessSessionRecord = {
    id: world.uuid(),
    organizationId,
    ...(body.session_id !== undefined ? { sessionId: body.session_id } : {}),
    challengeType: body.challenge_type ?? 'FaceMovementChallenge',
    createdAtMs: now,
    expiresAtMs: now + LIVENESS_TIMINGS.ttlMs,
  };
  sessions(world).put(record);
  const forced = magicFor(record.sessionId);
  return {
    value: present(world, record),
    explanations: [
      forced
        ? `magic value: session_id ${forced.sessionId} -> ${forced.outcome}`
        : `liveness session ${record.challengeType}: result IN_PROGRESS until ${world.clock.iso(now + LIVENESS_TIMINGS.processingMs)}, then SUCCEEDED`,
    ],
  };
}

/** The ordinary session's confidence: fixed by its id. */
export function livenessConfidence(id: string): number {
  const rng = rngFrom('face-liveness-confidence', id);
  return round(rng.float(LIVENESS_CONFIDENCE_RANGE.min, LIVENESS_CONFIDENCE_RANGE.max), 2);
}

/** The result at `nowMs`. Pure. */
export function livenessResultAt(
  session: { id: string; sessionId?: string; createdAtMs: number; expiresAtMs: number },
  nowMs: number,
  threshold: number,
): Explained<LivenessResult> {
  const forced = magicFor(session.sessionId);
  const effect = forced?.effect;
  const processing = nowMs < session.createdAtMs + LIVENESS_TIMINGS.processingMs;
  const label = forced ? `magic value: session_id ${forced.sessionId}` : 'liveness';
  if (effect?.kind === 'pending') {
    return nowMs < session.expiresAtMs
      ? { value: { status: 'IN_PROGRESS', passed: false }, explanations: [`${label} -> IN_PROGRESS until the session expires`] }
      : { value: { status: 'FAILED', passed: false }, explanations: [`${label} -> FAILED: the session expired without a capture`] };
  }
  if (processing) {
    const left = session.createdAtMs + LIVENESS_TIMINGS.processingMs - nowMs;
    return { value: { status: 'IN_PROGRESS', passed: false }, explanations: [`liveness still processing (${left} ms left on the sandbox clock)`] };
  }
  if (effect?.kind === 'failed') return { value: { status: 'FAILED', passed: false }, explanations: [`${label} -> FAILED`] };
  const confidence = effect?.kind === 'spoof' ? effect.confidence : livenessConfidence(session.id);
  const passed = confidence >= threshold;
  return {
    value: { status: 'SUCCEEDED', confidence, passed },
    explanations: [`${label}: confidence ${confidence} ${passed ? '>=' : '<'} threshold ${threshold}`],
  };
}

export interface LivenessResultQuery {
  session_id?: string;
  confidence_threshold?: number;
}

/** GET .../result for a live key: 404 unknown, 403 another organization's, 400 a session_id that is not the session's. */
export function readLivenessResult(world: World, organizationId: string, lid: string, query: LivenessResultQuery): Explained<LivenessResult> {
  const record = sessions(world).get(lid);
  if (!record) {
    throw codedError(
      FACE_ERROR_CODES,
      'LIVENESS_SESSION_NOT_FOUND',
      { lid },
      {
        hints: ['Liveness sessions live in the namespace (X-Sandbox-Namespace) they were created in.'],
      },
    );
  }
  if (record.organizationId !== organizationId) {
    throw codedError(
      FACE_ERROR_CODES,
      'LIVENESS_SESSION_OF_ANOTHER_ORGANIZATION',
      { lid },
      {
        hints: ['Use the API key of the organization that created the session.'],
      },
    );
  }
  if (query.session_id !== undefined && record.sessionId !== undefined && query.session_id !== record.sessionId) {
    throw codedError(
      FACE_ERROR_CODES,
      'LIVENESS_SESSION_ID_MISMATCH',
      { sessionId: query.session_id },
      { hints: [`Send session_id=${record.sessionId}, or leave it out.`] },
    );
  }
  return livenessResultAt(record, world.clock.now(), query.confidence_threshold ?? DEFAULT_LIVENESS_THRESHOLD);
}

/**
 * GET .../result for a sandbox (read-only) key: synthetic, for any id, as if the session had been
 * created long ago; the session_id query may name a magic value.
 */
export function syntheticLivenessResult(lid: string, query: LivenessResultQuery): Explained<LivenessResult> {
  const { value, explanations } = livenessResultAt(
    { id: lid, ...(query.session_id !== undefined ? { sessionId: query.session_id } : {}), createdAtMs: 0, expiresAtMs: Number.MAX_SAFE_INTEGER },
    Number.MAX_SAFE_INTEGER - 1,
    query.confidence_threshold ?? DEFAULT_LIVENESS_THRESHOLD,
  );
  return { value, explanations: [`sandbox key: synthetic result; ${explanations.join('; ')}`] };
}

const LIGHT_COLOURS = ['#FF0000', '#00FF00', '#0000FF', '#FFFF00', '#FF00FF', '#00FFFF', '#FFFFFF'] as const;

/**
 * The capture script of one liveness attempt: for the light challenge four colour flashes (500 ms apart)
 * then a move closer at 2 s of a 4 s script; for the movement challenge a move closer at 1 s of 3 s.
 * The colours are drawn from `seedParts` (the attempt's identity), so the same attempt gets the same script.
 */
export function livenessScript(challengeType: LivenessChallengeType, seedParts: readonly (string | number)[]): LivenessScript {
  if (challengeType === 'FaceMovementChallenge') return { challengeType, durationMs: 3000, steps: [{ kind: 'move-closer', atMs: 1000 }] };
  const colours = rngFrom(...seedParts).sample(LIGHT_COLOURS, 4);
  return {
    challengeType,
    durationMs: 4000,
    steps: [...colours.map((color, index) => ({ kind: 'color' as const, atMs: index * 500, color })), { kind: 'move-closer', atMs: 2000 }],
  };
}
