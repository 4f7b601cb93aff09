/**
 * Deepfake detection (real client: deepfake.getChallenge, createUploadUrls, analyze; not in the API spec).
 *
 * The flow: GET the challenge of a session (three words the applicant says on the speak-prompt frame),
 * ask for upload URLs (six frames, optionally an audio clip, through the shared upload store), PUT them,
 * then POST analyze with the frames' storage keys and what the capture SDK measured on each frame.
 *
 * The analysis is derived from the uploaded pixels (the image engine of src/images: face presence and
 * perceptual signatures) and from the frame metadata, never from a coin:
 *   vision       every frame shows a face (pixels) and the metadata agrees
 *   consistency  every frame shows the same face as frame_0 (similarity >= FACE_MATCH_THRESHOLD)
 *   motion       the frames are not one still picture replayed (at least 2 different pictures)
 *   metadata     each frame's head pose and eyes fit its action (blink: eyes closed, turn-left: yaw <= -15 ...)
 *                and the timestamps rise within scanDurationMs
 *   challenge    the challengeWord sent is the session's (skipped, and listed as degraded, when not sent)
 *   audio        an audio clip was uploaded (skipped, and listed as degraded, when not sent)
 * DEEPFAKE_MAGIC_WORDS force a verdict whatever the frames show.
 *
 * LIMITATIONS:
 * - "Same face" is photo similarity (src/images), not identity; "live" is the absence of the checks' red
 *   flags, not a model of skin texture or screen moire.
 * - The audio and video clips are checked for presence, not decoded.
 * - Frames are presigned as image/jpeg and the audio clip as audioContentType (audio/mp4, the client's
 *   documented type, unless audio/webm is asked for): PUT them with those types.
 */
import type { Explained } from '../platform/explained.ts';
import { examineFrames } from '../images/frame-sequence.ts';
import { loadImages, type LoadedImage } from '../images/image-loading.ts';
import { imageApiError } from '../images/image-request.ts';
import type { OrganizationFixture } from '../platform/auth/organizations.ts';
import { charge, requireFunds, type FundsPolicy } from '../platform/billing/billing.ts';
import { FACE_MATCH_THRESHOLD } from '../face/api.ts';
import { ApiError } from '../platform/errors/api-error.ts';
import { codedError } from '../platform/errors/error-codes.ts';
import type { World } from '../platform/namespaces/world.ts';
import { rngFrom } from '../platform/random/random.ts';
import { MAX_UPLOAD_BYTES, type UploadStore } from '../platform/uploads/uploads.ts';
import {
  AUDIO_SLOT,
  FRAME_SLOTS,
  AUDIO_CONTENT_TYPES,
  type AnalyzeBody,
  type AnalyzeResponse,
  type ChallengeResponse,
  type DeepfakeVerdict,
  type FrameMeta,
  type FrameSlot,
  type Layer,
  type TrustVerdict,
  type UploadUrlsBody,
  type UploadUrlsResponse,
} from './deepfake.schemas.ts';
import { round } from '../platform/numbers.ts';
import { valueFact } from '../platform/coverage/sources.ts';
import { DEEPFAKE_VERDICT_COVERAGE, TRUST_VERDICT_COVERAGE } from './deepfake-coverage.ts';
import { DEEPFAKE_ERROR_CODES } from './deepfake.errors.ts';
import { deepfakeSessions } from './session-port.ts';

export const FRAME_CONTENT_TYPE = 'image/jpeg';
/** Uploads of a deepfake scan belong to `deepfake:<sessionId>` in the upload store. */
export const deepfakeUploadOwner = (sessionId: string) => `deepfake:${sessionId}`;
const OWNER_PREFIX = 'deepfake:';

/** Head-pose and eye rules of the frame actions (degrees, openness 0-1). */
export const ACTION_RULES = {
  turnDegrees: 15,
  stillDegrees: 15,
  closedEyes: 0.3,
  openEyes: 0.5,
} as const;

/** Shortest scan the checks can judge. */
export const MIN_SCAN_MS = 1_000;

