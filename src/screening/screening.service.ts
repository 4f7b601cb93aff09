/**
 * The screening verbs behind the /v1/screening routes: billing, idempotency, the session attachment of
 * the phone checks, and the adverse-media job kind. The outcomes themselves come from the pure domain
 * functions beside this file (adverse-media.service.ts, pep-sanctions.service.ts, phone-*.service.ts,
 * carrier-age-gate.service.ts, title-check.service.ts); this file only decides what is stored and billed.
 *
 * Billing (1 token per billable call; `requireFunds` before the work, `charge` after it):
 * - PEP and sanctions, title check: every 200 (all four title variants, no-match screenings included).
 * - Phone ownership, phone trust, carrier age gate: every 200, NO_DATA included (the carrier answered);
 *   never a 503 (carrier unavailable) nor a 400. With a sessionId whose session was created for a
 *   workflow with the matching step (PHONE_OWNERSHIP_MATCH, PHONE_TRUST_CHECK, CARRIER_AGE_GATE), the
 *   session's own price covers the check: nothing is charged, for the first call and for repeats, and
 *   no balance is required. 'The workflow has the step' is read from the session's `workflow_steps`
 *   (the steps the session was created, and so billed, with), else from its workflow.
 * - Adverse media: charged when a new job is queued, unless the job is bound to fail (a magic failure
 *   name, or the async-jobs-fail scenario): a failed job is never billed, so there is nothing to refund.
 *   Idempotent replays are never charged. A stuck job (async-jobs-stuck) is charged.
 * Order of answers: 400 validation, 404/403 session, 400 no usable phone or name, 402 funds, 503
 * carrier, 200.
 *
 * Idempotency (adverse media): `Idempotency-Key` is scoped to the organization and lives as long as its
 * job (the 24 h retention). Same key, same body → 200 with the same job; same key, different body →
 * 409 (the real client's ConflictError), nothing queued or billed. Bodies are compared after validation
 * (key order and the case of `country` do not matter). Another organization's identical key is
 * unrelated and gets its own job.
 *
 * LIMITATIONS:
 * - A phone check without sessionId is not filed as a 'completed silent-screening session' (spec,
 *   phone ownership): the sessions area has no session type for it yet; the call is billed all the same.
 * - Idempotency-Key is honoured on the adverse-media route only (the one the real client sends it on).
 * - The carrier age gate (not in api.md) attaches to analysis_data.phone_checks.carrier_age_gate, a
 *   sandbox choice mirroring the two phone checks the spec names.
 */
import { codedError } from '../platform/errors/error-codes.ts';
import { charge, requireFunds, type FundsPolicy } from '../platform/billing/billing.ts';
import type { OrganizationFixture } from '../platform/auth/organizations.ts';
import type { JobEngine, JobFate, StoredJob } from '../platform/jobs/jobs.ts';
import { type Explained, explaining } from '../platform/explained.ts';
import type { World } from '../platform/namespaces/world.ts';
import { screeningSessions } from './session-port.ts';
import { hashParts } from '../platform/random/random.ts';
import type { AdverseMediaQueued, AdverseMediaRequest, AdverseMediaResult } from './adverse-media.schemas.ts';
import { ADVERSE_MEDIA_JOB_KIND, computeAdverseMediaResult } from './adverse-media.service.ts';
import { checkCarrierAgeGate } from './carrier-age-gate.service.ts';
import type { CarrierAgeGateRequest, CarrierAgeGateResponse } from './carrier-age-gate.schemas.ts';
import type { PepSanctionsRequest, PepSanctionsResponse } from './pep-sanctions.schemas.ts';
import { screenPepSanctions } from './pep-sanctions.service.ts';
import { defaultWatchlist } from './pep-sanctions.watchlist.ts';
import type { PhoneCheckResult } from './phone-check-result.ts';
import type { PhoneOwnershipRequest, PhoneOwnershipResponse } from './phone-ownership.schemas.ts';
import { checkPhoneOwnership } from './phone-ownership.service.ts';
import type { PhoneTrustRequest, PhoneTrustResponse } from './phone-trust.schemas.ts';
import { checkPhoneTrust } from './phone-trust.service.ts';
import type { TitleCheckRequest, TitleCheckResponse } from './title-check.schemas.ts';
import { checkTitle } from './title-check.service.ts';
import { SCREENING_ERROR_CODES } from './screening.errors.ts';

/** What a screening verb works on: the namespace and the calling organization. */
export interface ScreeningCall {
  world: World;
  organization: OrganizationFixture;
  /** Whether a short balance refuses (the route declares 402) or is served anyway. */
  funds: FundsPolicy;
}

/** Where a verb gives a reason as it goes (see `explaining`). */
type Because = (reason: string) => void;

const PRICE = 1;

