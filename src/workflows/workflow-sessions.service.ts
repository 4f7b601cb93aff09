/**
 * The step engine of workflow sessions: POST /v1/workflows/{id}/sessions (headless), GET
 * /v1/sessions/{id}/workflow, POST /v1/sessions/{id}/workflow/start and POST /v1/sessions/{id}/steps/{step_id}
 * for every session created with a workflow — headless ones (ID_VERIFICATION and FACE_LIVENESS only, the
 * spec's restriction) and hosted ones (POST /v1/sessions with workflow_id: every step type in STEP_MODULES).
 *
 * A workflow session is a session record (sessions area) plus its run (workflow-runs.store.ts): each step's
 * status, attempts, timestamps, failure and saved state. Each step type is a module (steps/): the engine
 * validates the body with the module's schema, takes the session's lock, lets the module decide the
 * submission (StepOutcome), lets the attempt script override a verdict, and records the result: analysis
 * members into analysis_data, the step's move (workflow-step.machine.ts) and the session's (the sessions
 * area's machine): session_progress STARTED on the first move, every failed attempt appended to
 * meta_data.failureData (FAILED at the workflow's limit, session_failure ATTEMPTS_EXHAUSTED), a step that
 * ends the run (declined consent) REJECTS the session with meta_data.declinedData (session_failure
 * STEP_BLOCKED), and when the last step completes SUBMITTED then VERIFIED (the checks passed, so the
 * sandbox approves automatically).
 *
 * LIMITATIONS:
 * - Every failed check is a failed attempt the caller may retry until the limit (default 3, or the
 *   workflow's own); apart from a declined consent nothing auto-declines to REJECTED here.
 * - Creating a headless session costs one token, like a hosted one; steps are not billed.
 */
import type { OrganizationFixture } from '../platform/auth/organizations.ts';
import { charge, requireFunds, type FundsPolicy } from '../platform/billing/billing.ts';
import { describeZodError } from '../platform/errors/api-error.ts';
import type { World } from '../platform/namespaces/world.ts';
import type { Explained } from '../platform/explained.ts';
import { DEFAULT_MAX_FAILED_ATTEMPTS } from './session-results.ts';
import { type RunSession, type WorkflowSessions, workflowSessions } from './session-port.ts';
import { parseAttemptScript, requireScriptOf, scriptedVerdict, scriptFromExternalId } from './attempt-scripts.ts';
import { STEP_MODULES, type RegisteredStep, type StepCode } from './steps/index.ts';
import type { StepContext, StepDeps, StepOutcome } from './steps/step-module.ts';
import { stepConflict, workflowError } from './workflow-errors.ts';
import { failureDataOf, toWireFailure, type SessionFailure, type WorkflowFailure } from './workflow-failures.ts';
import type { StepFailure } from './steps/step-module.ts';
import { newRun, saveRun, workflowRuns, type RunStep, type WorkflowRunRecord } from './workflow-runs.store.ts';
import { isSubmittable, moveStep } from './workflow-step.machine.ts';
import { isHeadlessStep, type HeadlessStepCode } from './workflow-steps.ts';
import { requireActiveWorkflow, requireOwnWorkflow } from './workflows.service.ts';
import type { AttemptScriptResponse, CreateWorkflowSessionInput, StepSubmissionResponse, WorkflowSession, WorkflowState } from './workflow-sessions.schemas.ts';
import type { FaceLivenessRequirements, IdVerificationRequirements } from './steps/step-schemas.ts';

type HeadlessRequirements = IdVerificationRequirements | FaceLivenessRequirements;
import { stepCode } from './step-code.ts';
import { findWorkflow } from './workflows.store.ts';

export type { StepDeps } from './steps/step-module.ts';

/** The sessions a run belongs to, through the port the sessions area provides. */
const sessions = (): WorkflowSessions => workflowSessions.get();

// ─── Creation ───────────────────────────────────────────────────────────────────────────────────────

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
  const script = requireScriptOf(input.externalId);
  const { priceTokens } = sessions();
  requireFunds(world, organization, funds, priceTokens);
  const stored = sessions().createHeadless(world, organization, workflow, input, world.clock.iso());
  const run = saveRun(world, newRun(workflow, { id: stored.id, organizationId: organization.id, hosted: false, ...(script === undefined ? {} : { script }) }));
  const remaining = charge(world, organization, funds, priceTokens);
  return {
    value: {
      session_id: stored.id,
      expires_at: stored.record.expires_at ?? null,
      steps: run.steps.map((step) => ({
        step_id: step.step_id as HeadlessStepCode,
        status: step.status,
        requirements: step.requirements as HeadlessRequirements,
      })),
      current_step: 0,
    },
    explanations: [
      `headless session of workflow ${workflow.id} (${run.steps.map((s) => s.step_id).join(', ')}), failed-attempt limit ${run.maxFailedAttempts}; no invitation sent`,
      ...(script === undefined ? [] : [`attempt script "${script.text}" (from external_id)`]),
      `${priceTokens} token charged, balance ${remaining}`,
    ],
  };
}

