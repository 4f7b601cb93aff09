/**
 * BANK_STATEMENT_UPLOAD: the session's bank-statement request (bank_statement_request_id, created with the
 * session) through the financial area. `{action: "start", bank?}` links the bank (one of the sandbox
 * banks; the first, SandboxCapital, when none is named) and leaves the step IN_PROGRESS; the statement is
 * then ready on the virtual clock (the financial machine: COMPLETED 5 s after linking).
 * `{action: "complete"}` before that answers 409 BANK_STATEMENT_NOT_READY (with `ready_at`), before any
 * link 409 STEP_NOT_STARTED; once COMPLETED the step completes with the request's summary in
 * analysis_data.bank_statement_upload.
 *
 * The applicant may also link a bank or upload statements on the request's own page
 * ({verify_url}/bank-statements/{id}): start then keeps what is there, and complete reads it. An uploaded
 * request completes the step too but carries no statement, which AI_BANK_STATEMENT_ANALYSIS then refuses.
 *
 * LIMITATIONS:
 * - The financial machine has no failure path, so this step cannot fail; its outcomes are "not ready" and
 *   COMPLETED.
 */
import { z } from '@hono/zod-openapi';
import { bankStatementProgress, type BankStatementProgress, linkBankStatementForStep, SANDBOX_BANKS, type SandboxBankCode } from '../../financial/api.ts';
import { mustBe } from '../../platform/validation/request-fields.ts';
import { workflowSessions } from '../session-port.ts';
import { stepConflict } from '../workflow-errors.ts';
import { startOrComplete } from './step-bodies.ts';
import { defineStep, type StepContext, type StepOutcome } from './step-module.ts';
import { startCompleteForm, text, withOptional } from './hosted-forms.ts';
import { html } from 'hono/html';

const BANK_CODES = SANDBOX_BANKS.map((bank) => bank.input) as [SandboxBankCode, ...SandboxBankCode[]];

export const BankStatementUploadStepBodySchema = startOrComplete(
  {
    bank: z
      .enum(BANK_CODES, { error: mustBe('bank', `one of ${BANK_CODES.join(', ')} (or omit it for ${BANK_CODES[0]})`) })
      .optional()
      .openapi({ description: 'Sandbox extension: the bank the applicant links (default SandboxCapital). The real client sends only action.' }),
  },
  {},
).openapi('BankStatementUploadStepBody');
export type BankStatementUploadStepBody = z.infer<typeof BankStatementUploadStepBodySchema>;

/** What the step keeps (and AI_BANK_STATEMENT_ANALYSIS reads): the request it linked. */
export interface BankStatementUploadState extends Record<string, unknown> {
  bank_statement_request_id: string;
}

function requestIdOf(context: StepContext): string {
  const id = workflowSessions.get().find(context.world, context.sessionId)?.record.bank_statement_request_id;
  if (id === undefined) {
    throw stepConflict(
      'STEP_NOT_STARTED',
      `Session ${context.sessionId} has no bank-statement request (it was created before its workflow had BANK_STATEMENT_UPLOAD): create a new session.`,
      { current_step: context.index, step_id: 'BANK_STATEMENT_UPLOAD' },
    );
  }
  return id;
}

function summary(progress: BankStatementProgress, world: StepContext['world']) {
  const { record } = progress;
  return {
    bank_statement_request_id: record.id,
    status: progress.status,
    type: record.type,
    ...(progress.readyAtMs === undefined ? {} : { ready_at: world.clock.iso(progress.readyAtMs) }),
  };
}

function start(context: StepContext, bank: SandboxBankCode | undefined): StepOutcome {
  const id = requestIdOf(context);
  const linked = linkBankStatementForStep(context.world, context.organizationId, id, bank);
  const progress = bankStatementProgress(context.world, context.organizationId, id);
  return {
    kind: 'progress',
    state: { bank_statement_request_id: id } satisfies BankStatementUploadState,
    payload: { bank_statement: summary(progress, context.world) },
    explanations: [linked.explanation],
  };
}

function complete(context: StepContext): StepOutcome {
  const { world, sessionId, index } = context;
  const id = requestIdOf(context);
  const progress = bankStatementProgress(world, context.organizationId, id);
  const where = { current_step: index, step_id: 'BANK_STATEMENT_UPLOAD' };
  if (progress.readyAtMs === undefined) {
    throw stepConflict(
      'STEP_NOT_STARTED',
      `No bank is linked to the bank-statement request ${id} of session ${sessionId}: submit {"action": "start"} first (or link a bank on the request's page), then complete.`,
      where,
    );
  }
  if (progress.status !== 'COMPLETED') {
    const readyAt = world.clock.iso(progress.readyAtMs);
    throw stepConflict(
      'BANK_STATEMENT_NOT_READY',
      `The bank statement of session ${sessionId} is ${progress.status}: it is ready at ${readyAt}; submit {"action": "complete"} again then.`,
      { ...where, ready_at: readyAt },
    );
  }
  const { record, statement } = progress;
  const uploaded = {
    ...summary(progress, world),
    period_months: Number(record.Config.period),
    ...(statement === undefined ? {} : { institution: statement.InstitutionName, accounts: statement.Accounts.length }),
  };
  return {
    kind: 'passed',
    state: { bank_statement_request_id: id } satisfies BankStatementUploadState,
    analysis: { bank_statement_upload: uploaded },
    payload: { bank_statement: uploaded },
    explanations: [progress.explanation],
  };
}

const bankStatementForm = startCompleteForm(
  'Your bank statements',
  'Link your bank so the organization can read your statements',
  (
    view,
  ) => html`<label>Your bank <select name="bank">${SANDBOX_BANKS.map((bank) => html`<option value="${bank.input}">${bank.name}: ${bank.description}</option>`)}</select></label>
${view.bankStatementPage === undefined ? '' : html`<p>Or <a href="${view.bankStatementPage}">upload your statements on the bank-statement page</a>, then come back and start.</p>`}`,
  (form) => withOptional({}, { bank: text(form, 'bank') }),
);

export const BANK_STATEMENT_UPLOAD_STEP = defineStep<BankStatementUploadStepBody>({
  code: 'BANK_STATEMENT_UPLOAD',
  summary: "The session's bank-statement request: start links a bank, complete once the statement is ready on the clock",
  body: BankStatementUploadStepBodySchema,
  headless: false,
  requirements: () => ({ actions: ['start', 'complete'], banks: BANK_CODES }),
  failures: {},
  conflicts: {
    BANK_STATEMENT_NOT_READY: 'BANK_STATEMENT_UPLOAD complete while the statement is still being fetched (ready_at, 5 s after linking)',
  },
  hostedForm: bankStatementForm,
  run: (context, body) => (body.action === 'start' ? start(context, body.bank) : complete(context)),
});
