/**
 * Headless workflow sessions: POST /v1/workflows/{id}/sessions, GET /v1/sessions/{id}/workflow,
 * POST /v1/sessions/{id}/workflow/start and POST /v1/sessions/{id}/steps/{step_id}.
 *
 * A headless session is a session record (type `session`, the workflow's id and steps) in the sessions
 * area, plus this area's execution state in the 'workflow-sessions' collection: each step's status,
 * attempts, timestamps, failure reason and requirements, and the liveness session of FACE_LIVENESS.
 * Steps run synchronously on the uploaded files (id-verification.step.ts, face-liveness.step.ts); their
 * results land in the session record's analysis_data and uploads, and the session moves through the
 * sessions area's state machine: session_progress STARTED on the first move, every failed attempt
 * appended to meta_data.failureData (FAILED at the workflow's limit), and when the last step completes
 * SUBMITTED then VERIFIED (the checks passed, so the sandbox approves automatically).
 *
 * The attempt that completes ID_VERIFICATION offers its selfie to the shared face registry, as a hosted
 * session's finish does: the session's face is enrolled, or the session becomes a duplicate of the
 * session whose enrolled face it matches (iGaming self-exclusion and anti-cheat purge see both). A failed
 * attempt enrols nothing, so a retry with the right selfie is the one that counts.
 *
 * LIMITATIONS:
 * - Every failed check is a failed attempt the caller may retry until the limit (default 3, or the
 *   workflow's own); nothing auto-declines to REJECTED here.
 * - Creating a headless session costs one token, like a hosted one; steps are not billed.
 */
import { enrolSessionSelfie } from '../face-registry/face-registry.ts';
import type { OrganizationFixture } from '../platform/auth/organizations.ts';
import { charge, requireFunds, type FundsPolicy } from '../platform/billing/billing.ts';
import { describeZodError } from '../platform/errors/api-error.ts';
import type { World } from '../platform/namespaces/world.ts';
import { applyWorkflowSessionEvent, SESSION_PRICE_TOKENS } from '../sessions/sessions.service.ts';
import { DEFAULT_MAX_FAILED_ATTEMPTS, isExpired, isTerminal } from '../sessions/session.machine.ts';
import { createSessionRecord, recordStepResults, requireOwnSession, type StoredSession } from '../sessions/sessions.store.ts';
import { FRONT_ONLY_DOCUMENT_TYPES, isFrontOnly, VALID_ID_TYPES, VALID_STATES } from './id-document-types.ts';
import { checkIdVerificationBody, runIdVerification, type UploadReader } from './id-verification.step.ts';
import { runFaceLivenessAction, type LivenessDeps, type LivenessState } from './face-liveness.step.ts';
import { stepConflict, workflowError } from './workflow-errors.ts';
import { failureDataOf, toWireFailure, type SessionFailure, type StepFailure, type WorkflowFailure } from './workflow-failures.ts';
import { isSubmittable, moveStep, type StepState } from './workflow-step.machine.ts';
import {
  DEFAULT_LIVENESS_CHALLENGE,
  idVerificationSettings,
  isHeadlessStep,
  livenessThreshold,
  type HeadlessStepCode,
  type StepCode,
} from './workflow-steps.ts';
import { requireActiveWorkflow, requireOwnWorkflow, type Explained } from './workflows.service.ts';
import {
  FaceLivenessStepBodySchema,
  IdVerificationStepBodySchema,
  type CreateWorkflowSessionInput,
  type FaceLivenessRequirements,
  type IdVerificationRequirements,
  type StepSubmissionResponse,
  type WorkflowSession,
  type WorkflowState,
} from './workflows.schemas.ts';
import { stepCode } from './workflows.store.ts';

interface HeadlessStep extends StepState {
  requirements: IdVerificationRequirements | FaceLivenessRequirements;
  /** The step's resolved config in the workflow (what the checks read). */
  config: Record<string, unknown>;
  /** Why the latest attempt failed (cleared when the step completes). */
  failure?: StepFailure;
}

