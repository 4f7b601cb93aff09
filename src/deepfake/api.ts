/**
 * What other areas use of deepfake detection: the scan's slots, upload owner, challenge and verdict (the workflow step), and the port it declares for what it needs of a session.
 * The area's public surface: another area imports this module only (test/architecture/area-boundaries.test.ts).
 */
export { AUDIO_CONTENT_TYPES, AUDIO_SLOT, DEEPFAKE_ACTIONS, FRAME_SLOTS, type FrameMeta, type FrameSlot } from './deepfake.schemas.ts';
export { challengeWordFor, deepfakeUploadOwner, FRAME_CONTENT_TYPE, judgeScan } from './deepfake.service.ts';
export type { DeepfakeSessions } from './session-port.ts';