// ─── State ──────────────────────────────────────────────────────────────────────────────────────────

interface Loaded {
  stored: RunSession;
  run: WorkflowRunRecord;
}

/**
 * The run of a session: the stored one, or for a hosted session stored before runs existed, one derived
 * from its workflow (saved on first use). A session without a workflow has none.
 */
function runFor(world: World, stored: RunSession): WorkflowRunRecord | undefined {
  const run = workflowRuns(world).get(stored.id);
  if (run !== undefined) return run;
  const workflowId = stored.record.workflow_id;
  const workflow = workflowId === undefined ? undefined : findWorkflow(world, stored.record.organization_id, workflowId);
  if (workflow === undefined) return undefined;
  const script = scriptFromExternalId(stored.record.external_id);
  return saveRun(
    world,
    newRun(workflow, { id: stored.id, organizationId: stored.record.organization_id, hosted: true, ...(typeof script === 'object' ? { script } : {}) }),
  );
}

function load(world: World, organizationId: string, sessionId: string): Loaded {
  const stored = sessions().requireOwn(world, organizationId, sessionId);
  const run = runFor(world, stored);
  if (run === undefined) {
    throw workflowError(
      'EXECUTION_STATE_NOT_FOUND',
      `Session ${sessionId} was created without a workflow, so it has no workflow state: create it with POST /v1/sessions and a workflow_id, or with POST /v1/workflows/{workflow_id}/sessions.`,
    );
  }
  return { stored, run };
}

function failedAttempts(stored: RunSession): number {
  return stored.record.meta_data?.failureData?.failedAttempts ?? 0;
}

/** The index of the step to submit next, or null once none is left (all done, or the session ended). */
function currentStep({ stored, run }: Loaded): number | null {
  if (sessions().isTerminal(stored.record.status)) return null;
  const index = run.steps.findIndex((step) => isSubmittable(step.status));
  return index < 0 ? null : index;
}

function attemptsRemaining(loaded: Loaded): number {
  return Math.max(0, loaded.run.maxFailedAttempts - failedAttempts(loaded.stored));
}

/** The wire `failure` of a step whose latest attempt failed a check (retryable while the session is open). */
function stepFailure(loaded: Loaded, step: RunStep): WorkflowFailure | undefined {
  return step.failure === undefined
    ? undefined
    : toWireFailure(step.failure, !sessions().isTerminal(loaded.stored.record.status) && isSubmittable(step.status));
}

/** Why the run ended without being submitted: attempts used up, the session expired, or it was ended with a step open. */
function sessionFailure(loaded: Loaded, nowMs: number): SessionFailure | undefined {
  const { record } = loaded.stored;
  const about = (step: RunStep | undefined) => {
    if (step === undefined) return {};
    const failure = stepFailure(loaded, step);
    return { step_id: step.step_id, ...(failure === undefined ? {} : { failure }) };
  };
  const open = loaded.run.steps.find((step) => isSubmittable(step.status));
  if (record.status === 'FAILED') return { code: 'ATTEMPTS_EXHAUSTED', ...about(loaded.run.steps.find((step) => step.status === 'FAILED') ?? open) };
  if (sessions().isExpired(record, nowMs)) return { code: 'SESSION_EXPIRED', ...about(open) };
  // A step that ended the run (declined consent) blocked it; else the step left open when the session was ended.
  const blocking = loaded.run.steps.find((step) => step.status === 'FAILED') ?? open;
  if ((record.status === 'REJECTED' || record.status === 'VOIDED') && blocking !== undefined) return { code: 'STEP_BLOCKED', ...about(blocking) };
  return undefined;
}

function toState(loaded: Loaded, nowMs: number): WorkflowState {
  const ended = sessionFailure(loaded, nowMs);
  return {
    session_id: loaded.stored.id,
    status: loaded.stored.record.status,
    session_progress: loaded.stored.record.session_progress,
    steps: loaded.run.steps.map(({ config: _config, failure: _failure, state: _state, analysis: _analysis, ...step }) => {
      const failure = stepFailure(loaded, loaded.run.steps.find((candidate) => candidate.step_id === step.step_id) as RunStep);
      return failure === undefined ? step : { ...step, failure };
    }),
    current_step: currentStep(loaded),
    attempts_remaining: attemptsRemaining(loaded),
    ...(ended === undefined ? {} : { session_failure: ended }),
  };
}