export interface HeadlessSessionRecord {
  /** The session id. */
  id: string;
  organizationId: string;
  workflowId: string;
  maxFailedAttempts: number;
  steps: HeadlessStep[];
  liveness?: LivenessState;
}

const headlessSessions = (world: World) => world.data.collection<HeadlessSessionRecord>('workflow-sessions');

// ─── Creation ───────────────────────────────────────────────────────────────────────────────────────

function requirementsFor(code: HeadlessStepCode, config: Record<string, unknown>): HeadlessStep['requirements'] {
  if (code === 'FACE_LIVENESS') return { challenge_type: DEFAULT_LIVENESS_CHALLENGE, confidence_threshold: livenessThreshold(config) };
  const settings = idVerificationSettings(config);
  return {
    document: {
      require_front_only: false,
      front_only_document_types: [...FRONT_ONLY_DOCUMENT_TYPES],
      require_secondary_id: settings.requireSecondaryId,
      require_tertiary_id: settings.requireTertiaryId,
      valid_id_types: [...VALID_ID_TYPES],
      valid_states: [...VALID_STATES],
    },
    face: { face_front_photo_only: settings.faceFrontPhotoOnly },
  };
}

export function createWorkflowSession(
  world: World,
  organization: OrganizationFixture,
  workflowId: string,
  input: CreateWorkflowSessionInput,
  funds: FundsPolicy,
): Explained<WorkflowSession> {
  const workflow = requireOwnWorkflow(world, organization.id, workflowId);
  const invalidSteps = workflow.steps.map((step) => stepCode(step.id)).filter((code) => !isHeadlessStep(code));
  if (invalidSteps.length > 0) {
    throw workflowError(
      'UNSUPPORTED_WORKFLOW_STEPS',
      `Workflow ${workflow.id} has steps a headless session cannot run (${invalidSteps.join(', ')}): only ID_VERIFICATION and FACE_LIVENESS workflows are accepted; use POST /v1/sessions for a hosted session instead.`,
      { invalid_steps: invalidSteps },
    );
  }
  requireActiveWorkflow(workflow, { code: 'WORKFLOW_INACTIVE' });
  requireFunds(world, organization, funds, SESSION_PRICE_TOKENS);
  const nowIso = world.clock.iso();
  const stored = createSessionRecord(world, {
    organization,
    type: 'session',
    input: { ...input, workflowId: workflow.id, sendEmailInvite: false, sendPhoneInvite: false },
    workflow,
    nowIso,
  });
  const record: HeadlessSessionRecord = {
    id: stored.id,
    organizationId: organization.id,
    workflowId: workflow.id,
    maxFailedAttempts: workflow.settings?.max_failed_attempts ?? DEFAULT_MAX_FAILED_ATTEMPTS,
    steps: workflow.steps.map((step) => {
      const code = stepCode(step.id) as HeadlessStepCode;
      return {
        step_id: code,
        status: 'PENDING',
        attempts: 0,
        started_at: null,
        completed_at: null,
        failure_reason: null,
        requirements: requirementsFor(code, step.config),
        config: step.config,
      };
    }),
  };
  headlessSessions(world).put(record);
  const remaining = charge(world, organization, funds, SESSION_PRICE_TOKENS);
  return {
    value: {
      session_id: stored.id,
      expires_at: stored.record.expires_at ?? null,
      steps: record.steps.map((step) => ({ step_id: step.step_id, status: step.status, requirements: step.requirements })),
      current_step: 0,
    },
    explanations: [
      `headless session of workflow ${workflow.id} (${record.steps.map((s) => s.step_id).join(', ')}), failed-attempt limit ${record.maxFailedAttempts}; no invitation sent`,
      `${SESSION_PRICE_TOKENS} token charged, balance ${remaining}`,
    ],
  };
}

// ─── State ──────────────────────────────────────────────────────────────────────────────────────────

interface Loaded {
  stored: StoredSession;
  headless: HeadlessSessionRecord;
}

