/**
 * Console pages of the areas beside hosted sessions: workflows and headless sessions with their steps,
 * bank statements, async jobs, the self-exclusion registry and AML enrolments, credit terms and
 * age-verification requests. Each reads through its area's own service or store functions, never the
 * collections behind them; none of these pages writes.
 */
import { Hono } from 'hono';
import { html } from 'hono/html';
import { parentConnectPageUrl, parentConnectRequests, toParentConnectJson } from '../age-verification/api.ts';
import { listMonitoredUsers, quotaStatus } from '../aml/api.ts';
import { creditTermsPageUrl, findCreditTerms, listCreditTerms, toCreditTermsJson } from '../credit-terms/api.ts';
import { allBankStatements, bankStatementJson, bankStatementPageUrl, financialTimeline, findBankStatement } from '../financial/api.ts';
import { listRegistry } from '../igaming/api.ts';
import { ApiError } from '../platform/errors/api-error.ts';
import { type AppContext, type AppEnv, publicUrlsOf } from '../platform/http/context.ts';
import { allSessions } from '../sessions/api.ts';
import { organizationWorkflows, toWorkflowJson, workflowRuns } from '../workflows/api.ts';
import { badge, consoleHref, jsonBlock } from './console.layout.ts';
import { notFound, renderPage } from './console.page.ts';
import { recordDetail, recordTable } from './records.view.ts';

export const consoleRecordsRouter = new Hono<AppEnv>();

/** How many entries a registry list shows per organization. */
const REGISTRY_LIMIT = 200;
/** Credit-terms requests listed per organization. */
const CREDIT_TERMS_LIMIT = 100;

const organizationIds = (c: AppContext) => [...c.get('platform').keyRing.organizations.keys()];
const link = (c: AppContext, path: string, text: string) => html`<a href="${consoleHref(path, c.get('world').namespace)}"><code>${text}</code></a>`;

// ─── Workflows and headless sessions ────────────────────────────────────────────────────────────────

consoleRecordsRouter.get('/console/workflows', async (c) => {
  const world = c.get('world');
  const { getWorkflowState } = await workflowRuns();
  const workflows = organizationIds(c).flatMap((id) => organizationWorkflows(world, id).map(toWorkflowJson));
  const headless = allSessions(world)
    .filter((stored) => stored.record.workflow_id !== undefined)
    .flatMap((stored) => {
      try {
        return [getWorkflowState(world, stored.record.organization_id, stored.id).value];
      } catch (error) {
        // A hosted session started from a workflow has no step state: it is on the sessions page.
        if (error instanceof ApiError && error.status === 404) return [];
        throw error;
      }
    });
  return renderPage(
    c,
    'Workflows',
    'workflows',
    html`<section class="card"><h2>Workflows</h2>${recordTable(
      workflows,
      [
        { label: 'Workflow', cell: (w) => html`${w.name}<br><code>${w.id}</code>` },
        { label: 'Organization', cell: (w) => w.organization_id },
        { label: 'Status', cell: (w) => badge(w.status) },
        { label: 'Steps', cell: (w) => html`${w.steps.map((step) => html`<code>${step.id}</code> `)}` },
      ],
      'No workflows.',
    )}</section>
<section class="card"><h2>Headless sessions</h2>${recordTable(
      headless,
      [
        { label: 'Session', cell: (s) => link(c, `/console/sessions/${encodeURIComponent(s.session_id)}`, s.session_id) },
        { label: 'Status', cell: (s) => html`${badge(s.status)} <span class="muted">${s.session_progress}</span>` },
        {
          label: 'Steps',
          cell: (s) =>
            html`${s.steps.map((step, index) => html`<div>${index === s.current_step ? '▶ ' : ''}<code>${step.step_id}</code> ${badge(step.status)} <span class="muted">${step.attempts} attempt${step.attempts === 1 ? '' : 's'}${step.failure_reason ? `, ${step.failure_reason}` : ''}</span></div>`)}`,
        },
        { label: 'Attempts left', cell: (s) => (s.attempts_remaining === null ? '—' : s.attempts_remaining) },
      ],
      'No headless workflow sessions (POST /v1/workflows/{workflow_id}/sessions creates one).',
    )}</section>`,
  );
});

// ─── Bank statements ────────────────────────────────────────────────────────────────────────────────

