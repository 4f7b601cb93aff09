/**
 * POST /v1/document/scan: an identity document read from a picture (synthetic identity from the pixels,
 * ICAO MRZ with valid check digits). Shares the image layer (src/images) with face and identity.
 */
import type { SandboxModule } from '../platform/sandbox-module.ts';
import { setupImageOperations } from '../images/image-catalog.ts';
import { documentRouter } from './document.router.ts';

export const documentModule: SandboxModule = { name: 'document', router: () => documentRouter, setup: setupImageOperations };