function load(world: World, organizationId: string, sessionId: string): Loaded {
  const stored = requireOwnSession(world, organizationId, sessionId);
  const headless = headlessSessions(world).get(sessionId);
  if (headless === undefined) {
    throw workflowError(
      'EXECUTION_STATE_NOT_FOUND',
      `Session ${sessionId} is not a headless workflow session (it was not created with POST /v1/workflows/{workflow_id}/sessions), so it has no workflow state.`,
    );
  }
  return { stored, headless };
}

function failedAttempts(stored: StoredSession): number {
  return stored.record.meta_data?.failureData?.failedAttempts ?? 0;
}

/** The index of the step to submit next, or null once none is left (all done, or the session ended). */
function currentStep({ stored, headless }: Loaded): number | null {
  if (isTerminal(stored.record.status)) return null;
  const index = headless.steps.findIndex((step) => isSubmittable(step.status));
  return index < 0 ? null : index;
}

function attemptsRemaining(loaded: Loaded): number {
  return Math.max(0, loaded.headless.maxFailedAttempts - failedAttempts(loaded.stored));
}

/** The wire `failure` of a step whose latest attempt failed a check (retryable while the session is open). */
function stepFailure(loaded: Loaded, step: HeadlessStep): WorkflowFailure | undefined {
  return step.failure === undefined ? undefined : toWireFailure(step.failure, !isTerminal(loaded.stored.record.status) && isSubmittable(step.status));
}

/** Why the run ended without being submitted: attempts used up, the session expired, or it was ended with a step open. */
function sessionFailure(loaded: Loaded, nowMs: number): SessionFailure | undefined {
  const { record } = loaded.stored;
  const about = (step: HeadlessStep | undefined) => {
    if (step === undefined) return {};
    const failure = stepFailure(loaded, step);
    return { step_id: step.step_id, ...(failure === undefined ? {} : { failure }) };
  };
  const open = loaded.headless.steps.find((step) => isSubmittable(step.status));
  if (record.status === 'FAILED') return { code: 'ATTEMPTS_EXHAUSTED', ...about(loaded.headless.steps.find((step) => step.status === 'FAILED') ?? open) };
  if (isExpired(record, nowMs)) return { code: 'SESSION_EXPIRED', ...about(open) };
  if ((record.status === 'REJECTED' || record.status === 'VOIDED') && open !== undefined) return { code: 'STEP_BLOCKED', ...about(open) };
  return undefined;
}

function toState(loaded: Loaded, nowMs: number): WorkflowState {
  const ended = sessionFailure(loaded, nowMs);
  return {
    session_id: loaded.stored.id,
    status: loaded.stored.record.status,
    session_progress: loaded.stored.record.session_progress,
    steps: loaded.headless.steps.map(({ config: _config, failure: _failure, ...step }) => {
      const failure = stepFailure(loaded, loaded.headless.steps.find((candidate) => candidate.step_id === step.step_id) as HeadlessStep);
      return failure === undefined ? step : { ...step, failure };
    }),
    current_step: currentStep(loaded),
    attempts_remaining: attemptsRemaining(loaded),
    ...(ended === undefined ? {} : { session_failure: ended }),
  };
}

export function getWorkflowState(world: World, organizationId: string, sessionId: string): Explained<WorkflowState> {
  const loaded = load(world, organizationId, sessionId);
  const expired = isExpired(loaded.stored.record, world.clock.now());
  return {
    value: toState(loaded, world.clock.now()),
    explanations: expired ? [`session ${sessionId} expired at ${loaded.stored.record.expires_at as string}: steps are refused`] : [],
  };
}