consoleRecordsRouter.get('/console/bank-statements', (c) => {
  const world = c.get('world');
  const records = allBankStatements(world)
    .map((record) => bankStatementJson(world, record).body)
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  return renderPage(
    c,
    'Bank statements',
    'bank-statements',
    html`<section class="card">${recordTable(
      records,
      [
        { label: 'Request', cell: (r) => link(c, `/console/bank-statements/${encodeURIComponent(r.id)}`, r.id) },
        { label: 'Organization', cell: (r) => r.organizationId },
        { label: 'Status', cell: (r) => badge(r.status) },
        { label: 'External id', cell: (r) => r.externalId ?? '' },
        { label: 'Created', cell: (r) => r.createdAt },
        { label: 'Updated', cell: (r) => r.updatedAt },
      ],
      'No bank-statement requests (POST /v1/financial creates one).',
    )}</section>`,
  );
});

consoleRecordsRouter.get('/console/bank-statements/:id', (c) => {
  const world = c.get('world');
  const record = findBankStatement(world, c.req.param('id'));
  if (!record) return notFound(c, 'bank statement', c.req.param('id'));
  const { body } = bankStatementJson(world, record);
  const links: [string, string][] = [["Applicant's hosted page", bankStatementPageUrl(publicUrlsOf(c).verify, record.id, world)]];
  const now = world.clock.now();
  // The machine's path for this record so far: what it passed through and what the clock will bring.
  const machine = html`<h2>Status machine</h2><ol class="timeline">${financialTimeline(record).map(
    (step) =>
      html`<li><code>${world.clock.iso(step.at)}</code> ${badge(step.status)} ${step.trigger}${step.at > now ? html` <span class="muted">(scheduled: advance the clock)</span>` : ''}</li>`,
  )}</ol>${record.startedAt === undefined ? html`<p class="muted">Waiting for the applicant on the hosted page.</p>` : ''}`;
  return renderPage(c, `Bank statement ${record.id}`, 'bank-statements', recordDetail({ status: body.status, links, record: body, extra: machine }));
});

// ─── Async jobs ─────────────────────────────────────────────────────────────────────────────────────

consoleRecordsRouter.get('/console/jobs', (c) => {
  const world = c.get('world');
  const engine = c.get('platform').jobs;
  const jobs = engine
    .list(world)
    .reverse()
    .map((job) => ({ job, view: engine.view(world, job).view }));
  return renderPage(
    c,
    'Async jobs',
    'jobs',
    html`<section class="card"><p class="muted">A job moves on the namespace's clock: pending, then processing after ${engine.timings.processingAfterMs} ms, then ready or failed after ${engine.timings.doneAfterMs} ms. Advance the clock on the <a href="${consoleHref('/console', world.namespace)}#clock">overview</a> to move them.</p>
${recordTable(
  jobs,
  [
    { label: 'Job', cell: ({ job }) => html`<code>${job.id}</code>` },
    { label: 'Kind', cell: ({ job }) => job.kind },
    { label: 'Organization', cell: ({ job }) => job.organizationId },
    { label: 'Status', cell: ({ view }) => html`<span data-job-status="${view.jobId}">${badge(view.status)}</span>` },
    { label: 'Updated', cell: ({ view }) => view.updatedAt },
    {
      label: 'Result',
      cell: ({ view }) =>
        view.error !== undefined ? view.error : view.result === undefined ? '' : html`<details><summary>result</summary>${jsonBlock(view.result)}</details>`,
    },
  ],
  'No async jobs (screening calls such as POST /v1/adverse-media create them).',
)}</section>`,
  );
});

// ─── Self-exclusion registry and AML ────────────────────────────────────────────────────────────────