function bill(call: ScreeningCall, because: Because, what: string): void {
  const remaining = charge(call.world, call.organization, call.funds, PRICE);
  because(`billing: ${what} charged ${PRICE} token (balance ${remaining})`);
}

// ─── Adverse media ──────────────────────────────────────────────────────────────────────────────────

/** The body as compared for idempotency: validated, keys sorted, country upper-cased. */
export function adverseMediaFingerprint(body: AdverseMediaRequest): string {
  const normalized: Record<string, string> = { ...body, ...(body.country !== undefined ? { country: body.country.toUpperCase() } : {}) };
  const canonical = JSON.stringify(
    Object.keys(normalized)
      .sort()
      .map((key) => [key, normalized[key]]),
  );
  return hashParts('adverse-media-request', canonical).toString('hex');
}

export const ADVERSE_MEDIA_MESSAGES = {
  queued: 'Queued',
  replayed: 'Existing job returned: this Idempotency-Key was already used for the same request.',
} as const;

export interface AdverseMediaQueueing {
  /** True when an earlier job was returned for the Idempotency-Key (HTTP 200), false for a new job (202). */
  replayed: boolean;
  queued: AdverseMediaQueued;
}

export function queueAdverseMedia(
  call: ScreeningCall,
  jobs: JobEngine,
  body: AdverseMediaRequest,
  options: { idempotencyKey?: string | undefined; fate: JobFate },
): Explained<AdverseMediaQueueing> {
  return explaining((because) => queueAdverseMediaJob(call, because, jobs, body, options));
}

function queueAdverseMediaJob(
  call: ScreeningCall,
  because: Because,
  jobs: JobEngine,
  body: AdverseMediaRequest,
  options: { idempotencyKey?: string | undefined; fate: JobFate },
): AdverseMediaQueueing {
  const { world, organization } = call;
  const requestFingerprint = adverseMediaFingerprint(body);
  const key = options.idempotencyKey;
  if (key !== undefined) {
    const earlier = jobs.findByIdempotency(world, organization.id, key);
    if (earlier) {
      if (earlier.requestFingerprint !== requestFingerprint) {
        because(`idempotency: key reused with a different body (job ${earlier.id}) -> 409, nothing queued`);
        throw codedError(SCREENING_ERROR_CODES, 'IDEMPOTENCY_KEY_REUSED', { key, jobId: earlier.id });
      }
      because(`idempotency: key already used -> existing job ${earlier.id}, not billed again`);
      return { replayed: true, queued: queuedView(jobs, world, earlier, ADVERSE_MEDIA_MESSAGES.replayed) };
    }
  }

  requireFunds(world, organization, call.funds, PRICE);
  const predicted = computeAdverseMediaResult(body);
  const job = jobs.create(world, {
    organizationId: organization.id,
    kind: ADVERSE_MEDIA_JOB_KIND,
    input: body,
    fate: options.fate,
    ...(key !== undefined ? { idempotencyScope: `${organization.id}|${key}`, requestFingerprint } : { requestFingerprint }),
  });
  if (options.fate === 'fail') because(`adverse media job ${job.id} queued; scenario async-jobs-fail: it will fail, not billed`);
  else if (predicted.status === 'failed') because(`adverse media job ${job.id} queued; it will fail (${predicted.explanation}), not billed`);
  else {
    because(`adverse media job ${job.id} queued${options.fate === 'stuck' ? ' (scenario async-jobs-stuck: stays processing)' : ''}`);
    bill(call, because, 'adverse media job');
  }
  return { replayed: false, queued: queuedView(jobs, world, job, ADVERSE_MEDIA_MESSAGES.queued) };
}

function queuedView(jobs: JobEngine, world: World, job: StoredJob, message: string): AdverseMediaQueued {
  return { jobId: job.id, status: jobs.view(world, job).value.status, message };
}

// ─── PEP and sanctions, title check ─────────────────────────────────────────────────────────────────

export function screenPepAndSanctions(call: ScreeningCall, body: PepSanctionsRequest): Explained<PepSanctionsResponse> {
  return explaining((because) => {
    requireFunds(call.world, call.organization, call.funds, PRICE);
    const screening = screenPepSanctions(body, defaultWatchlist());
    for (const reason of screening.explanations) because(reason);
    bill(call, because, 'PEP and sanctions screening');
    return screening.value;
  });
}

export function runTitleCheck(call: ScreeningCall, body: TitleCheckRequest): Explained<TitleCheckResponse> {
  return explaining((because) => {
    requireFunds(call.world, call.organization, call.funds, PRICE);
    const outcome = checkTitle(body);
    for (const reason of outcome.explanations) because(reason);
    bill(call, because, 'title check');
    return outcome.value;
  });
}

// ─── Phone checks ───────────────────────────────────────────────────────────────────────────────────