/** 409 unless steps may move: not terminal, not expired, a step left. Returns the current step's index. */
function requireOpen(world: World, loaded: Loaded): number {
  const { record } = loaded.stored;
  const create = `create a new session with POST /v1/workflows/${loaded.headless.workflowId}/sessions`;
  if (isTerminal(record.status)) {
    throw stepConflict('SESSION_TERMINAL', `Session ${record.id} is ${record.status} (terminal): no step can be submitted any more; ${create}.`, {
      current_step: null,
    });
  }
  if (isExpired(record, world.clock.now())) {
    throw stepConflict('SESSION_TERMINAL', `Session ${record.id} expired at ${record.expires_at as string}: no step can be submitted any more; ${create}.`, {
      current_step: null,
    });
  }
  const index = currentStep(loaded);
  if (index === null) {
    throw stepConflict('NO_ACTIVE_STEP', `Session ${record.id} has no step left to submit: read its outcome with GET /v1/sessions/${record.id}.`, {
      current_step: null,
    });
  }
  return index;
}

function saveHeadless(world: World, headless: HeadlessSessionRecord): HeadlessSessionRecord {
  return headlessSessions(world).put(headless);
}

function withStep(headless: HeadlessSessionRecord, index: number, step: HeadlessStep): HeadlessSessionRecord {
  return { ...headless, steps: headless.steps.map((existing, i) => (i === index ? step : existing)) };
}

/** session_progress PENDING → STARTED (no change once started). */
function open(world: World, stored: StoredSession): Explained<StoredSession> {
  return applyWorkflowSessionEvent(world, stored, { type: 'open' });
}

/**
 * POST /v1/sessions/{id}/workflow/start: validate-only (writes nothing), so repeatable while the session is
 * PENDING and no step was submitted; afterwards, or on a terminal or expired session, 409 SESSION_ALREADY_STARTED.
 */
export function startWorkflow(world: World, organizationId: string, sessionId: string): Explained<WorkflowState> {
  const loaded = load(world, organizationId, sessionId);
  const { record } = loaded.stored;
  const nowMs = world.clock.now();
  const why = isTerminal(record.status)
    ? `is ${record.status} (terminal)`
    : isExpired(record, nowMs)
      ? `expired at ${record.expires_at as string}`
      : record.session_progress !== 'PENDING'
        ? 'already has a submitted step'
        : undefined;
  if (why !== undefined) {
    throw stepConflict(
      'SESSION_ALREADY_STARTED',
      `Session ${sessionId} has already been started: it ${why}. Read where it is with GET /v1/sessions/${sessionId}/workflow and submit its current step.`,
      { current_step: currentStep(loaded) },
    );
  }
  return {
    value: toState(loaded, nowMs),
    explanations: ['workflow/start: the session can start (nothing written; repeatable until the first step submission)'],
  };
}

// ─── Step submission ────────────────────────────────────────────────────────────────────────────────

/** Sessions with a submission running (per namespace): a second one meanwhile is a 409. */
const running = new WeakMap<World, Set<string>>();

export interface StepDeps extends LivenessDeps {
  readUpload: UploadReader;
}

function parseBody<T>(schema: { safeParse(value: unknown): { success: true; data: T } | { success: false; error: import('zod').ZodError } }, body: unknown): T {
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw workflowError('VALIDATION_ERROR', describeZodError(parsed.error, 'json'));
  return parsed.data;
}

/** The step the path names, if the session may take it now; else the refusal that says why. */
function requireCurrent(loaded: Loaded, code: StepCode, currentIndex: number): HeadlessStepCode {
  const { id } = loaded.stored;
  const steps = loaded.headless.steps;
  const current = steps[currentIndex] as HeadlessStep;
  if (!isHeadlessStep(code)) {
    throw workflowError(
      'STEP_NOT_RUNNABLE',
      `${code} cannot be submitted through the API: a headless session runs ID_VERIFICATION and FACE_LIVENESS only; submit ${current.step_id} next.`,
    );
  }
  const targetIndex = steps.findIndex((step) => step.step_id === code);
  if (targetIndex < 0) {
    throw workflowError(
      'STEP_NOT_FOUND',
      `Session ${id} has no ${code} step (its steps are ${steps.map((s) => s.step_id).join(', ')}): submit ${current.step_id} next.`,
    );
  }
  if (targetIndex === currentIndex) return code;
  const target = steps[targetIndex] as HeadlessStep;
  if (!isSubmittable(target.status)) {
    throw stepConflict(
      'STEP_NOT_SUBMITTABLE',
      `${code} is ${target.status} on session ${id}: it cannot be submitted again; submit ${current.step_id} (step ${currentIndex}) next.`,
      {
        current_step: currentIndex,
        step_id: code,
      },
    );
  }
  throw stepConflict(
    'STEP_OUT_OF_ORDER',
    `${code} is ${target.status} on session ${id}, and steps go in order: submit ${current.step_id} (step ${currentIndex}) next.`,
    {
      current_step: currentIndex,
      step_id: current.step_id,
    },
  );
}

