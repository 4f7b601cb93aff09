/**
 * What each of the service's two clients requires of the workflow bodies, written once as data
 * (mobile-client-facts §1, real-client-facts §6.9): per shape and key, `req` (present and non-null),
 * `nullable` (present, may be null), `opt` (may be absent; the iOS client also takes null, the TypeScript
 * client does not). `conformsTo` checks a body against one client's column.
 */
import { expect } from 'vitest';

export type Presence = 'req' | 'nullable' | 'opt';
export type ClientName = 'ios' | 'ts';

/** key → presence, per client (a key missing from a client's column is not read by it). */
type Shape = Record<ClientName, Record<string, Presence>>;

export const CLIENT_KEYS = {
  WorkflowSession: {
    ios: { session_id: 'req', expires_at: 'opt', steps: 'req', current_step: 'opt' },
    ts: { session_id: 'req', expires_at: 'nullable', steps: 'req', current_step: 'req' },
  },
  WorkflowState: {
    ios: { session_id: 'req', status: 'req', session_progress: 'req', steps: 'req', current_step: 'opt', attempts_remaining: 'opt', session_failure: 'opt' },
    ts: { session_id: 'req', status: 'req', session_progress: 'req', steps: 'req', current_step: 'nullable', attempts_remaining: 'nullable' },
  },
  WorkflowStateStep: {
    ios: { step_id: 'req', status: 'req', attempts: 'req', started_at: 'opt', completed_at: 'opt', failure_reason: 'opt', requirements: 'req', failure: 'opt' },
    ts: { step_id: 'req', status: 'req', attempts: 'req', started_at: 'nullable', completed_at: 'nullable', failure_reason: 'nullable', requirements: 'req' },
  },
  StepSubmission: {
    ios: {
      step_id: 'req',
      step_status: 'req',
      session_status: 'req',
      session_progress: 'req',
      failure_reason: 'opt',
      current_step: 'opt',
      attempts_remaining: 'opt',
      failure: 'opt',
      session_failure: 'opt',
    },
    ts: {
      step_id: 'req',
      step_status: 'req',
      failure_reason: 'nullable',
      current_step: 'nullable',
      attempts_remaining: 'nullable',
      session_status: 'req',
      session_progress: 'req',
    },
  },
  LivenessStart: {
    ios: { liveness_session_id: 'req', script: 'req' },
    ts: { liveness_session_id: 'req', region: 'req', credentials: 'req', expires_at: 'req' },
  },
  LivenessScript: { ios: { challengeType: 'req', durationMs: 'req', steps: 'req' }, ts: { challengeType: 'req', durationMs: 'req', steps: 'req' } },
  LivenessUploadUrls: {
    ios: { frame_upload_urls: 'req', frame_keys: 'req', timeline_upload_url: 'req', timeline_key: 'req', clip_upload_url: 'opt', clip_key: 'opt' },
    ts: { frame_upload_urls: 'req' },
  },
  LivenessResult: { ios: { status: 'req', confidence: 'opt', passed: 'req' }, ts: { status: 'req', passed: 'req' } },
  WorkflowFailure: {
    ios: { code: 'req', category: 'req', user_action: 'req', retryable: 'req', slot: 'opt', message: 'req' },
    ts: {},
  },
  SessionFailure: { ios: { code: 'req', step_id: 'opt', failure: 'opt' }, ts: {} },
  Conflict: { ios: { error: 'req', code: 'req', current_step: 'nullable', step_id: 'opt', failure_reason: 'opt' }, ts: { error: 'req' } },
  WorkflowError: { ios: { error: 'req', code: 'req' }, ts: { error: 'req' } },
} as const satisfies Record<string, Shape>;

export type ShapeName = keyof typeof CLIENT_KEYS;

/** Problems of `body` for one client's column of `shape` (empty when it decodes). */
export function keyProblems(shape: ShapeName, client: ClientName, body: unknown): string[] {
  if (typeof body !== 'object' || body === null) return [`${shape}: not an object`];
  const record = body as Record<string, unknown>;
  const rules: Record<string, Presence> = CLIENT_KEYS[shape][client];
  const problems: string[] = [];
  for (const [key, presence] of Object.entries(rules)) {
    const present = key in record;
    const value = record[key];
    if (presence === 'req' && (!present || value === null)) problems.push(`${shape}.${key} must be present and non-null for ${client}`);
    if (presence === 'nullable' && !present) problems.push(`${shape}.${key} must be present (null allowed) for ${client}`);
    if (presence === 'opt' && client === 'ts' && present && value === null) problems.push(`${shape}.${key} must be absent rather than null for ${client}`);
  }
  return problems;
}

/** Asserts that both clients decode `body` as `shape`. */
export function expectBothDecode(shape: ShapeName, body: unknown): void {
  expect([...keyProblems(shape, 'ios', body), ...keyProblems(shape, 'ts', body)]).toEqual([]);
}

/** A workflow state: the state, every step (and its failure when present) and the session failure. */
export function expectStateDecodes(body: { steps: unknown[]; session_failure?: unknown }): void {
  expectBothDecode('WorkflowState', body);
  for (const step of body.steps) {
    expectBothDecode('WorkflowStateStep', step);
    const failure = (step as { failure?: unknown }).failure;
    if (failure !== undefined) expectBothDecode('WorkflowFailure', failure);
  }
  if (body.session_failure !== undefined) expectBothDecode('SessionFailure', body.session_failure);
}
