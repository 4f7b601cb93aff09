/**
 * One workflow step type as one module: the client's submission body (validator, TS type and OpenAPI doc
 * in one zod schema), whether a headless session may run it, the requirements GET …/workflow shows, every
 * failure code it can give, and `run`, which decides one submission by calling the area that owns the
 * check (face, document, deepfake, phone, screening…) — a step never copies an engine.
 *
 * The step engine (workflow-sessions.service.ts) owns everything around `run`: order, the 409s, the lock,
 * attempt counting and the attempt limit, attempt scripts, the session's status, analysis_data, the
 * response envelope and the coverage notes. A module only says what this submission did (StepOutcome).
 *
 * The module also owns everything else a step type brings: its config rules, its failure rows (what the
 * client reads in `failure`), its own 409 codes and the form the hosted page shows for it. The tables the
 * rest of the code reads (WORKFLOW_FAILURES, WORKFLOW_ERROR_CODES, the config schemas, the hosted forms)
 * are derived from the registry (steps/index.ts), so a new step type is one module plus its registry line.
 */
import type { z } from '@hono/zod-openapi';
import type { JobEngine, JobFate } from '../../platform/jobs/jobs.ts';
import type { World } from '../../platform/namespaces/world.ts';
import type { FailureReason, FailureSlot } from '../session-results.ts';
import type { StepStatus } from './step-schemas.ts';
import type { StepForm } from './hosted-forms.ts';

export const FAILURE_CATEGORIES = ['DOCUMENT', 'SELFIE', 'FACE_MATCH', 'LIVENESS', 'OTHER'] as const;
export const USER_ACTIONS = ['RETAKE_DOCUMENT', 'USE_DIFFERENT_DOCUMENT', 'RETAKE_SELFIE', 'RETRY_LIVENESS', 'RETRY_STEP', 'NONE'] as const;

/** One failure code of a step as the client reads it (the step that gives it is the module's own code). */
export interface FailureRow {
  category: (typeof FAILURE_CATEGORIES)[number];
  user_action: (typeof USER_ACTIONS)[number];
  /** The meta_data.failureData reason the attempt is recorded under. */
  reason: FailureReason;
  /** Real content that triggers it. */
  content: string;
  /** The applicant last name that forces it (null: reached from content or other magic only). */
  magicLastName: string | null;
  message: string;
}

/** An attempt's failure as a step decides it: the code (a key of the module's `failures`), the measured detail and the document slot. */
export interface StepFailure {
  code: string;
  /** failureData reason when it differs from the row's (UNKNOWN covers several). */
  reason?: FailureReason;
  slot: FailureSlot;
  detail: string;
}

/** The failure code a magic last name forces among a step's rows, if any (UNKNOWN is reached from content only). */
export function magicFailureCode(failures: Readonly<Record<string, FailureRow>>, lastName: string): string | undefined {
  const wanted = lastName.trim().toLowerCase();
  return Object.keys(failures).find((code) => code !== 'UNKNOWN' && failures[code]?.magicLastName?.toLowerCase() === wanted);
}

/** Reads the bytes behind a file key for the session's organization (ApiError 403/404 otherwise). */
export type UploadReader = (fileKey: string) => Promise<Buffer>;

/** A presigned upload of the session (owner `session:<id>`), through the platform's upload store. */
export interface PresignedUpload {
  fileKey: string;
  uploadUrl: string;
  expiresAt: string;
}

/** What a step may use besides the world: the request-bound pieces (public URL aware). */
export interface StepDeps {
  readUpload: UploadReader;
  /** Presigns one upload; `owner` is sessionUploadOwner(sessionId), `slot` names what the file is. */
  presign: (request: { contentType: string; owner: string; slot: string }) => PresignedUpload;
  /** The public base URL of the server (links in messages, pages). */
  publicBaseUrl: string;
  /** The platform's async-job engine (ADVERSE_MEDIA and BACKGROUND_CHECK queue the screening area's job). */
  jobs: JobEngine;
  /** The fate of a job this submission queues (the async-jobs-* scenarios); asking counts the scenario as fired. */
  jobFate: () => JobFate;
}

/** The applicant as the session record holds them (magic values read last_name). */
export interface StepApplicant {
  first_name: string;
  last_name: string;
  email?: string;
  phone?: string;
  external_id?: string;
}