/** Each carrier check: where it attaches in analysis_data.phone_checks and which workflow step pays for it. */
export const PHONE_CHECKS = {
  ownership: { label: 'phone ownership', analysisKey: 'ownership', step: 'PHONE_OWNERSHIP_MATCH' },
  trust: { label: 'phone trust', analysisKey: 'trust', step: 'PHONE_TRUST_CHECK' },
  carrierAgeGate: { label: 'carrier age gate', analysisKey: 'carrier_age_gate', step: 'CARRIER_AGE_GATE' },
} as const;
export type PhoneCheckKind = keyof typeof PHONE_CHECKS;

/** The fields a session's applicant can supply. */
interface ApplicantDefaults {
  phone: string | undefined;
  firstName: string | undefined;
  lastName: string | undefined;
}

/**
 * The shared life of a carrier check: session lookup and defaults, the check, 400 / 402 / 503, billing
 * and the session attachment. `run` gets the phone and names with the applicant's filled in.
 */
function runPhoneCheck<TResponse extends { sessionId?: string }>(
  call: ScreeningCall,
  because: Because,
  kind: PhoneCheckKind,
  body: { phone?: string | undefined; firstName?: string | undefined; lastName?: string | undefined; sessionId?: string | undefined },
  run: (filled: ApplicantDefaults) => PhoneCheckResult<TResponse>,
): TResponse {
  const { world, organization } = call;
  const check = PHONE_CHECKS[kind];
  const session = body.sessionId !== undefined ? screeningSessions.get().requireApplicant(world, organization.id, body.sessionId) : undefined;
  const filled: ApplicantDefaults = {
    phone: body.phone ?? session?.phone,
    firstName: body.firstName ?? session?.firstName,
    lastName: body.lastName ?? session?.lastName,
  };
  if (session && body.phone === undefined && filled.phone !== undefined) because(`phone ${filled.phone} taken from session ${session.id}`);

  const result = run(filled);
  because(result.explanation);
  if (result.status === 'invalid-input') {
    const fromSession = session !== undefined && result.field === 'phone' && filled.phone === undefined;
    throw fromSession
      ? codedError(SCREENING_ERROR_CODES, 'SESSION_HAS_NO_PHONE', { sessionId: session.id })
      : codedError(SCREENING_ERROR_CODES, 'PHONE_CHECK_INVALID_INPUT', { problem: result.message });
  }

  const covered = session !== undefined && screeningSessions.get().workflowStepCodes(world, organization.id, session.id).includes(check.step);
  if (!covered) requireFunds(world, organization, call.funds, PRICE);
  if (result.status === 'carrier-unavailable') {
    because('billing: nothing charged (carrier unavailable)');
    throw codedError(SCREENING_ERROR_CODES, 'CARRIER_UNAVAILABLE', undefined, {}, { 'Retry-After': '0' });
  }

  if (covered) because(`billing: ${check.label} not charged: the workflow of session ${session.id} has the ${check.step} step`);
  else bill(call, because, check.label);
  if (session) because(attachPhoneCheck(world, session.id, kind, result.response));
  return result.response;
}

/** Writes a check's result to analysis_data.phone_checks.<key> (a repeat overwrites); returns the sentence that says so. */
function attachPhoneCheck(world: World, sessionId: string, kind: PhoneCheckKind, response: { sessionId?: string }): string {
  const { analysisKey } = PHONE_CHECKS[kind];
  const { sessionId: _echo, ...stored } = response;
  screeningSessions.get().attachAnalysis(world, sessionId, ['phone_checks', analysisKey], stored, world.clock.iso());
  return `attached to session ${sessionId} as analysis_data.phone_checks.${analysisKey}`;
}

export function checkOwnership(call: ScreeningCall, body: PhoneOwnershipRequest): Explained<PhoneOwnershipResponse> {
  return explaining((because) =>
    runPhoneCheck(call, because, 'ownership', body, (filled) =>
      checkPhoneOwnership(
        {
          ...filled,
          address: body.address,
          dateOfBirth: body.dateOfBirth,
          strictness: body.strictness,
          sessionId: body.sessionId,
        },
        call.world.clock.now(),
      ),
    ),
  );
}

export function checkTrust(call: ScreeningCall, body: PhoneTrustRequest): Explained<PhoneTrustResponse> {
  return explaining((because) =>
    runPhoneCheck(call, because, 'trust', body, (filled) =>
      checkPhoneTrust({ phone: filled.phone, sensitivity: body.sensitivity, sessionId: body.sessionId }, call.world.clock.now()),
    ),
  );
}

