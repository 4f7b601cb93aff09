import { createRoute, OpenAPIHono } from '@hono/zod-openapi';
import { describe, expect, it } from 'vitest';
import { testSandbox } from '../helpers/sandbox.ts';
import {
  CreateSessionBodySchema,
  CreateSessionResponseSchema,
  ListSessionsQuerySchema,
  SessionListResponseSchema,
  SessionOutcomeBodySchema,
  SessionUploadsBodySchema,
  SessionUploadsResponseSchema,
  SingleSessionResponseSchema,
  UpdateStatusBodySchema,
  UpdateStatusResponseSchema,
} from '../../src/sessions/sessions.schemas.ts';

const json = <T>(schema: T) => ({ content: { 'application/json': { schema } } });

describe('sessions schemas in the OpenAPI document', () => {
  it('render every request and response of the area, aliases and limits included', () => {
    const app = new OpenAPIHono();
    const routes = [
      createRoute({
        method: 'post',
        path: '/v1/sessions',
        request: { body: { required: true, ...json(CreateSessionBodySchema) } },
        responses: { 200: { description: 'created', ...json(CreateSessionResponseSchema) } },
      }),
      createRoute({
        method: 'get',
        path: '/v1/sessions',
        request: { query: ListSessionsQuerySchema },
        responses: { 200: { description: 'page', ...json(SessionListResponseSchema) } },
      }),
      createRoute({ method: 'get', path: '/v1/sessions/{id}', responses: { 200: { description: 'one', ...json(SingleSessionResponseSchema) } } }),
      createRoute({
        method: 'patch',
        path: '/v1/sessions/{id}/update-status',
        request: { body: { required: true, ...json(UpdateStatusBodySchema) } },
        responses: { 200: { description: 'updated', ...json(UpdateStatusResponseSchema) } },
      }),
      createRoute({
        method: 'post',
        path: '/v1/sessions/{id}/uploads',
        request: { body: { required: true, ...json(SessionUploadsBodySchema) } },
        responses: { 200: { description: 'urls', ...json(SessionUploadsResponseSchema) } },
      }),
      createRoute({
        method: 'post',
        path: '/__sandbox/sessions/{id}/outcome',
        request: { body: { required: true, ...json(SessionOutcomeBodySchema) } },
        responses: { 200: { description: 'driven' } },
      }),
    ];
    for (const route of routes) app.openapi(route, (c) => c.json({} as never, 200));
    const doc = app.getOpenAPI31Document({ openapi: '3.1.0', info: { title: 'sessions', version: '0.1.0' } });
    const schemas = doc.components?.schemas ?? {};
    for (const name of [
      'SessionRecord',
      'SessionListItem',
      'SingleSessionResponse',
      'UserProfile',
      'SessionAnalysisData',
      'TitleCheckFound',
      'CreateSessionBody',
      'CreateSessionResponse',
      'SessionUploadsResponse',
    ]) {
      expect(schemas, name).toHaveProperty(name);
    }
    const text = JSON.stringify(doc);
    for (const key of ['first_name', 'firstName', 'expiresInHours', 'redirect_url']) expect(text).toContain(`"${key}"`);
    expect(text).toContain('"maximum":8760');
    expect(text).toContain('"maximum":500');
    expect(text).toContain('^\\\\+[1-9]\\\\d{9,14}$');
  });

  it('are served in /openapi.json with their operations, security and error responses', async () => {
    const sandbox = await testSandbox();
    const doc = (await sandbox.call('GET', '/openapi.json', { key: null })).body;
    const operations: Record<string, [string, string[], string[]]> = {
      'post /v1/sessions': ['createSession', ['200', '400', '401', '402', '403', '404', '413', '415', '429', '500'], ['ApiKeyAuth']],
      'get /v1/sessions': ['listSessions', ['200', '400', '401', '429', '500'], ['ApiKeyAuth']],
      'get /v1/sessions/{id}': ['getSession', ['200', '400', '401', '403', '404', '429', '500'], ['ApiKeyAuth']],
      'patch /v1/sessions/{id}/update-status': ['updateSessionStatus', ['200', '400', '401', '403', '404', '409', '413', '415', '429', '500'], ['ApiKeyAuth']],
      'post /v1/sessions/{id}/uploads': ['createSessionUploads', ['200', '400', '401', '403', '404', '409', '413', '415', '429', '500'], ['ApiKeyAuth']],
      'post /__sandbox/sessions/{id}/outcome': [
        'sandboxDriveSessionOutcome',
        ['200', '400', '401', '403', '404', '409', '413', '415', '429', '500'],
        ['AdminToken'],
      ],
    };
    for (const [key, [operationId, statuses, security]] of Object.entries(operations)) {
      const [method, path] = key.split(' ') as [string, string];
      const operation = doc.paths[path]?.[method];
      expect(operation?.operationId, key).toBe(operationId);
      expect(Object.keys(operation.responses).sort(), key).toEqual([...statuses].sort());
      expect(
        operation.security.map((s: Record<string, unknown>) => Object.keys(s)[0]),
        key,
      ).toEqual(security);
    }
    expect(doc.paths['/__sandbox/sessions/{id}/outcome'].post.tags).toEqual(['Sandbox control plane']);
    expect(doc.components.schemas).toHaveProperty('SandboxSessionOutcomeResponse');
    expect(Object.keys(doc.paths).some((p: string) => p.startsWith('/verify'))).toBe(false);
  });
});
