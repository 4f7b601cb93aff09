/**
 * What a step submission uses besides the world, bound to the request: the organization's uploads, upload
 * URLs on the public base URL, the async-job engine and the job fate the scenarios give. The API route
 * (POST /v1/sessions/{id}/steps/{step}) and the applicant's page (POST {verify_url}/<id>/steps/<STEP>)
 * both build it here, so a step runs the same from either, and both note its answer for coverage here.
 */
import { valueFact } from '../platform/coverage/sources.ts';
import { jobFateFor, noteOutcome, publicUrlsOf, type AppContext } from '../platform/http/context.ts';
import { MAX_UPLOAD_BYTES } from '../platform/uploads/uploads.ts';
import type { StepDeps } from './steps/step-module.ts';
import { STEP_FAILURE_COVERAGE } from './workflow-failures.ts';
import type { StepSubmissionResponse } from './workflow-sessions.schemas.ts';

export function stepDepsFor(c: AppContext, organizationId: string): StepDeps {
  const platform = c.get('platform');
  const world = c.get('world');
  return {
    readUpload: async (fileKey) => (await platform.uploads.read(world, organizationId, fileKey)).bytes,
    presign: (request) => platform.uploads.presign(world, organizationId, { ...request, byteLength: MAX_UPLOAD_BYTES }, publicUrlsOf(c).base),
    publicBaseUrl: publicUrlsOf(c).base,
    jobs: platform.jobs,
    jobFate: () => jobFateFor(c),
  };
}

/** A failed attempt inside a 200 counts as its failure code for coverage. */
export function noteStepAnswer(c: AppContext, answer: StepSubmissionResponse): void {
  if (answer.failure !== undefined) noteOutcome(c, valueFact(STEP_FAILURE_COVERAGE, answer.failure.code));
}
