/** Helpers of the sessions route tests: create, drive and read sessions through HTTP. */
import { expect } from 'vitest';
import {
  CreateSessionResponseSchema,
  SingleSessionResponseSchema,
  type CreateSessionResponse,
  type SingleSessionResponse,
} from '../../src/sessions/sessions.schemas.ts';
import { FIXTURE_WORKFLOW_IDS } from '../../src/workflows/workflows.store.ts';
import { KEYS, type CallOptions, type TestSandbox } from '../helpers/sandbox.ts';
import { forbiddenNullPaths } from './helpers.ts';

export const WORKFLOWS = FIXTURE_WORKFLOW_IDS;
export const BASE = 'http://127.0.0.1:4010';
export const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
export const HOUR = 3_600_000;

export const JANE = { firstName: 'Jane', lastName: 'Doe', email: 'jane.doe@example.com' } as const;

/**
 * Asserts no null and no undefined anywhere in a response body, except where the contract makes a key
 * nullable: title_search_data's members and the list's next_token.
 */
export function expectNoNulls(body: unknown): void {
  expect(forbiddenNullPaths(body, '$', ['title_search_data', 'next_token'])).toEqual([]);
}

/** POST /v1/sessions that must succeed; returns the parsed response. */
export async function createSession(sandbox: TestSandbox, body: Record<string, unknown> = JANE, options: CallOptions = {}): Promise<CreateSessionResponse> {
  const response = await sandbox.call('POST', '/v1/sessions', { body, ...options });
  expect(response.status, response.text).toBe(200);
  expectNoNulls(response.body);
  return CreateSessionResponseSchema.parse(response.body);
}

/** GET /v1/sessions/{id} that must succeed; returns the parsed body. */
export async function getSession(sandbox: TestSandbox, id: string, options: CallOptions = {}): Promise<SingleSessionResponse> {
  const response = await sandbox.call('GET', `/v1/sessions/${encodeURIComponent(id)}`, options);
  expect(response.status, response.text).toBe(200);
  expectNoNulls(response.body);
  const parsed = SingleSessionResponseSchema.parse(response.body);
  expect(parsed).toEqual(response.body);
  return parsed;
}

/** POST /__sandbox/sessions/{id}/outcome (no API key). */
export function drive(sandbox: TestSandbox, id: string, body: Record<string, unknown>, options: CallOptions = {}) {
  return sandbox.call('POST', `/__sandbox/sessions/${encodeURIComponent(id)}/outcome`, { key: null, body, ...options });
}

/** Every session of org_demo, through the API (by_organization). */
export async function listAll(sandbox: TestSandbox, options: CallOptions = {}): Promise<string[]> {
  const response = await sandbox.call('GET', '/v1/sessions?by_organization=true&limit=500', options);
  expect(response.status).toBe(200);
  return (response.body.sessions as { id: string }[]).map((s) => s.id);
}

export async function balanceOf(sandbox: TestSandbox, organizationId = 'org_demo', options: CallOptions = {}): Promise<number> {
  const response = await sandbox.call('GET', '/__sandbox/organizations', { key: null, ...options });
  return (response.body.organizations as { id: string; balance: number }[]).find((o) => o.id === organizationId)?.balance ?? Number.NaN;
}

/** The path and query of an absolute sandbox URL, for app.request(). */
export function local(url: string): string {
  const parsed = new URL(url);
  expect(parsed.origin).toBe(BASE);
  return parsed.pathname + parsed.search;
}

/** GET the hosted page of a session_url. */
export async function openPage(sandbox: TestSandbox, sessionUrl: string) {
  const response = await sandbox.app.request(local(sessionUrl));
  return { status: response.status, html: await response.text(), headers: response.headers };
}

/** The form action of the page (all buttons post to the same URL). */
export function actionOf(html: string): string {
  const match = /<form method="post" action="([^"]+)"/.exec(html);
  expect(match, 'the page has a form').not.toBeNull();
  return (match?.[1] ?? '').replace(/&amp;/g, '&');
}

/** Presses a button of the page: POST the form as a browser would. */
export async function press(sandbox: TestSandbox, actionUrl: string, outcome: string, headers: Record<string, string> = {}) {
  const response = await sandbox.app.request(local(actionUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams({ outcome }).toString(),
  });
  return { status: response.status, location: response.headers.get('location'), html: await response.text(), headers: response.headers };
}

export { KEYS };

/** The callback address of the hosted-page tests' sessions (its own query is kept by the callback). */
export const CALLBACK = 'https://example.com/kyc/done?order=77';

/** The callback query of a 303, as a plain object (and checks the target is CALLBACK's address). */
export function callbackOf(location: string | null): Record<string, string> {
  expect(location).not.toBeNull();
  const url = new URL(location as string);
  expect(`${url.origin}${url.pathname}`).toBe('https://example.com/kyc/done');
  return Object.fromEntries(url.searchParams);
}