export async function submitStep(
  world: World,
  organizationId: string,
  sessionId: string,
  requested: StepCode,
  body: unknown,
  deps: StepDeps,
): Promise<Explained<StepSubmissionResponse>> {
  const before = load(world, organizationId, sessionId);
  const index = requireOpen(world, before);
  const code = requireCurrent(before, requested, index);
  const inFlight = running.get(world) ?? new Set<string>();
  running.set(world, inFlight);
  if (inFlight.has(sessionId)) {
    throw stepConflict(
      'STEP_CONFLICT',
      `A submission of ${code} on session ${sessionId} is still running: wait for its response, then read GET /v1/sessions/${sessionId}/workflow.`,
      { current_step: index, step_id: code },
    );
  }
  const step = before.headless.steps[index] as HeadlessStep;
  // Validate before taking the lock: a bad body never blocks anyone.
  const parsed = code === 'ID_VERIFICATION' ? { id: parseBody(IdVerificationStepBodySchema, body) } : { liveness: parseBody(FaceLivenessStepBodySchema, body) };
  inFlight.add(sessionId);
  try {
    if (parsed.id !== undefined) {
      const settings = idVerificationSettings(step.config);
      const slots = checkIdVerificationBody(
        parsed.id,
        settings,
        (step.config.id_scan_face_settings as { require_front_only?: boolean } | undefined)?.require_front_only === true,
      );
      const run = await runIdVerification(parsed.id, slots, { lastName: before.stored.user.last_name, nowIso: world.clock.iso(), settings }, deps.readUpload);
      const loaded = load(world, organizationId, sessionId);
      requireOpen(world, loaded);
      recordStepResults(world, sessionId, run.analysis, run.uploadedSlots, world.clock.iso());
      const document = { ...(step.requirements as IdVerificationRequirements).document, require_front_only: isFrontOnly(parsed.id.document_type) };
      const requirements = { ...(step.requirements as IdVerificationRequirements), document };
      const withSelfie: HeadlessSessionRecord = {
        ...loaded.headless,
        liveness: { ...loaded.headless.liveness, selfieScore: run.selfieLivenessScore, selfieKey: parsed.id.uploads.selfie_front },
      };
      const answer = settleAttempt(world, organizationId, sessionId, index, { ...step, requirements }, withSelfie, run.failure, run.explanations);
      // The selfie of the attempt that completes the step is the session's face (as a hosted session's finish).
      const enrolment =
        run.failure === undefined
          ? enrolSessionSelfie(world, { organizationId, sessionId, source: 'workflow-step', analysis: run.selfie, label: 'uploads.selfie_front' })
          : undefined;
      return {
        value: { ...answer.value, checks: run.checks },
        explanations: enrolment === undefined ? answer.explanations : [...answer.explanations, enrolment],
      };
    }
    const context = { world, sessionId, organizationId, lastName: before.stored.user.last_name, index };
    const action = await runFaceLivenessAction(context, parsed.liveness, step, before.headless.liveness, deps);
    const loaded = load(world, organizationId, sessionId);
    requireOpen(world, loaded);
    const headless: HeadlessSessionRecord = { ...loaded.headless, liveness: action.liveness };
    if (action.verdict === undefined) {
      const opened = open(world, loaded.stored);
      const saved = saveHeadless(world, withStep(headless, index, moveStep(step, 'begin', world.clock.iso())));
      const value = envelope({ stored: opened.value, headless: saved }, index, world.clock.now());
      return { value: { ...value, liveness: action.payload }, explanations: [...opened.explanations, ...action.explanations] };
    }
    recordStepResults(world, sessionId, action.verdict.analysis, [], world.clock.iso());
    const answer = settleAttempt(world, organizationId, sessionId, index, step, headless, action.verdict.failure, action.explanations);
    return { ...answer, value: { ...answer.value, liveness: action.payload } };
  } finally {
    inFlight.delete(sessionId);
  }
}

