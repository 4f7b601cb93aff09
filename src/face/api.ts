/**
 * What other areas use of face checks: matching, detection, age estimation and liveness (identity, deepfake, re-verifications, the workflow steps).
 * The area's public surface: another area imports this module only (test/architecture/area-boundaries.test.ts).
 */
export { LIVENESS_CHALLENGE_TYPES, type LivenessChallengeType, LivenessScriptSchema } from './face-liveness.schemas.ts';
export { createLivenessSession, DEFAULT_LIVENESS_THRESHOLD, LIVENESS_TIMINGS, livenessConfidence, livenessScript } from './face-liveness.service.ts';
export { compareFaces, detectFace, estimateAge, FACE_MATCH_THRESHOLD } from './face.service.ts';