export function getWorkflowState(world: World, organizationId: string, sessionId: string): Explained<WorkflowState> {
  const loaded = load(world, organizationId, sessionId);
  const expired = sessions().isExpired(loaded.stored.record, world.clock.now());
  return {
    value: toState(loaded, world.clock.now()),
    explanations: expired ? [`session ${sessionId} expired at ${loaded.stored.record.expires_at as string}: steps are refused`] : [],
  };
}

/** 409 unless steps may move: not terminal, not expired, a step left. Returns the current step's index. */
function requireOpen(world: World, loaded: Loaded): number {
  const { record } = loaded.stored;
  const create = `create a new session with ${loaded.run.hosted === true ? 'POST /v1/sessions' : `POST /v1/workflows/${loaded.run.workflowId}/sessions`}`;
  if (sessions().isTerminal(record.status)) {
    throw stepConflict('SESSION_TERMINAL', `Session ${record.id} is ${record.status} (terminal): no step can be submitted any more; ${create}.`, {
      current_step: null,
    });
  }
  if (sessions().isExpired(record, world.clock.now())) {
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

function withStep(run: WorkflowRunRecord, index: number, step: RunStep): WorkflowRunRecord {
  return { ...run, steps: run.steps.map((existing, i) => (i === index ? step : existing)) };
}

/** session_progress PENDING → STARTED (no change once started). */
function open(world: World, stored: RunSession): Explained<RunSession> {
  return sessions().move(world, stored, { type: 'open' });
}

/**
 * POST /v1/sessions/{id}/workflow/start: validate-only (writes nothing), so repeatable while the session is
 * PENDING and no step was submitted; afterwards, or on a terminal or expired session, 409 SESSION_ALREADY_STARTED.
 */
export function startWorkflow(world: World, organizationId: string, sessionId: string): Explained<WorkflowState> {
  const loaded = load(world, organizationId, sessionId);
  const { record } = loaded.stored;
  const nowMs = world.clock.now();
  const why = sessions().isTerminal(record.status)
    ? `is ${record.status} (terminal)`
    : sessions().isExpired(record, nowMs)
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

function parseBody<T>(schema: { safeParse(value: unknown): { success: true; data: T } | { success: false; error: import('zod').ZodError } }, body: unknown): T {
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw workflowError('VALIDATION_ERROR', describeZodError(parsed.error, 'json'));
  return parsed.data;
}

/** The module of the step the path names, if the session may take it now; else the refusal that says why. */
function requireCurrent(loaded: Loaded, code: StepCode, currentIndex: number): RegisteredStep {
  const { id } = loaded.stored;
  const steps = loaded.run.steps;
  const current = steps[currentIndex] as RunStep;
  const hosted = loaded.run.hosted === true;
  const module = STEP_MODULES[code];
  if (!hosted && !isHeadlessStep(code)) {
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
  if (targetIndex === currentIndex) return module;
  const target = steps[targetIndex] as RunStep;
  if (!isSubmittable(target.status)) {
    throw stepConflict(
      'STEP_NOT_SUBMITTABLE',
      `${code} is ${target.status} on session ${id}: it cannot be submitted again; submit ${current.step_id} (step ${currentIndex}) next.`,
      { current_step: currentIndex, step_id: code },
    );
  }
  throw stepConflict(
    'STEP_OUT_OF_ORDER',
    `${code} is ${target.status} on session ${id}, and steps go in order: submit ${current.step_id} (step ${currentIndex}) next.`,
    { current_step: currentIndex, step_id: current.step_id },
  );
}

function contextFor(world: World, loaded: Loaded, index: number, deps: StepDeps): StepContext {
  const { stored, run } = loaded;
  const step = run.steps[index] as RunStep;
  const legacyLiveness = step.step_id === 'FACE_LIVENESS' && step.state === undefined ? run.liveness : undefined;
  return {
    world,
    organizationId: run.organizationId,
    sessionId: stored.id,
    index,
    attempt: failedAttempts(stored) + 1,
    nowIso: world.clock.iso(),
    hosted: run.hosted === true,
    applicant: {
      first_name: stored.user.first_name,
      last_name: stored.user.last_name,
      ...(stored.user.email === undefined ? {} : { email: stored.user.email }),
      ...(stored.user.phone === undefined ? {} : { phone: stored.user.phone }),
      ...(stored.record.external_id === undefined ? {} : { external_id: stored.record.external_id }),
    },
    config: step.config,
    state: step.state ?? legacyLiveness,
    earlier: (code) => {
      const found = run.steps.slice(0, index).find((candidate) => candidate.step_id === code);
      if (found === undefined) return undefined;
      return {
        status: found.status,
        ...(found.state === undefined ? {} : { state: found.state }),
        ...(found.analysis === undefined ? {} : { analysis: found.analysis }),
      };
    },
    deps,
  };
}

/** The script's verdict replaces the content's (a pass or a failure); a "progress" outcome decides nothing. */
function scripted(run: WorkflowRunRecord, module: RegisteredStep, step: RunStep, outcome: StepOutcome): StepOutcome {
  if (outcome.kind === 'progress') return outcome;
  const verdict = scriptedVerdict(run.script, module.code, step.attempts, Object.keys(module.failures));
  if (verdict === undefined) return outcome;
  const { state, analysis, payload, requirements } = outcome;
  const kept = {
    ...(state === undefined ? {} : { state }),
    ...(analysis === undefined ? {} : { analysis }),
    ...(payload === undefined ? {} : { payload }),
    ...(requirements === undefined ? {} : { requirements }),
    explanations: [verdict.said, ...outcome.explanations],
  };
  if (verdict.failure === null) return { kind: 'passed', ...kept };
  return { kind: 'failed', failure: verdict.failure, ...kept };
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
  const module = requireCurrent(before, requested, index);
  const code = module.code;
  const inFlight = running.get(world) ?? new Set<string>();
  running.set(world, inFlight);
  if (inFlight.has(sessionId)) {
    throw stepConflict(
      'STEP_CONFLICT',
      `A submission of ${code} on session ${sessionId} is still running: wait for its response, then read GET /v1/sessions/${sessionId}/workflow.`,
      { current_step: index, step_id: code },
    );
  }
  // Validate before taking the lock: a bad body never blocks anyone.
  const parsed = parseBody(module.body, body);
  inFlight.add(sessionId);
  try {
    const outcome = await module.run(contextFor(world, before, index, deps), parsed);
    const loaded = load(world, organizationId, sessionId);
    requireOpen(world, loaded);
    const step = loaded.run.steps[index] as RunStep;
    const decided = scripted(loaded.run, module, step, outcome);
    const nowIso = world.clock.iso();
    const analysis = decided.analysis ?? {};
    const uploadedSlots = decided.kind === 'progress' ? [] : (decided.uploadedSlots ?? []);
    const recorded =
      Object.keys(analysis).length > 0 || uploadedSlots.length > 0
        ? sessions().recordStepResults(world, sessionId, analysis, uploadedSlots, nowIso)
        : loaded.stored;
    const updated: RunStep = {
      ...step,
      ...(decided.state === undefined ? {} : { state: decided.state }),
      ...(decided.requirements === undefined ? {} : { requirements: decided.requirements }),
      ...(decided.analysis === undefined ? {} : { analysis: { ...step.analysis, ...decided.analysis } }),
    };
    const { liveness: _moved, ...run } = loaded.run;
    const payload = decided.payload ?? {};
    if (decided.kind === 'progress') {
      const opened = open(world, recorded);
      const saved = saveRun(world, withStep(run, index, moveStep(updated, 'begin', nowIso)));
      const value = envelope({ stored: opened.value, run: saved }, index, world.clock.now());
      return { value: { ...value, ...payload }, explanations: [...opened.explanations, ...decided.explanations], facts: opened.facts ?? [] };
    }
    const answer = settleAttempt(world, { stored: recorded, run }, index, updated, decided.kind === 'failed' ? decided : undefined, decided.explanations);
    const effects = decided.kind === 'passed' && decided.onPassed !== undefined ? decided.onPassed() : [];
    return {
      value: { ...answer.value, ...payload },
      explanations: [...answer.explanations, ...effects],
      facts: answer.facts ?? [],
    };
  } finally {
    inFlight.delete(sessionId);
  }
}

function envelope(loaded: Loaded, index: number, nowMs: number): StepSubmissionResponse {
  const step = loaded.run.steps[index] as RunStep;
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
 * the failed attempt is counted on the session (FAILED at the limit) and the step stays open or fails, or
 * the step ends the run (the session is REJECTED with declinedData).
 */
function settleAttempt(
  world: World,
  { stored: current, run }: Loaded,
  index: number,
  step: RunStep,
  failed: { failure: StepFailure; endsRun?: boolean } | undefined,
  explanations: string[],
): Explained<StepSubmissionResponse> {
  const nowIso = world.clock.iso();
  const said = [...explanations];
  const opened = open(world, current);
  const facts = [...(opened.facts ?? [])];
  let stored = opened.value;
  let steps: WorkflowRunRecord;
  if (failed === undefined) {
    const { failure: _cleared, ...passed } = moveStep(step, 'pass', nowIso);
    steps = withStep(run, index, passed);
    said.push(`${step.step_id} COMPLETED`);
    if (!steps.steps.some((candidate) => isSubmittable(candidate.status))) {
      for (const event of [{ type: 'submit' } as const, { type: 'verify' } as const]) {
        const moved = sessions().move(world, stored, event);
        stored = moved.value;
        said.push(...moved.explanations);
        facts.push(...(moved.facts ?? []));
      }
    }
  } else if (failed.endsRun === true) {
    const { failure } = failed;
    const data = failureDataOf(failure);
    const moved = sessions().move(world, stored, {
      type: 'auto_decline',
      declinedData: {
        declined: true,
        score: 0,
        declinedAt: nowIso,
        reason: { code: failure.code, detail: failure.detail, slot: step.step_id, severity: 'CRITICAL' },
      },
    });
    stored = moved.value;
    facts.push(...(moved.facts ?? []));
    steps = withStep(run, index, { ...moveStep(step, 'end_run', nowIso, data.reason), failure });
    said.push(`${step.step_id} ended the run: ${failure.code} (${failure.detail}); session REJECTED`, ...moved.explanations);
  } else {
    const { failure } = failed;
    const data = failureDataOf(failure);
    const moved = sessions().move(world, stored, { type: 'attempt_failed', attempt: data, maxFailedAttempts: run.maxFailedAttempts });
    stored = moved.value;
    facts.push(...(moved.facts ?? []));
    const final = stored.record.status === 'FAILED';
    steps = withStep(run, index, { ...moveStep(step, final ? 'fail_final' : 'fail_attempt', nowIso, data.reason), failure });
    said.push(`${step.step_id} attempt failed: ${failure.code} (${data.reason} on ${data.slot}: ${failure.detail})`, ...moved.explanations);
  }
  const saved = saveRun(world, steps);
  return { value: envelope({ stored, run: saved }, index, world.clock.now()), explanations: said, facts };
}

/** The attempt script in force on a session's workflow run (null: none), or undefined for a session without a workflow. */
export function attemptScriptOf(world: World, sessionId: string): string | null | undefined {
  const stored = sessions().find(world, sessionId);
  const run = stored === undefined ? undefined : runFor(world, stored);
  return run === undefined ? undefined : (run.script?.text ?? null);
}

/** PUT /__sandbox/sessions/{id}/attempt-script: any organization's workflow session of the namespace. */
export function setAttemptScript(world: World, sessionId: string, text: string | null): Explained<AttemptScriptResponse> {
  const stored = sessions().find(world, sessionId);
  if (stored === undefined) {
    throw workflowError(
      'SESSION_NOT_FOUND',
      `Session ${sessionId} was not found in namespace "${world.namespace}": create it first with POST /v1/sessions (workflow_id) or POST /v1/workflows/{id}/sessions.`,
    );
  }
  const loaded = load(world, stored.record.organization_id, sessionId);
  const script = text === null ? undefined : parseAttemptScript(text);
  if (typeof script === 'string') throw workflowError('VALIDATION_ERROR', `Invalid request: script does not parse: ${script}.`);
  const { script: _replaced, ...rest } = loaded.run;
  const run = saveRun(world, script === undefined ? rest : { ...rest, script });
  return {
    value: { session_id: sessionId, script: script?.text ?? null, workflow_state: toState({ stored: loaded.stored, run }, world.clock.now()) },
    explanations: [
      script === undefined ? `session ${sessionId}: attempt script removed, the content decides` : `session ${sessionId}: attempt script "${script.text}"`,
    ],
  };
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
        { step_id: 'ID_VERIFICATION', ...done, requirements: STEP_MODULES.ID_VERIFICATION.requirements({}) },
        { step_id: 'FACE_LIVENESS', ...done, requirements: STEP_MODULES.FACE_LIVENESS.requirements({}) },
      ],
      current_step: null,
      attempts_remaining: DEFAULT_MAX_FAILED_ATTEMPTS,
    },
    explanations: ['sandbox key: synthetic workflow state (both steps COMPLETED)'],
  };
}
