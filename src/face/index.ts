/**
 * POST /v1/face/detect, /v1/face/compare, /v1/face/estimate-age (answers from the pixels) and the face
 * liveness sessions of the real client (POST /v1/face/liveness/sessions, GET .../{lid}/result).
 */
import type { SandboxModule } from '../platform/sandbox-module.ts';
import { IMAGE_OPERATIONS } from '../images/image-catalog.ts';
import { LIVENESS_CATALOG } from './face-liveness.service.ts';
import { faceRouter } from './face.router.ts';

export const faceModule: SandboxModule = {
  name: 'face',
  router: () => faceRouter,
  capabilities: [IMAGE_OPERATIONS, { catalog: { magicValues: LIVENESS_CATALOG } }, { decodesImages: ['detectFace', 'compareFaces', 'estimateAge'] }],
};