function envelope(loaded: Loaded, index: number, nowMs: number): StepSubmissionResponse {
  const step = loaded.headless.steps[index] as HeadlessStep;
  const failure = stepFailure(loaded, step);
  const ended = sessionFailure(loaded, nowMs);
  return {
    step_id: step.step_id,
    step_status: step.status,
    failure_reason: step.failure_reason,
    current_step: currentStep(loaded),
    attempts_remaining: attemptsRemaining(loaded),
    session_status: loaded.stored.record.status,
    session_progress: loaded.stored.record.session_progress,
    ...(failure === undefined ? {} : { failure }),
    ...(ended === undefined ? {} : { session_failure: ended }),
  };
}

/**
 * Records an attempt's verdict: the step completes (and the session finishes after the last step), or
 * the failed attempt is counted on the session (FAILED at the limit) and the step stays open or fails.
 */
function settleAttempt(
  world: World,
  organizationId: string,
  sessionId: string,
  index: number,
  step: HeadlessStep,
  headless: HeadlessSessionRecord,
  failure: StepFailure | undefined,
  explanations: string[],
): Explained<StepSubmissionResponse> {
  const nowIso = world.clock.iso();
  const said = [...explanations];
  let stored = open(world, requireOwnSession(world, organizationId, sessionId)).value;
  let steps: HeadlessSessionRecord;
  if (failure === undefined) {
    const { failure: _cleared, ...passed } = moveStep(step, 'pass', nowIso);
    steps = withStep(headless, index, passed);
    said.push(`${step.step_id} COMPLETED`);
    if (!steps.steps.some((candidate) => isSubmittable(candidate.status))) {
      for (const event of [{ type: 'submit' } as const, { type: 'verify' } as const]) {
        const moved = applyWorkflowSessionEvent(world, stored, event);
        stored = moved.value;
        said.push(...moved.explanations);
      }
    }
  } else {
    const data = failureDataOf(failure);
    const moved = applyWorkflowSessionEvent(world, stored, {
      type: 'attempt_failed',
      attempt: data,
      maxFailedAttempts: headless.maxFailedAttempts,
    });
    stored = moved.value;
    const final = stored.record.status === 'FAILED';
    steps = withStep(headless, index, { ...moveStep(step, final ? 'fail_final' : 'fail_attempt', nowIso, data.reason), failure });
    said.push(`${step.step_id} attempt failed: ${failure.code} (${data.reason} on ${data.slot}: ${failure.detail})`, ...moved.explanations);
  }
  const saved = saveHeadless(world, steps);
  return { value: envelope({ stored, headless: saved }, index, world.clock.now()), explanations: said };
}

/** GET .../workflow for a sandbox key: a finished two-step session, for any id. */
export function syntheticWorkflowState(sessionId: string): Explained<WorkflowState> {
  const at = '2025-12-01T10:00:00.000Z';
  const done = { status: 'COMPLETED' as const, attempts: 1, started_at: at, completed_at: at, failure_reason: null };
  return {
    value: {
      session_id: sessionId,
      status: 'VERIFIED',
      session_progress: 'COMPLETED',
      steps: [
        { step_id: 'ID_VERIFICATION', ...done, requirements: requirementsFor('ID_VERIFICATION', {}) },
        { step_id: 'FACE_LIVENESS', ...done, requirements: requirementsFor('FACE_LIVENESS', {}) },
      ],
      current_step: null,
      attempts_remaining: DEFAULT_MAX_FAILED_ATTEMPTS,
    },
    explanations: ['sandbox key: synthetic workflow state (both steps COMPLETED)'],
  };
}
