/**
 * The re-verifications area's rows of the error-code map (platform/errors/error-codes.ts). Each row's key is
 * the code the clients read: the iOS client takes it from `error`, the TypeScript client shows `message`,
 * `code` repeats it for programs (`bodyCode: 'error'`).
 */
import { defineErrorCodes } from '../platform/errors/error-codes.ts';
import type { ReVerificationState } from './re-verifications.machine.ts';

/** A refused operation (REFUSALS in re-verifications.machine.ts). */
interface RefusalFacts {
  id: string;
  /** The operation as a sentence says it (`upload url`). */
  operation: string;
  state: ReVerificationState;
  expiresAt: string;
}

export const RE_VERIFICATIONS_ERROR_CODES = defineErrorCodes({
  not_found: {
    status: 404,
    bodyCode: 'error',
    message: (facts: { workflowId: string } | { reVerificationId: string }) =>
      'workflowId' in facts
        ? `Workflow ${facts.workflowId} was not found in this organization: use the id of one of your workflows (GET /v1/workflows).`
        : `Re-verification ${facts.reVerificationId} was not found: use the re_verification_id returned by POST /v1/re-verifications.`,
  },
  reverify_disabled: {
    status: 422,
    bodyCode: 'error',
    message: (facts: { workflowId: string; hasLiveness: boolean }) =>
      `Workflow ${facts.workflowId} has ${facts.hasLiveness ? 're-verification turned off (reverify_enabled false)' : 'no face-liveness step'}: re-verification needs a workflow with FACE_LIVENESS.`,
  },
  already_completed: {
    status: 409,
    bodyCode: 'error',
    message: (facts: RefusalFacts) => `Re-verification ${facts.id} cannot ${facts.operation}: it is ${facts.state}: create a new re-verification.`,
  },
  expired: {
    status: 409,
    bodyCode: 'error',
    message: (facts: RefusalFacts) => `Re-verification ${facts.id} cannot ${facts.operation}: it expired at ${facts.expiresAt}: create a new re-verification.`,
  },
  liveness_not_started: {
    status: 409,
    bodyCode: 'error',
    message: (facts: RefusalFacts) => `Re-verification ${facts.id} cannot ${facts.operation}: no liveness attempt is running: call liveness/start first.`,
  },
  liveness_upload_incomplete: {
    status: 409,
    bodyCode: 'error',
    message: (facts: { id: string; missing: readonly string[] | undefined }) =>
      facts.missing === undefined
        ? `Re-verification ${facts.id} has no uploads yet: call liveness/upload-url and PUT the frames and the timeline first.`
        : `Re-verification ${facts.id} is missing uploads: ${facts.missing.join(', ')}. PUT them to their URLs, then complete again.`,
  },
  insufficient_balance: {
    status: 402,
    bodyCode: 'error',
    message: ({ organizationId }: { organizationId: string }) =>
      `Insufficient token balance: a liveness attempt costs 1 token and organization ${organizationId} has none. Top up the balance.`,
  },
});
