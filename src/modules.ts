/**
 * Every resource area of the API, mounted by app.ts from this one list. Adding an area = one folder +
 * one line here.
 */
import type { z } from 'zod';
import type { SandboxModule } from './platform/sandbox-module.ts';
import { ageVerificationModule } from './age-verification/index.ts';
import { amlModule } from './aml/index.ts';
import { asyncJobsModule } from './async-jobs/index.ts';
import { authModule } from './auth/index.ts';
import { creditCheckModule } from './credit-check/index.ts';
import { creditTermsModule } from './credit-terms/index.ts';
import { deepfakeModule } from './deepfake/index.ts';
import { financialModule } from './financial/index.ts';
import { igamingModule } from './igaming/index.ts';
import { profilesModule } from './profiles/index.ts';
import { reVerificationsModule } from './re-verifications/index.ts';
import { uploadModule } from './upload/index.ts';
import { screeningModule } from './screening/index.ts';
import { sessionsModule } from './sessions/index.ts';
import { documentModule, faceModule, identityModule } from './images/modules.ts';
import { workflowsModule } from './workflows/index.ts';

/** Every area's stored-record shapes, for the store to check at start-up. */
export function storedRecordShapes(): Map<string, z.ZodType> {
  return new Map(MODULES.flatMap((module) => Object.entries(module.storedRecords ?? {})));
}

export const MODULES: readonly SandboxModule[] = [
  authModule,
  asyncJobsModule,
  uploadModule,
  financialModule,
  creditCheckModule,
  sessionsModule,
  screeningModule,
  documentModule,
  faceModule,
  identityModule,
  deepfakeModule,
  profilesModule,
  creditTermsModule,
  igamingModule,
  amlModule,
  reVerificationsModule,
  ageVerificationModule,
  workflowsModule,
];