const CHALLENGE_WORDS = [
  'amber',
  'blue',
  'cedar',
  'delta',
  'ember',
  'falcon',
  'granite',
  'harbor',
  'island',
  'jasper',
  'kettle',
  'lantern',
  'meadow',
  'north',
  'orchid',
  'pepper',
  'quartz',
  'river',
  'stone',
  'timber',
  'umber',
  'velvet',
  'willow',
  'yellow',
] as const;

interface MagicOutcome {
  input: string;
  verdict: DeepfakeVerdict;
  outcome: string;
  description: string;
  confidence: number;
  riskScore: number;
  trustScore: number;
  trustVerdict: TrustVerdict;
}

/** challengeWord values that force a verdict (catalog: magic values of POST /v1/deepfake/analyze). */
export const DEEPFAKE_MAGIC_WORDS: readonly MagicOutcome[] = [
  {
    input: 'sandbox live',
    verdict: 'LIVE',
    outcome: 'verdict LIVE, trustVerdict PASS, passed true (confidence 92, riskScore 8, trustScore 94)',
    description: 'Forces a live person whatever the frames show (they must still be uploaded).',
    confidence: 92,
    riskScore: 8,
    trustScore: 94,
    trustVerdict: 'PASS',
  },
  {
    input: 'sandbox deepfake',
    verdict: 'DEEPFAKE',
    outcome: 'verdict DEEPFAKE, trustVerdict REJECT, passed false (confidence 96, riskScore 97, trustScore 6)',
    description: 'Forces a synthetic face; failureReasons ["SANDBOX_FORCED_DEEPFAKE"].',
    confidence: 96,
    riskScore: 97,
    trustScore: 6,
    trustVerdict: 'REJECT',
  },
  {
    input: 'sandbox inconclusive',
    verdict: 'INCONCLUSIVE',
    outcome: 'verdict INCONCLUSIVE, trustVerdict REVIEW, passed false (confidence 48, riskScore 52, trustScore 50)',
    description: 'Forces an undecided scan; failureReasons ["SANDBOX_FORCED_INCONCLUSIVE"].',
    confidence: 48,
    riskScore: 52,
    trustScore: 50,
    trustVerdict: 'REVIEW',
  },
];

/** What the analysis derives from the pixels (no magic word), as catalog rows. */
export const DEEPFAKE_DERIVED_OUTCOMES = [
  {
    input: 'six frames of the same person, at least two different pictures, metadata fitting each action',
    outcome: 'LIVE, trustVerdict PASS',
    description: 'e.g. fixtures/images face.jpg, face-cropped.jpg, face.webp, face.gif, face.jpg, face-cropped.jpg with plausible frameMeta',
  },
  {
    input: 'the same picture in all six frames',
    outcome: 'DEEPFAKE (STATIC_REPLAY)',
    description: 'a still photo or an injected image replayed to the camera',
  },
  {
    input: "a frame whose face is not frame_0's (similarity < 80)",
    outcome: 'DEEPFAKE (IDENTITY_SWITCH)',
    description: 'e.g. different-face.jpg among face.jpg frames',
  },
  {
    input: 'three or more frames whose metadata contradicts the action',
    outcome: 'DEEPFAKE (ACTION_MISMATCH)',
    description: 'blink with open eyes, turn-left with yaw > -15, ...',
  },
  { input: "challengeWord other than the session's", outcome: 'DEEPFAKE (CHALLENGE_MISMATCH)', description: 'the applicant did not say the issued words' },
  {
    input: 'one or two frames without a face (blank.png), one or two metadata mismatches, or scanDurationMs < 1000',
    outcome: 'INCONCLUSIVE, trustVerdict REVIEW',
    description: 'NO_FACE_IN_FRAMES, ACTION_MISMATCH or SCAN_TOO_SHORT',
  },
  { input: 'three or more frames without a face', outcome: 'INCONCLUSIVE (NO_FACE_IN_FRAMES)', description: 'nothing to judge' },
] as const;

// ---------------------------------------------------------------- challenge

/** The session's challenge words: fixed by the seed, the organization and the session id. */
export function challengeWordFor(seed: number, organizationId: string, sessionId: string): string {
  return rngFrom('deepfake-challenge', seed, organizationId, sessionId).sample(CHALLENGE_WORDS, 3).join(' ');
}

