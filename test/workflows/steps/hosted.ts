/** Helpers of the step-type tests: a hosted workflow session (POST /v1/sessions with workflow_id) and its step submissions. */
import { expect } from 'vitest';
import { KEYS, type TestSandbox } from '../../helpers/sandbox.ts';
import { createWorkflow, submit } from '../helpers.ts';

/** The applicant of a hosted session; the phone is the happy-path magic number of the carrier checks. */
export const HOSTED_APPLICANT = { email: 'jane.doe@example.com', first_name: 'Jane', last_name: 'Doe', phone: '+447700900001' };

/** A workflow of `steps` and a hosted session on it; returns the session id. */
export async function hostedSession(sandbox: TestSandbox, steps: string[], applicant: Record<string, unknown> = HOSTED_APPLICANT): Promise<string> {
  const workflowId = await createWorkflow(
    sandbox,
    steps.map((id) => ({ id })),
  );
  const response = await sandbox.call('POST', '/v1/sessions', { key: KEYS.live, body: { ...applicant, workflow_id: workflowId, send_email_invite: false, send_phone_invite: false } });
  expect(response.status, response.text).toBe(200);
  return response.body.id as string;
}

/** Submits and expects 200; returns the envelope. */
export async function submitOk(sandbox: TestSandbox, sessionId: string, stepId: string, body: unknown): Promise<any> {
  const answer = await submit(sandbox, sessionId, stepId, body);
  expect(answer.status, answer.text).toBe(200);
  return answer.body;
}

export async function sessionRecord(sandbox: TestSandbox, sessionId: string): Promise<any> {
  const response = await sandbox.call('GET', `/v1/sessions/${sessionId}`);
  expect(response.status, response.text).toBe(200);
  return response.body.session_record;
}

export async function workflowState(sandbox: TestSandbox, sessionId: string): Promise<any> {
  const response = await sandbox.call('GET', `/v1/sessions/${sessionId}/workflow`);
  expect(response.status, response.text).toBe(200);
  return response.body;
}

export async function advanceClock(sandbox: TestSandbox, ms: number): Promise<void> {
  const response = await sandbox.call('POST', '/__sandbox/clock', { key: null, body: { advance: ms } });
  expect(response.status, response.text).toBe(200);
}

/** A headless session (ID_VERIFICATION only) refuses the step type: 400 STEP_NOT_RUNNABLE, nothing stored. */
export async function expectHeadlessRefusal(sandbox: TestSandbox, stepId: string, body: unknown): Promise<void> {
  const workflowId = await createWorkflow(sandbox, [{ id: 'ID_VERIFICATION' }]);
  const created = await sandbox.call('POST', `/v1/workflows/${workflowId}/sessions`, {
    body: { email: 'jane.doe@example.com', first_name: 'Jane', last_name: 'Doe', phone: '+447700900001' },
  });
  expect(created.status, created.text).toBe(200);
  const sessionId = created.body.session_id as string;
  const before = await workflowState(sandbox, sessionId);
  const answer = await submit(sandbox, sessionId, stepId, body);
  expect(answer.status, answer.text).toBe(400);
  expect(answer.body.code).toBe('STEP_NOT_RUNNABLE');
  expect(answer.body.error).toContain(stepId);
  expect(await workflowState(sandbox, sessionId)).toEqual(before);
}

/** A bad body: 400 VALIDATION_ERROR naming the client's field, and neither the run nor the record changed. */
export async function expectBadBody(sandbox: TestSandbox, sessionId: string, stepId: string, body: unknown, field: string): Promise<void> {
  const [state, record] = [await workflowState(sandbox, sessionId), await sessionRecord(sandbox, sessionId)];
  const answer = await submit(sandbox, sessionId, stepId, body);
  expect(answer.status, answer.text).toBe(400);
  expect(answer.body.code).toBe('VALIDATION_ERROR');
  expect(answer.body.error).toContain(field);
  expect(await workflowState(sandbox, sessionId)).toEqual(state);
  expect(await sessionRecord(sandbox, sessionId)).toEqual(record);
}

/** A failed attempt with attempts left: the step stays open (IN_PROGRESS), the session PENDING, one attempt spent. */
export function expectFailedAttempt(envelope: any, code: string): void {
  expect(envelope, JSON.stringify(envelope)).toMatchObject({
    step_status: 'IN_PROGRESS',
    session_status: 'PENDING',
    attempts_remaining: 2,
    failure: { code, category: 'OTHER', retryable: true, slot: null },
  });
}

/** A failure that ends the run: the step FAILED, the session REJECTED, nothing left to submit. */
export function expectRunEnded(envelope: any, code: string): void {
  expect(envelope, JSON.stringify(envelope)).toMatchObject({
    step_status: 'FAILED',
    session_status: 'REJECTED',
    current_step: null,
    failure: { code, category: 'OTHER', retryable: false, user_action: 'NONE' },
  });
}