export function checkAgeGate(call: ScreeningCall, body: CarrierAgeGateRequest): Explained<CarrierAgeGateResponse> {
  return explaining((because) =>
    runPhoneCheck(call, because, 'carrierAgeGate', body, (filled) =>
      checkCarrierAgeGate({ phone: filled.phone, sessionId: body.sessionId }, call.world.clock.now()),
    ),
  );
}

// ─── Workflow steps ─────────────────────────────────────────────────────────────────────────────────
// A session's workflow step (PHONE_TRUST_CHECK, ADVERSE_MEDIA, …) is covered by the session's price: these
// verbs never bill and never answer a status; the step decides what each result means for the run.

export interface PhoneCheckResponses {
  ownership: PhoneOwnershipResponse;
  trust: PhoneTrustResponse;
  carrierAgeGate: CarrierAgeGateResponse;
}

type SessionApplicant = { phone: string | undefined; firstName: string; lastName: string; sessionId: string };

const SESSION_PHONE_CHECKS: { [K in PhoneCheckKind]: (applicant: SessionApplicant, nowMs: number) => PhoneCheckResult<PhoneCheckResponses[K]> } = {
  ownership: (applicant, nowMs) => checkPhoneOwnership(applicant, nowMs),
  trust: ({ phone, sessionId }, nowMs) => checkPhoneTrust({ phone, sessionId }, nowMs),
  carrierAgeGate: ({ phone, sessionId }, nowMs) => checkCarrierAgeGate({ phone, sessionId }, nowMs),
};

/**
 * A carrier check of the session's own applicant (phone, first and last name), at the check's defaults
 * (medium strictness and sensitivity, age 18), attached to analysis_data.phone_checks as the endpoint
 * does with a sessionId. The result comes back as is: the carrier's outage and a number the carrier
 * cannot read are the step's to decide.
 */
export function checkSessionPhone<K extends PhoneCheckKind>(
  world: World,
  organizationId: string,
  sessionId: string,
  kind: K,
): { result: PhoneCheckResult<PhoneCheckResponses[K]>; explanations: string[] } {
  const { phone, firstName, lastName } = screeningSessions.get().requireApplicant(world, organizationId, sessionId);
  const applicant = { phone, firstName, lastName, sessionId };
  const result = SESSION_PHONE_CHECKS[kind](applicant, world.clock.now());
  const explanations = [`${PHONE_CHECKS[kind].label} of the session's phone ${phone ?? '(none)'}: ${result.explanation}`];
  if (result.status === 'ok') explanations.push(attachPhoneCheck(world, sessionId, kind, result.response));
  return { result, explanations };
}

/** An adverse-media job queued for a workflow step: visible at GET /v1/async-jobs/{jobId}, never billed. */
export function queueStepAdverseMedia(world: World, jobs: JobEngine, organizationId: string, person: AdverseMediaRequest, fate: JobFate): StoredJob {
  return jobs.create(world, { organizationId, kind: ADVERSE_MEDIA_JOB_KIND, input: person, fate, requestFingerprint: adverseMediaFingerprint(person) });
}

export type AdverseMediaJobState = (
  | { status: 'pending'; readyAtMs: number | undefined }
  | { status: 'processing'; readyAtMs: number | undefined }
  | { status: 'failed'; error: string }
  | { status: 'ready'; result: AdverseMediaResult }
) & {
  jobId: string;
  /** Past the job's retention: GET /v1/async-jobs/{jobId} answers 404, and the step read the job as it was queued. */
  retired: boolean;
  explanation?: string;
};

/**
 * Where a step's adverse-media job is on the clock (readyAtMs undefined: stuck by scenario). A job past its
 * retention is gone from GET /v1/async-jobs/{jobId}, but its screening ran: a session keeps a screening
 * that finished while nobody polled, so the step reads the outcome from the job as it was queued (a job's
 * outcome is a function of its input, fate and creation time).
 */
export function adverseMediaJobState(world: World, jobs: JobEngine, queued: StoredJob): AdverseMediaJobState {
  const kept = jobs.find(world, queued.id);
  const retired = kept === undefined;
  const { value: view, explanations } = jobs.view(world, kept ?? queued);
  const said = [
    ...explanations,
    retired
      ? `adverse media job ${queued.id} was retired after its ${jobs.timings.retentionMs / 3_600_000} h retention: its outcome read from the step`
      : undefined,
  ].filter((part) => part !== undefined);
  const common = { jobId: queued.id, retired, ...(said.length === 0 ? {} : { explanation: said.join('; ') }) };
  if (view.status === 'ready') return { status: 'ready', result: view.result as AdverseMediaResult, ...common };
  if (view.status === 'failed') return { status: 'failed', error: view.error ?? 'the job failed', ...common };
  const readyAtMs = queued.fate === 'stuck' ? undefined : queued.createdAtMs + jobs.timings.doneAfterMs;
  return { status: view.status, readyAtMs, ...common };
}