/**
 * GET /v1/deepfake/challenge/{sessionId}. Any UUID gets a challenge (the scan may precede the session
 * record); a session of another organization is 403.
 */
export function readChallenge(world: World, organizationId: string, sessionId: string): Explained<ChallengeResponse> {
  const owner = deepfakeSessions.get().organizationOf(world, sessionId);
  if (owner !== undefined && owner !== organizationId) {
    throw codedError(DEEPFAKE_ERROR_CODES, 'DEEPFAKE_SESSION_OF_ANOTHER_ORGANIZATION', { sessionId });
  }
  const challengeWord = challengeWordFor(world.seed, organizationId, sessionId);
  return {
    value: { sessionId, challengeWord },
    explanations: [
      `challenge words of session ${sessionId} (fixed by the seed and the session id)${owner === undefined ? '; no session record with this id yet' : ''}`,
    ],
  };
}

// ---------------------------------------------------------------- upload URLs

/** POST /v1/deepfake/upload-urls: six frame URLs (+ the audio clip), owned by the session's scan. */
export function createDeepfakeUploadUrls(
  world: World,
  uploads: UploadStore,
  organizationId: string,
  body: UploadUrlsBody,
  baseUrl: string,
): Explained<UploadUrlsResponse> {
  const owner = deepfakeUploadOwner(body.sessionId);
  const audioType = body.audioContentType ?? AUDIO_CONTENT_TYPES[0];
  const slots: { slot: string; contentType: string }[] = [
    ...FRAME_SLOTS.map((slot) => ({ slot, contentType: FRAME_CONTENT_TYPE })),
    ...(body.includeAudio ? [{ slot: AUDIO_SLOT, contentType: audioType }] : []),
  ];
  const uploadUrls: Record<string, string> = {};
  const uploadKeys: Record<string, string> = {};
  for (const { slot, contentType } of slots) {
    const presigned = uploads.presign(world, organizationId, { contentType, byteLength: MAX_UPLOAD_BYTES, owner, slot }, baseUrl);
    uploadUrls[slot] = presigned.uploadUrl;
    uploadKeys[slot] = presigned.fileKey;
  }
  return {
    value: { uploadUrls, uploadKeys, sessionId: body.sessionId },
    explanations: [
      `${slots.length} upload URLs for session ${body.sessionId}: frames as ${FRAME_CONTENT_TYPE}${body.includeAudio ? `, audio_clip as ${audioType}` : ''}; valid 15 minutes`,
    ],
  };
}

// ---------------------------------------------------------------- analysis (pure)

export interface ScanEvidence {
  frames: Record<FrameSlot, LoadedImage>;
  meta: readonly FrameMeta[];
  scanDurationMs: number;
  challengeWord?: string;
  /** The session's challenge, when the frames were uploaded through the session's upload URLs. */
  expectedChallenge?: string;
  audioUploaded: boolean;
  videoUploaded: boolean;
}

export interface ScanJudgement {
  verdict: DeepfakeVerdict;
  confidence: number;
  riskScore: number;
  trustVerdict: TrustVerdict;
  trustScore: number;
  failureReasons: string[];
  layers: Record<string, Layer>;
  avgLayerConfidence: number;
  trustBreakdown: Record<string, number>;
  degradedModules: string[];
  explanation: string;
}

const clamp = (value: number, low: number, high: number) => Math.min(high, Math.max(low, value));

/** Does the frame's measured pose fit its action? Returns the mismatch, or undefined. */
export function actionMismatch(meta: FrameMeta): string | undefined {
  const eyes = Math.min(meta.leftEyeOpenness, meta.rightEyeOpenness);
  switch (meta.action) {
    case 'blink':
      return eyes < ACTION_RULES.closedEyes ? undefined : `blink with eyes open (${eyes})`;
    case 'turn-left':
      return meta.yaw <= -ACTION_RULES.turnDegrees ? undefined : `turn-left with yaw ${meta.yaw}`;
    case 'turn-right':
      return meta.yaw >= ACTION_RULES.turnDegrees ? undefined : `turn-right with yaw ${meta.yaw}`;
    case 'hold-still':
      return Math.abs(meta.yaw) < ACTION_RULES.stillDegrees && Math.abs(meta.pitch) < ACTION_RULES.stillDegrees && eyes >= ACTION_RULES.openEyes
        ? undefined
        : `hold-still with yaw ${meta.yaw}, pitch ${meta.pitch}, eyes ${eyes}`;
    case 'speak-prompt':
      return undefined;
  }
}

