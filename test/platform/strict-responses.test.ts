/**
 * `--strict-responses`: an answer that does not match what its route declares for its status becomes a
 * loud 500 (logged) naming the operation, the status and the problem; off, the sandbox answers as is.
 */
import { OpenAPIHono, z } from '@hono/zod-openapi';
import { describe, expect, it } from 'vitest';
import { parseCli } from '../../src/cli.ts';
import type { AppEnv } from '../../src/platform/http/context.ts';
import type { Platform } from '../../src/platform/platform.ts';
import { ResponseConformance } from '../../src/platform/http/response-conformance.ts';
import { responseMismatch } from '../../src/platform/operations/declared-operations.ts';
import { apiRoute, jsonResponse } from '../../src/platform/http/routing.ts';
import { getSessionRoute } from '../../src/sessions/sessions.routes.ts';
import { KEYS, testSandbox } from '../helpers/sandbox.ts';

const getSession = { operationId: 'getSession', name: 'GET /v1/sessions/{id}', responses: getSessionRoute.responses };

describe('what counts as a mismatch', () => {
  it('passes a real session answer, and names the path of a null optional key, an undeclared key and a wrong enum', async () => {
    const sandbox = await testSandbox();
    const answer = await sandbox.call('GET', '/v1/sessions/test_verified', { key: KEYS.sandbox });
    expect(answer.status).toBe(200);
    expect(responseMismatch(getSession, 200, 'application/json', answer.body)).toBeUndefined();

    const record = answer.body.session_record;
    expect(responseMismatch(getSession, 200, 'application/json', { ...answer.body, session_record: { ...record, status: 'DONE' } })).toMatch(
      /^session_record\.status: /,
    );
    expect(responseMismatch(getSession, 200, 'application/json', { ...answer.body, session_record: { ...record, surprise: 1 } })).toBe(
      'undeclared key "session_record.surprise"',
    );
    expect(responseMismatch(getSession, 200, 'application/json', { ...answer.body, extra: [] })).toBe('undeclared key "extra"');
  });

  it('refuses an undeclared status, a JSON body where none is declared and a non-JSON body where JSON is', () => {
    expect(responseMismatch(getSession, 409, 'application/json', { error: 'x' })).toMatch(
      /^status 409 is not declared \(declared: 200, 400, 401, 403, 404, 429, 500\)/,
    );
    expect(responseMismatch(getSession, 200, 'text/plain; charset=UTF-8', undefined)).toBe('the body is text/plain, the route declares application/json');
    const page = { operationId: 'page', name: 'GET /page', responses: { 200: { description: 'HTML', content: { 'text/html': { schema: z.string() } } } } };
    expect(responseMismatch(page, 200, 'text/html; charset=UTF-8', undefined)).toBeUndefined();
    expect(responseMismatch(page, 200, 'application/json', {})).toBe('the body is JSON, the route declares text/html');
  });
});

describe('the switch', () => {
  // A route whose handler breaks its own contract: the one way to see the switch act on a known mismatch.
  const brokenRoute = apiRoute({
    method: 'get',
    path: '/v1/broken',
    operationId: 'brokenExample',
    responses: { 200: jsonResponse(z.object({ count: z.number(), note: z.string().optional() }), 'A count') },
  });

  function appWith(strict: boolean, body: unknown, status = 200) {
    const errors: string[] = [];
    const recorded: string[] = [];
    const app = new OpenAPIHono<AppEnv>();
    const conformance = new ResponseConformance((operationId, answered) => recorded.push(`${operationId} ${answered}`));
    app.use('*', async (c, next) => {
      c.set('platform', { log: { info: () => undefined, warn: () => undefined, error: (message: string) => errors.push(message) } } as unknown as Platform);
      c.set('errorFamily', 'default');
      c.set('answeredByScenario', false);
      await next();
    });
    if (strict) app.use('*', conformance.middleware());
    // The route's own middleware (the API-key guard) is not under test: the handler is mounted directly.
    app.get('/v1/broken', (c) => c.json(body as object, status as 200));
    conformance.learn([{ type: 'route', route: { ...brokenRoute, path: '/v1/broken' } }]);
    return { app, errors, recorded };
  }

  it('turns a null optional key into a 500 naming operation, status and the zod issue, and logs it', async () => {
    const { app, errors, recorded } = appWith(true, { count: 1, note: null });
    const response = await app.request('/v1/broken');
    expect(response.status).toBe(500);
    const body = (await response.json()) as { error: string };
    expect(body.error).toBe(
      'Response does not conform to the API contract: brokenExample (GET /v1/broken) answered 200: note: Invalid input: expected string, received null.',
    );
    expect(errors).toEqual([body.error]);
    expect(recorded).toEqual([]);
  });

  it('turns an undeclared status into a 500 too, and records a conforming answer', async () => {
    const teapot = appWith(true, { error: 'short and stout' }, 418);
    const refused = await teapot.app.request('/v1/broken');
    expect(refused.status).toBe(500);
    expect(((await refused.json()) as { error: string }).error).toContain('brokenExample (GET /v1/broken) answered 418: status 418 is not declared');

    const fine = appWith(true, { count: 2 });
    expect((await fine.app.request('/v1/broken')).status).toBe(200);
    expect(fine.recorded).toEqual(['brokenExample 200']);
    expect(fine.errors).toEqual([]);
  });

  it('is off by default: the same answer leaves as it is', async () => {
    const { app, errors } = appWith(false, { count: 1, note: null });
    const response = await app.request('/v1/broken');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ count: 1, note: null });
    expect(errors).toEqual([]);
  });

  it('is on in every test sandbox, off in a default start, and on with --strict-responses or its env variable', async () => {
    expect((await testSandbox()).platform.settings.strictResponses).toBe(true);
    expect(parseCli([], {})).toMatchObject({ strictResponses: false });
    expect(parseCli(['--strict-responses'], {})).toMatchObject({ strictResponses: true });
    expect(parseCli([], { IDV_SANDBOX_STRICT_RESPONSES: '1' })).toMatchObject({ strictResponses: true });
  });

  it('lets a scenario answer the status QA chose, even one its route does not declare', async () => {
    const sandbox = await testSandbox({ scenarios: ['flaky'], rateLimit: false });
    const statuses = new Set<number>();
    for (let i = 0; i < 30; i++) statuses.add((await sandbox.call('GET', '/v1/auth/verify')).status);
    expect([...statuses].sort()).toEqual([200, 503]);
  });
});
