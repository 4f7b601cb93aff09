import type { SandboxModule } from '../platform/sandbox-module.ts';
import { uploadRouter } from './upload.router.ts';

/** POST /v1/upload/presign and the presigned PUT target /uploads/{id} (the real client's upload flow). */
export const uploadModule: SandboxModule = { name: 'upload', router: () => uploadRouter };
