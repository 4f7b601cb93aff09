/**
 * AI_BANK_STATEMENT_ANALYSIS (`{}`): reads the statement of the earlier BANK_STATEMENT_UPLOAD step's
 * request with the financial area's analysis (income, spending, cash flow, lowest balance, flags and a
 * risk level; bank-statement-analysis.ts) and records it as analysis_data.ai_bank_statement_analysis and
 * the response's `bank_statement_analysis`.
 *
 * LOW and MEDIUM risk complete the step; HIGH (no regular income, or a balance below zero: the PrairieSky
 * bank's overdraft almost always) ends the run, BANK_STATEMENT_HIGH_RISK, the session REJECTED as an
 * affordability decline. A request whose statements were uploaded rather than linked carries no statement
 * to read: BANK_STATEMENT_NOT_ANALYSABLE.
 */
import type { z } from '@hono/zod-openapi';
import { analyzeBankStatement, bankStatementProgress } from '../../financial/api.ts';
import type { BankStatementUploadState } from './bank-statement-upload.step.ts';
import { emptyBody } from './step-bodies.ts';
import { defineStep, type FailureRow } from './step-module.ts';
import { continueForm } from './hosted-forms.ts';

export const AiBankStatementAnalysisStepBodySchema = emptyBody('AiBankStatementAnalysisStepBody');

const AI_BANK_STATEMENT_ANALYSIS_FAILURES = {
  BANK_STATEMENT_HIGH_RISK: {
    category: 'OTHER',
    user_action: 'NONE',
    reason: 'BANK_STATEMENT_REJECTED',
    content: 'a statement with a balance below zero or no regular income: the bank PrairieSky in the BANK_STATEMENT_UPLOAD start (ends the run: REJECTED)',
    magicLastName: null,
    message: 'The bank statement analysis found a high risk.',
  },
  BANK_STATEMENT_NOT_ANALYSABLE: {
    category: 'OTHER',
    user_action: 'NONE',
    reason: 'BANK_STATEMENT_REJECTED',
    content: "statements uploaded on the bank-statement request's page instead of a linked bank (no statement to read)",
    magicLastName: null,
    message: 'There is no bank statement to analyse.',
  },
} satisfies Record<string, FailureRow>;

export const AI_BANK_STATEMENT_ANALYSIS_STEP = defineStep<z.infer<typeof AiBankStatementAnalysisStepBodySchema>>({
  code: 'AI_BANK_STATEMENT_ANALYSIS',
  summary: 'Analyses the statement of the earlier BANK_STATEMENT_UPLOAD: income, spending, lowest balance; HIGH risk ends the run',
  body: AiBankStatementAnalysisStepBodySchema,
  headless: false,
  requirements: () => ({ statement_from: 'BANK_STATEMENT_UPLOAD' }),
  failures: AI_BANK_STATEMENT_ANALYSIS_FAILURES,
  hostedForm: continueForm('Bank statement analysis', 'Your bank statement is analysed'),
  run(context) {
    // The engine runs this step only after BANK_STATEMENT_UPLOAD completed, which saved its request id.
    const upload = context.earlier('BANK_STATEMENT_UPLOAD')?.state as BankStatementUploadState | undefined;
    const id = upload?.bank_statement_request_id ?? '';
    const progress = bankStatementProgress(context.world, context.organizationId, id);
    if (progress.statement === undefined) {
      return {
        kind: 'failed',
        failure: {
          code: 'BANK_STATEMENT_NOT_ANALYSABLE',
          slot: 'STEP',
          detail: `Bank-statement request ${id} is a ${progress.record.type} record (${progress.status}) without a statement to read: the applicant uploaded files instead of linking a bank.`,
        },
        explanations: [progress.explanation],
      };
    }
    const { value: analysis, explanations } = analyzeBankStatement(progress.statement, progress.record.Config.period);
    const recorded = { bank_statement_request_id: id, ...analysis };
    const result = { analysis: { ai_bank_statement_analysis: recorded }, payload: { bank_statement_analysis: recorded }, explanations };
    if (analysis.risk_level === 'HIGH') {
      return {
        kind: 'failed',
        failure: {
          code: 'BANK_STATEMENT_HIGH_RISK',
          slot: 'STEP',
          detail: `Risk HIGH: ${analysis.flags.join(', ')} (lowest balance ${analysis.lowest_balance}).`,
        },
        endsRun: true,
        ...result,
      };
    }
    return { kind: 'passed', ...result };
  },
});