function layer(passed: boolean, confidence: number, detail: string): Layer {
  return { passed, confidence: round(clamp(confidence, 0, 100), 1), detail };
}

/** The verdict and scores of a scan, from its pixels and metadata (pure, deterministic). */
export function judgeScan(evidence: ScanEvidence): ScanJudgement {
  const analyses = FRAME_SLOTS.map((slot) => evidence.frames[slot].analysis);
  const failureReasons: string[] = [];
  const degradedModules: string[] = [];

  const findings = examineFrames(analyses);

  // vision: a face in the pixels of every frame, and the metadata agreeing
  const missingFaces = findings.frames - findings.framesWithFace;
  const metaDisagrees = evidence.meta.filter((meta, index) => meta.faceDetected !== (analyses[index]?.face !== null)).length;
  const vision = layer(
    missingFaces === 0 && metaDisagrees === 0,
    100 * findings.meanFaceConfidence * (findings.framesWithFace / findings.frames),
    `${findings.framesWithFace}/6 frames show a face; metadata disagrees on ${metaDisagrees}`,
  );
  if (missingFaces > 0) failureReasons.push('NO_FACE_IN_FRAMES');

  // consistency: the same face as frame_0 in every other frame
  const lowest = findings.lowestSimilarity;
  const identitySwitch = findings.similaritiesToFirst.some((similarity) => similarity < FACE_MATCH_THRESHOLD);
  const consistency = layer(
    findings.similaritiesToFirst.length > 0 && !identitySwitch,
    lowest,
    `lowest similarity to frame_0 ${lowest.toFixed(2)} (threshold ${FACE_MATCH_THRESHOLD})`,
  );
  if (identitySwitch) failureReasons.push('IDENTITY_SWITCH');

  // motion: more than one picture
  const distinctPictures = findings.distinctPictures;
  const replay = distinctPictures < 2;
  const motion = layer(!replay, replay ? 3 : 60 + 8 * distinctPictures, `${distinctPictures} different pictures in 6 frames`);
  if (replay) failureReasons.push('STATIC_REPLAY');

  // metadata: actions fit the pose, timestamps rise within the scan
  const mismatches = evidence.meta.map(actionMismatch).filter((mismatch): mismatch is string => mismatch !== undefined);
  const timestamps = evidence.meta.map((meta) => meta.timestamp);
  const timelineBroken = timestamps.some((at, index) => at < 0 || at > evidence.scanDurationMs || (index > 0 && at < (timestamps[index - 1] ?? 0)));
  const badFrames = mismatches.length + (timelineBroken ? 1 : 0);
  const metadata = layer(
    badFrames === 0,
    100 * (1 - badFrames / 6),
    mismatches.length === 0 && !timelineBroken
      ? 'every action fits the pose'
      : [...mismatches, ...(timelineBroken ? ['timestamps out of order or outside the scan'] : [])].join('; '),
  );
  if (badFrames > 0) failureReasons.push('ACTION_MISMATCH');
  const tooShort = evidence.scanDurationMs < MIN_SCAN_MS;
  if (tooShort) failureReasons.push('SCAN_TOO_SHORT');

  const layers: Record<string, Layer> = { vision, consistency, motion, metadata };

  // challenge words
  let challengeMismatch = false;
  if (evidence.challengeWord === undefined) degradedModules.push('challenge');
  else if (evidence.expectedChallenge === undefined) {
    layers.challenge = layer(true, 50, 'frames not uploaded through a session: the words cannot be checked');
  } else {
    challengeMismatch = normalizeWords(evidence.challengeWord) !== normalizeWords(evidence.expectedChallenge);
    layers.challenge = layer(
      !challengeMismatch,
      challengeMismatch ? 5 : 98,
      challengeMismatch ? 'the words said are not the session challenge' : 'the session challenge was said',
    );
    if (challengeMismatch) failureReasons.push('CHALLENGE_MISMATCH');
  }
  if (evidence.audioUploaded) layers.audio = layer(true, 90, 'audio clip received');
  else degradedModules.push('audio');
  if (evidence.videoUploaded) layers.video = layer(true, 85, 'video clip received');

  const values = Object.values(layers);
  const avgLayerConfidence = round(values.reduce((sum, entry) => sum + entry.confidence, 0) / values.length, 1);

  let verdict: DeepfakeVerdict;
  if (missingFaces >= 3) verdict = 'INCONCLUSIVE';
  else if (replay || identitySwitch || challengeMismatch || badFrames >= 3) verdict = 'DEEPFAKE';
  else if (missingFaces > 0 || badFrames > 0 || tooShort || metaDisagrees > 0) verdict = 'INCONCLUSIVE';
  else verdict = 'LIVE';

  const trustBreakdown: Record<string, number> = {
    liveness: round((vision.confidence + motion.confidence) / 2, 1),
    consistency: consistency.confidence,
    metadata: metadata.confidence,
    ...(layers.challenge ? { challenge: layers.challenge.confidence } : {}),
    ...(layers.audio ? { audio: layers.audio.confidence } : {}),
  };
  const breakdownValues = Object.values(trustBreakdown);
  const rawTrust = breakdownValues.reduce((sum, value) => sum + value, 0) / breakdownValues.length;
  const scores = scoresFor(verdict, avgLayerConfidence, rawTrust, Math.min(...values.map((entry) => entry.confidence)));
  return {
    verdict,
    ...scores,
    failureReasons,
    layers,
    avgLayerConfidence,
    trustBreakdown,
    degradedModules,
    explanation: `deepfake ${verdict}: ${failureReasons.length === 0 ? 'no red flag' : failureReasons.join(', ')} (${Object.entries(layers)
      .map(([name, entry]) => `${name} ${entry.passed ? 'ok' : 'failed'}`)
      .join(', ')})`,
  };
}