consoleRecordsRouter.get('/console/registry', (c) => {
  const world = c.get('world');
  const ids = organizationIds(c);
  const registry = ids.flatMap((organizationId) =>
    listRegistry(world, organizationId, REGISTRY_LIMIT).value.entries.map((entry) => ({ organizationId, entry })),
  );
  const enrolments = ids.flatMap((organizationId) => listMonitoredUsers(world, organizationId, {}));
  const quotas = ids.map((organizationId) => ({ organizationId, quota: quotaStatus(world, organizationId) }));
  return renderPage(
    c,
    'Self-exclusion registry and AML',
    'registry',
    html`<section class="card"><h2>Self-exclusion registry</h2>${recordTable(
      registry,
      [
        { label: 'Organization', cell: (r) => r.organizationId },
        { label: 'Type', cell: (r) => r.entry.type },
        {
          label: 'Who',
          cell: (r) =>
            r.entry.type === 'identity'
              ? html`<code>${r.entry.document_number}</code> ${[r.entry.first_name, r.entry.last_name].filter(Boolean).join(' ')}`
              : link(c, `/console/sessions/${encodeURIComponent(r.entry.session_id)}`, r.entry.session_id),
        },
        { label: 'Reason', cell: (r) => r.entry.reason ?? '' },
        { label: 'Since', cell: (r) => (r.entry.type === 'identity' ? (r.entry.added_at ?? '') : (r.entry.excluded_at ?? '')) },
      ],
      'Nobody is excluded.',
    )}</section>
<section class="card"><h2>AML enrolments</h2>${recordTable(
      enrolments,
      [
        { label: 'Organization', cell: (u) => u.org_id },
        { label: 'Bot', cell: (u) => html`<code>${u.bot_id}</code>` },
        { label: 'Subject', cell: (u) => html`<code>${u.subject_user_id}</code> ${u.subject_user_name ?? ''} (${u.subject_country})` },
        { label: 'Status', cell: (u) => badge(u.status) },
        { label: 'Cadence', cell: (u) => (u.cadence_days === 0 ? 'real time' : `every ${u.cadence_days} d`) },
        { label: 'Next check', cell: (u) => u.next_check_at },
      ],
      'No AML enrolments.',
    )}
<h2>AML transaction quota (this month)</h2>${recordTable(
      quotas,
      [
        { label: 'Organization', cell: (q) => q.organizationId },
        { label: 'Used', cell: (q) => `${q.quota.used} of ${q.quota.quota}` },
        { label: 'Resets', cell: (q) => q.quota.resets_at },
      ],
      '',
    )}</section>`,
  );
});

// ─── Credit terms and age verification ──────────────────────────────────────────────────────────────

consoleRecordsRouter.get('/console/records', (c) => {
  const world = c.get('world');
  const now = world.clock.now();
  const secret = c.get('platform').signingSecret;
  const creditTerms = organizationIds(c).flatMap((organizationId) => listCreditTerms(world, organizationId, { limit: CREDIT_TERMS_LIMIT, secret }).creditTerms);
  const parentConnect = parentConnectRequests(world)
    .all()
    .map((stored) => toParentConnectJson(stored, now));
  const creditSessions = allSessions(world)
    .filter((stored) => stored.record.type !== 'session')
    .map((stored) => stored.record);
  return renderPage(
    c,
    'Credit and age verification',
    'records',
    html`<section class="card"><h2>Credit-check and age-verification sessions</h2>${recordTable(
      creditSessions,
      [
        { label: 'Session', cell: (r) => link(c, `/console/sessions/${encodeURIComponent(r.id)}`, r.id) },
        { label: 'Type', cell: (r) => r.type },
        { label: 'Organization', cell: (r) => r.organization_id },
        { label: 'Status', cell: (r) => badge(r.status) },
        { label: 'Created', cell: (r) => r.created_at },
      ],
      'No credit-check or age-verification sessions.',
    )}</section>
<section class="card"><h2>Credit terms</h2>${recordTable(
      creditTerms,
      [
        { label: 'Request', cell: (r) => link(c, `/console/credit-terms/${encodeURIComponent(r.id)}`, r.id) },
        { label: 'Organization', cell: (r) => r.organizationId },
        { label: 'Status', cell: (r) => badge(r.status) },
        { label: 'External id', cell: (r) => r.externalId ?? '' },
        { label: 'Created', cell: (r) => r.createdAt },
      ],
      'No credit-terms requests.',
    )}</section>
<section class="card"><h2>Parent Connect (age verification)</h2>${recordTable(
      parentConnect,
      [
        { label: 'Request', cell: (r) => html`<code>${r.id ?? ''}</code>` },
        {
          label: 'Child session',
          cell: (r) => (r.child_session_id ? link(c, `/console/sessions/${encodeURIComponent(r.child_session_id)}`, r.child_session_id) : ''),
        },
        { label: 'Status', cell: (r) => badge(r.status ?? 'unknown') },
        { label: 'Age band', cell: (r) => r.age_band ?? '' },
        { label: 'Hosted page', cell: (r) => (r.id ? html`<a href="${parentConnectPageUrl(publicUrlsOf(c).verify, r.id, world)}">open</a>` : '') },
      ],
      'No Parent Connect requests.',
    )}</section>`,
  );
});

// The admin_console link of POST /v1/credit-terms lands here.
consoleRecordsRouter.get('/console/credit-terms/:id', (c) => {
  const world = c.get('world');
  const stored = findCreditTerms(world, c.req.param('id'));
  if (!stored) return notFound(c, 'credit terms request', c.req.param('id'));
  const record = toCreditTermsJson(stored);
  const links: [string, string][] = [["Business's hosted page", creditTermsPageUrl(publicUrlsOf(c).verify, record.id, world)]];
  return renderPage(c, `Credit terms ${record.id}`, 'records', recordDetail({ status: record.status, links, record }));
});
