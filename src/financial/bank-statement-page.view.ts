/**
 * The applicant's hosted bank-statement page ({verify_url}/bank-statements/<id>): plain HTML, no script.
 * While nothing is linked it offers the sandbox banks (pick, or pick and link in one go) and an upload
 * option; afterwards it shows the status on the virtual clock (reload to follow it) and, once completed,
 * the accounts the statement holds.
 */
import { html } from 'hono/html';
import { hostedPage } from '../platform/hosted-pages/hosted-page-layout.ts';
import { financialTimeline } from './financial.machine.ts';
import type { FinancialRecord, StoredFinancialRecord } from './financial.schemas.ts';
import { SANDBOX_BANKS } from './sandbox-banks.ts';

export interface BankStatementPageModel {
  stored: StoredFinancialRecord;
  /** The wire record at the virtual clock's now. */
  record: FinancialRecord;
  organizationName: string;
  /** Path (with ?namespace=) the forms post to. */
  formAction: string;
  /** Path (with ?namespace=) of this page. */
  selfPath: string;
  nowIso: string;
  error?: string;
}

export function bankStatementPage(model: BankStatementPageModel) {
  const { stored, record } = model;
  const applicant = `${stored.applicant.firstName} ${stored.applicant.lastName}`;
  const linked = stored.linkedAt !== undefined;
  const timeline = financialTimeline(stored);
  return hostedPage(
    'Share your bank statements',
    html`<h1>Share your bank statements</h1>
<p class="org">Hello ${applicant}. <strong>${model.organizationName}</strong> asks for ${record.Config.period} months of bank statements.</p>
<p>Status: <span class="status" id="status">${record.status}</span> <small>(as of ${model.nowIso}, sandbox clock)</small></p>
${model.error === undefined ? '' : html`<p class="error" role="alert">${model.error}</p>`}
${linked ? progressSection(model, timeline) : chooseSection(model)}`,
    html`idv-sandbox hosted page · request <code>${stored.id}</code> · no real bank is contacted.`,
  );
}

function chooseSection(model: BankStatementPageModel) {
  const picked = model.stored.bankCode ?? SANDBOX_BANKS[0].input;
  return html`<h2>Connect your bank</h2>
<form method="post" action="${model.formAction}">
${SANDBOX_BANKS.map(
  (bank) => html`<label class="choice"><input type="radio" name="bank" value="${bank.input}"${bank.input === picked ? html` checked` : ''}> ${bank.name}
  <small>— ${bank.outcome}</small></label>`,
)}
<button type="submit" name="action" value="complete" class="primary">Connect and share</button>
<button type="submit" name="action" value="start">Select bank only (stay in progress)</button>
</form>
<h2>Or upload statements</h2>
<form method="post" action="${model.formAction}">
<p>Upload PDF statements instead of connecting a bank (the sandbox does not read the files).</p>
<button type="submit" name="action" value="upload">Upload statements</button>
</form>`;
}

function progressSection(model: BankStatementPageModel, timeline: ReturnType<typeof financialTimeline>) {
  const { record } = model;
  const nowMs = Date.parse(model.nowIso);
  return html`<h2>Progress</h2>
<table><tr><th>Status</th><th>From</th><th></th></tr>
${timeline.map((step) => html`<tr><td>${step.status}</td><td>${new Date(step.at).toISOString()}</td><td>${step.at <= nowMs ? 'done' : 'upcoming'}</td></tr>`)}
</table>
<p><a href="${model.selfPath}">Reload</a> to follow the status (it advances on the sandbox clock).</p>
${
  record.statement === undefined
    ? record.status === 'COMPLETED'
      ? html`<p>Your statements were received. You can close this page.</p>`
      : ''
    : html`<h2>Shared from ${record.statement.InstitutionName}</h2>
<table><tr><th>Account</th><th>Currency</th><th class="num">Current balance</th><th class="num">Transactions</th></tr>
${record.statement.Accounts.map(
  (account) =>
    html`<tr><td>${account.Title} ••${account.AccountNumber.slice(-3)}</td><td>${account.Currency}</td><td class="num">${account.Balance.Current.toFixed(2)}</td><td class="num">${account.Transactions.length}</td></tr>`,
)}
</table>
<p>Done. You can close this page.</p>`
}`;
}

export function bankStatementNotFoundPage(id: string) {
  return hostedPage(
    'Bank statement request not found',
    html`<h1>Bank statement request not found</h1>
<p>There is no bank statement request <code>${id}</code> in this namespace. Check the link you received (it carries <code>?namespace=</code> outside the default namespace).</p>`,
    'idv-sandbox hosted page',
  );
}