/** Scores that agree with the verdict: LIVE is low risk, DEEPFAKE high, INCONCLUSIVE in between. */
function scoresFor(verdict: DeepfakeVerdict, average: number, rawTrust: number, weakest: number) {
  if (verdict === 'LIVE') {
    const trustScore = round(clamp(rawTrust, 70, 100), 1);
    return { confidence: average, riskScore: round(clamp(100 - average, 0, 34), 1), trustScore, trustVerdict: 'PASS' as const };
  }
  if (verdict === 'DEEPFAKE') {
    return {
      confidence: round(clamp(100 - weakest, 60, 99), 1),
      riskScore: round(clamp(100 - weakest, 70, 100), 1),
      trustScore: round(clamp(rawTrust, 0, 39), 1),
      trustVerdict: 'REJECT' as const,
    };
  }
  return {
    confidence: round(clamp(average, 30, 69), 1),
    riskScore: round(clamp(100 - average, 35, 69), 1),
    trustScore: round(clamp(rawTrust, 40, 69), 1),
    trustVerdict: 'REVIEW' as const,
  };
}

function normalizeWords(text: string): string {
  return text.trim().toLowerCase().split(/\s+/).join(' ');
}

export function findMagicWord(challengeWord: string | undefined): MagicOutcome | undefined {
  if (challengeWord === undefined) return undefined;
  const words = normalizeWords(challengeWord);
  return DEEPFAKE_MAGIC_WORDS.find((magic) => magic.input === words);
}

/** A magic word overrides the derived verdict and scores; the layers still say what the frames showed. */
export function applyMagicWord(judgement: ScanJudgement, magic: MagicOutcome): ScanJudgement {
  return {
    ...judgement,
    verdict: magic.verdict,
    confidence: magic.confidence,
    riskScore: magic.riskScore,
    trustScore: magic.trustScore,
    trustVerdict: magic.trustVerdict,
    failureReasons: magic.verdict === 'LIVE' ? [] : [`SANDBOX_FORCED_${magic.verdict}`],
    explanation: `magic value: challengeWord "${magic.input}" -> ${magic.verdict}`,
  };
}

