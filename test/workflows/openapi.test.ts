import { describe, expect, it } from 'vitest';
import { STEPS_IN_TABLE_ORDER, stepBodyName } from '../../src/workflows/steps/index.ts';
import { testSandbox } from '../helpers/sandbox.ts';

const OPERATIONS: [string, string, number][] = [
  ['post', '/v1/workflows', 201],
  ['get', '/v1/workflows', 200],
  ['get', '/v1/workflows/{workflow_id}', 200],
  ['patch', '/v1/workflows/{workflow_id}/steps/{step_id}/config', 200],
  ['post', '/v1/workflows/{workflow_id}/sessions', 200],
  ['get', '/v1/sessions/{session_id}/workflow', 200],
  ['post', '/v1/sessions/{session_id}/workflow/start', 200],
  ['post', '/v1/sessions/{session_id}/steps/{step_id}', 200],
];

describe('the workflow operations in /openapi.json', () => {
  it('documents every operation with its request and response schemas', async () => {
    const sandbox = await testSandbox();
    const document = (await sandbox.call('GET', '/openapi.json', { key: null })).body;
    for (const [method, path, status] of OPERATIONS) {
      const operation = document.paths[path]?.[method];
      expect(operation, `${method} ${path}`).toBeDefined();
      expect(operation.responses[String(status)].content['application/json'].schema, `${method} ${path}`).toBeDefined();
      if (method !== 'get' && !path.endsWith('/start')) expect(operation.requestBody.content['application/json'].schema, `${method} ${path}`).toBeDefined();
    }
    const submitBody = document.paths['/v1/sessions/{session_id}/steps/{step_id}'].post.requestBody.content['application/json'].schema;
    expect(JSON.stringify(submitBody)).toContain('StepSubmissionBody');
    // One body per built step type, each a documented component (the registry is the source).
    const union = document.components.schemas.StepSubmissionBody.anyOf as { $ref: string }[];
    expect(union.slice(0, 2)).toEqual([{ $ref: '#/components/schemas/IdVerificationStepBody' }, { $ref: '#/components/schemas/FaceLivenessStepBody' }]);
    expect(union.map((entry) => entry.$ref.split('/').at(-1))).toEqual(STEPS_IN_TABLE_ORDER.map(stepBodyName));
    for (const entry of union) expect(document.components.schemas[entry.$ref.split('/').at(-1) as string]).toBeDefined();
    expect(document.components.schemas.ConsentStepBody).toBeDefined();
    expect(document.components.schemas.StepSubmissionBody.anyOf).toContainEqual({ $ref: '#/components/schemas/PepSanctionsStepBody' });
    expect(Object.keys(document.components.schemas.IdVerificationStepBody.properties)).toEqual([
      'document_type',
      'secondary_document_type',
      'tertiary_document_type',
      'uploads',
    ]);
    expect(document.components.schemas.FaceLivenessStepBody.properties.action.enum).toEqual(['start', 'complete', 'upload-url']);
    expect(document.paths['/v1/workflows/{workflow_id}/sessions'].post.responses['402']).toBeDefined();
    expect(document.paths['/v1/sessions/{session_id}/steps/{step_id}'].post.responses['409']).toBeDefined();
  });
});
