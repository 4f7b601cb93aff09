/**
 * Test harness: every test builds its own in-process sandbox (memory store, frozen clock, fixed seed)
 * and talks to it through `app.request()`, with no socket. Its areas are evaluated on first use, as the
 * CLI's are: every test also checks that an area answers whatever was loaded before it.
 */
import { loadAllAreas } from '../../src/app.ts';
import { createSandbox, type Sandbox, type SandboxOptions } from '../../src/sandbox.ts';
import { recordExercisedResponse } from './response-coverage.ts';

export const FROZEN_AT = '2026-01-15T09:30:00.000Z';

export const KEYS = {
  live: 'sk_live_demo',
  sandbox: 'sk_test_demo',
  other: 'sk_live_other',
  broke: 'sk_live_broke',
  revoked: 'sk_live_revoked',
} as const;

export interface CallOptions {
  key?: string | null;
  body?: unknown;
  /** Raw body text (overrides body). */
  raw?: string;
  headers?: Record<string, string>;
  namespace?: string;
}

export interface CallResult<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface TestSandbox extends Sandbox {
  call<T = any>(method: string, path: string, options?: CallOptions): Promise<CallResult<T>>;
  /** The token the hosted page of record `id` carries in its link, for asserting a returned link exactly. */
  pageToken(id: string, namespace?: string): string;
}

/** Every sandbox of the suite checks its answers against the declared responses (of each answer's own area, loaded by then) and records what it answered. */
export const STRICT_RESPONSES = { strictResponses: true, responseRecorder: recordExercisedResponse } satisfies SandboxOptions;

export async function testSandbox(options: SandboxOptions = {}): Promise<TestSandbox> {
  const sandbox = await createSandbox({
    port: null,
    memory: true,
    seed: 42,
    clock: `frozen@${FROZEN_AT}`,
    logger: silentLogger,
    ...STRICT_RESPONSES,
    ...options,
  });
  const call = async (method: string, path: string, options: CallOptions = {}) => {
    const headers: Record<string, string> = { ...options.headers };
    const key = options.key === undefined ? KEYS.live : options.key;
    if (key !== null) headers['x-api-key'] = key;
    if (options.namespace) headers['x-sandbox-namespace'] = options.namespace;
    let body: string | undefined;
    if (options.raw !== undefined) body = options.raw;
    else if (options.body !== undefined) body = JSON.stringify(options.body);
    if (body !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) headers['content-type'] = 'application/json';
    const response = await sandbox.app.request(path, { method, headers, body });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // not JSON: keep the text
    }
    return { status: response.status, headers: response.headers, body: parsed as any, text };
  };
  const pageToken = (id: string, namespace?: string) => sandbox.platform.worlds.get(namespace).pageToken(id);
  return Object.assign(sandbox, { call, pageToken });
}

/** A sandbox with every area loaded, for a test that compares first answers with the answers once everything was loaded. */
export async function loadedSandbox(options: SandboxOptions = {}): Promise<TestSandbox> {
  const sandbox = await testSandbox(options);
  await loadAllAreas(sandbox.platform);
  return sandbox;
}

export const silentLogger = { info: () => undefined, warn: () => undefined, error: () => undefined };
