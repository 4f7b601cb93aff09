import { describe, expect, it } from 'vitest';
import { readOperationExamples } from '../../src/platform/docs/openapi-examples.ts';
import { recordOperationExamples, serializeExamples } from '../../scripts/record-openapi-examples.ts';
import { testSandbox } from '../helpers/sandbox.ts';

interface Operation {
  operationId?: string;
  requestBody?: { content?: Record<string, { example?: unknown }> };
  responses: Record<string, { content?: Record<string, { example?: unknown }> }>;
}

describe('examples in /openapi.json', () => {
  // A new operation gets its call in scripts/record-openapi-examples.ts, then `npx tsx scripts/record-openapi-examples.ts`.
  it('gives every operation a request example (when it takes a JSON body) and a response example', async () => {
    const sandbox = await testSandbox();
    const document = (await (await sandbox.app.request('/openapi.json')).json()) as any;
    const missing: string[] = [];
    for (const [path, item] of Object.entries(document.paths as Record<string, Record<string, Operation>>)) {
      for (const [method, operation] of Object.entries(item)) {
        // Examples are keyed by operationId: an operation without one cannot have any.
        if (operation.operationId === undefined) missing.push(`${method.toUpperCase()} ${path} (no operationId)`);
        const requestJson = operation.requestBody?.content?.['application/json'];
        const responseExamples = Object.values(operation.responses).filter((response) => response.content?.['application/json']?.example !== undefined);
        if ((requestJson && requestJson.example === undefined) || responseExamples.length === 0)
          missing.push(`${method.toUpperCase()} ${path} (${operation.operationId})`);
      }
    }
    expect(missing).toEqual([]);
    const createSession = document.paths['/v1/sessions'].post;
    expect(createSession.requestBody.content['application/json'].example).toMatchObject({ firstName: 'Jane', lastName: 'Doe' });
    expect(createSession.responses['200'].content['application/json'].example.id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('keeps the recorded table current: every example is what the sandbox answers today', async () => {
    const recorded = await recordOperationExamples();
    expect(serializeExamples(readOperationExamples()), 'fixtures/openapi-examples.json is stale: run npx tsx scripts/record-openapi-examples.ts').toBe(
      serializeExamples(recorded),
    );
  }, 120_000);
});
