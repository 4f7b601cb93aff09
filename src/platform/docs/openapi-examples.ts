/**
 * Request and response examples of /openapi.json: one table keyed by operationId
 * (fixtures/openapi-examples.json, recorded by `npx tsx scripts/record-openapi-examples.ts` from real
 * calls on a fresh sandbox with the fixture keys and values the tests use), merged into the generated
 * document, so no area's routes file carries examples and every example is an answer the sandbox gave.
 */
import { readFileSync } from 'node:fs';

export interface OperationExample {
  /** The JSON request body, when the operation takes one. */
  request?: unknown;
  status: number;
  response: unknown;
}

export type OperationExamples = Record<string, OperationExample>;

export const OPENAPI_EXAMPLES_FILE = new URL('../../../fixtures/openapi-examples.json', import.meta.url);

export function readOperationExamples(): OperationExamples {
  return JSON.parse(readFileSync(OPENAPI_EXAMPLES_FILE, 'utf8')) as OperationExamples;
}

interface MediaObject {
  example?: unknown;
}
interface OperationObject {
  operationId?: string;
  requestBody?: { content?: Record<string, MediaObject> };
  responses?: Record<string, { content?: Record<string, MediaObject> }>;
}

/** The document with each operation's examples set on its JSON request body and its response of that status. */
export function withOperationExamples<T extends { paths?: object }>(document: T, examples: OperationExamples): T {
  for (const item of Object.values(document.paths ?? {}) as object[]) {
    for (const operation of Object.values(item) as OperationObject[]) {
      const example = operation.operationId ? examples[operation.operationId] : undefined;
      if (!example) continue;
      const requestJson = operation.requestBody?.content?.['application/json'];
      if (requestJson && example.request !== undefined) requestJson.example = example.request;
      const responseJson = operation.responses?.[String(example.status)]?.content?.['application/json'];
      if (responseJson) responseJson.example = example.response;
    }
  }
  return document;
}
