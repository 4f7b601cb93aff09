/**
 * POST /v1/document/scan: an identity document read from a picture (synthetic identity from the pixels,
 * ICAO MRZ with valid check digits). Shares the image layer (src/images) with face and identity.
 */
import type { SandboxModule } from '../platform/sandbox-module.ts';
import { IMAGE_OPERATIONS } from '../images/image-catalog.ts';
import { documentRouter } from './document.router.ts';

export const documentModule: SandboxModule = {
  name: 'document',
  router: () => documentRouter,
  capabilities: [IMAGE_OPERATIONS, { decodesImages: ['scanDocument'] }],
};