/** What an earlier step of the same run left: its status, what it saved and the analysis it recorded. */
export interface EarlierStep {
  status: StepStatus;
  state?: Record<string, unknown>;
  analysis?: Record<string, unknown>;
}

export interface StepContext {
  world: World;
  organizationId: string;
  sessionId: string;
  /** The step's index in the workflow (409 bodies carry it as current_step). */
  index: number;
  /** 1-based number of the attempt this submission decides (failed attempts so far + 1). */
  attempt: number;
  nowIso: string;
  /** true for a session created with POST /v1/sessions (hosted page), false for a headless one. */
  hosted: boolean;
  applicant: StepApplicant;
  /** This step's resolved config in the workflow. */
  config: Record<string, unknown>;
  /** What this step saved on its earlier submissions of the run (e.g. start → complete); undefined at first. */
  state: Record<string, unknown> | undefined;
  /** An earlier step of the run, or undefined when the workflow has none of that type. */
  earlier(code: string): EarlierStep | undefined;
  deps: StepDeps;
}

interface OutcomeCommon {
  /** Replaces the step's saved state (kept when absent). */
  state?: Record<string, unknown>;
  /**
   * Members merged into the session record's analysis_data. ID_VERIFICATION and FACE_LIVENESS write the
   * spec's own members; every other step writes one member named after itself in snake case (e.g.
   * `age_estimation`), so steps never overwrite each other.
   */
  analysis?: Record<string, unknown>;
  /** Extra top-level keys of the step-submit response (e.g. `liveness`, `deepfake`, `checks`). */
  payload?: Record<string, unknown>;
  /** Replaces the step's `requirements` (what the submission settled, e.g. a front-only document type). */
  requirements?: Record<string, unknown>;
  /** Sentences for X-Sandbox-Explain: what was measured and why this outcome. */
  explanations: string[];
}

/** Started or moved on, no verdict yet: the step is IN_PROGRESS and no attempt is counted ("start"). */
export interface ProgressOutcome extends OutcomeCommon {
  kind: 'progress';
  state: Record<string, unknown>;
}

export interface PassedOutcome extends OutcomeCommon {
  kind: 'passed';
  /** The record's uploads flags this submission fills (ID_VERIFICATION's slots). */
  uploadedSlots?: string[];
  /**
   * Side effects that happen only when the pass stands (an attempt script may turn it into a failure):
   * e.g. enrolling the selfie in the face registry. Returns explanation sentences.
   */
  onPassed?: () => string[];
}

export interface FailedOutcome extends OutcomeCommon {
  kind: 'failed';
  failure: StepFailure;
  /** The run ends now whatever attempts are left (declined consent): the step is FAILED, the session REJECTED. */
  endsRun?: boolean;
  uploadedSlots?: string[];
}

export type StepOutcome = ProgressOutcome | PassedOutcome | FailedOutcome;

export interface StepModule<Body = unknown> {
  code: string;
  /** One line: what the step checks (catalog, console, docs table, OpenAPI). */
  summary: string;
  /**
   * The client's submission body (the real client's per-step body; unknown keys refused). Name it
   * .openapi('<PascalCode>StepBody'), e.g. 'ConsentStepBody': the OpenAPI union refers to that name.
   */
  body: z.ZodType<Body>;
  /** true only for ID_VERIFICATION and FACE_LIVENESS (the spec's headless restriction). */
  headless: boolean;
  /** GET …/workflow's `requirements` of the step, from its resolved config. */
  requirements(config: Record<string, unknown>): Record<string, unknown>;
  /**
   * Every failure code the step can give, with its row: WORKFLOW_FAILURES, coverage and docs are derived
   * from these. A code several steps give (CARRIER_UNAVAILABLE) is one shared row object in each.
   */
  failures: Readonly<Record<string, FailureRow>>;
  /** The step's own 409 codes (409 `code` → when it is answered); the engine's codes are in workflow-errors.ts. */
  conflicts?: Readonly<Record<string, string>>;
  /** What the hosted page shows for the step and how its post becomes this body. */
  hostedForm: StepForm;
  /** Decides one submission. Throws ApiError for refusals (400 bad input, stepConflict 409 "not ready"). */
  run(context: StepContext, body: Body): Promise<StepOutcome> | StepOutcome;
}

/** Declares a module with its body type inferred from the schema. */
export function defineStep<Body>(module: StepModule<Body>): StepModule<Body> {
  return module;
}