/** The analyze body the real client reads. */
export function toAnalyzeJson(judgement: ScanJudgement, verificationId: string, nowIso: string, challengeWord: string | undefined): AnalyzeResponse {
  return {
    success: true,
    passed: judgement.verdict === 'LIVE' && judgement.trustVerdict === 'PASS',
    confidence: judgement.confidence,
    verdict: judgement.verdict,
    riskScore: judgement.riskScore,
    trustVerdict: judgement.trustVerdict,
    trustScore: judgement.trustScore,
    failureReasons: judgement.failureReasons,
    verificationId,
    timestamp: nowIso,
    ...(challengeWord === undefined ? {} : { challengeWord }),
    details: {
      layers: judgement.layers,
      avgLayerConfidence: judgement.avgLayerConfidence,
      trustBreakdown: judgement.trustBreakdown,
      degradedModules: judgement.degradedModules,
    },
  };
}

/** The scan's session, from the owner of its frames' uploads (undefined for generic presign uploads). */
export function scanSessionOf(owner: string | undefined): string | undefined {
  return owner?.startsWith(OWNER_PREFIX) ? owner.slice(OWNER_PREFIX.length) : undefined;
}

// ---------------------------------------------------------------- the analyze verb

/**
 * POST /v1/deepfake/analyze: 402 before any decoding when the balance is empty; reads the six frames (and
 * the clips) from the upload store (403 for keys of another organization or without bytes), decodes them
 * with the image engine, judges, charges one token.
 */
export async function analyzeScan(
  world: World,
  uploads: UploadStore,
  organization: OrganizationFixture,
  body: AnalyzeBody,
  funds: FundsPolicy,
): Promise<Explained<AnalyzeResponse>> {
  requireFunds(world, organization, funds);
  const owners = new Map<string, string>();
  const readStorageKey = async (key: string) => {
    try {
      const { record, bytes } = await uploads.read(world, organization.id, key);
      owners.set(key, record.owner);
      return bytes;
    } catch (error) {
      if (error instanceof ApiError && error.status === 403) return { refused: error.message };
      throw error;
    }
  };
  let frames: Record<FrameSlot, LoadedImage>;
  try {
    frames = await loadImages(Object.fromEntries(FRAME_SLOTS.map((slot) => [slot, body.s3Keys[slot]])) as Record<FrameSlot, string>, { readStorageKey });
  } catch (error) {
    throw imageApiError(error);
  }
  const clipUploaded = async (field: string, key: string | undefined) => {
    if (key === undefined) return false;
    try {
      await uploads.read(world, organization.id, key);
      return true;
    } catch (error) {
      if (error instanceof ApiError) throw error.aboutField(`s3Keys.${field}`, { hints: [] });
      throw error;
    }
  };
  const audioUploaded = await clipUploaded(AUDIO_SLOT, body.s3Keys.audio_clip);
  const videoUploaded = await clipUploaded('video_clip', body.s3Keys.video_clip);

  const sessionId = scanSessionOf(owners.get(body.s3Keys.frame_0));
  const derived = judgeScan({
    frames,
    meta: body.frameMeta,
    scanDurationMs: body.scanDurationMs,
    ...(body.challengeWord === undefined ? {} : { challengeWord: body.challengeWord }),
    ...(sessionId === undefined ? {} : { expectedChallenge: challengeWordFor(world.seed, organization.id, sessionId) }),
    audioUploaded,
    videoUploaded,
  });
  const magic = findMagicWord(body.challengeWord);
  const judgement = magic ? applyMagicWord(derived, magic) : derived;
  const remaining = charge(world, organization, funds);
  const answer = toAnalyzeJson(judgement, world.uuid(), world.clock.iso(), body.challengeWord);
  return {
    value: answer,
    explanations: [
      ...FRAME_SLOTS.map((slot) => `${slot}: ${frames[slot].analysis.summary}`).slice(0, 2),
      judgement.explanation,
      magic ? `frames showed: ${derived.explanation}` : `session ${sessionId ?? '(none: generic uploads)'}`,
      `billing: charged 1 token (balance ${remaining})`,
    ],
    facts: [valueFact(DEEPFAKE_VERDICT_COVERAGE, answer.verdict), valueFact(TRUST_VERDICT_COVERAGE, answer.trustVerdict)],
  };
}
