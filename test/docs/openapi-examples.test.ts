import { describe, expect, it } from 'vitest';
import { readOperationExamples } from '../../src/platform/docs/openapi-examples.ts';
import { recordOperationExamples, serializeExamples } from '../../scripts/record-openapi-examples.ts';
import { testSandbox } from '../helpers/sandbox.ts';

/**
 * Operations without a recorded example yet. A new operation is not exempt: add its call to
 * scripts/record-openapi-examples.ts and rerun it.
 */
const WITHOUT_EXAMPLES_YET = new Set([
  'createSessionUploads',
  'createFaceLivenessSession',
  'getFaceLivenessResult',
  'getDeepfakeChallenge',
  'createDeepfakeUploadUrls',
  'analyzeDeepfake',
  'createProfileLogoUploadUrl',
  'excludeApplicant',
  'excludeIdentity',
  'removeExcludedIdentity',
  'excludeFace',
  'removeExcludedFace',
  'listSelfExclusionRegistry',
  'purgeAntiCheatEnrollment',
  'analyzeInjection',
  'detectVpn',
  'checkIpJurisdiction',
  'analyzeAntiCheat',
  'addMonitoredUser',
  'saveTransactions',
  'createReVerification',
  'startReVerificationLiveness',
  'createReVerificationLivenessUploadUrl',
  'completeReVerificationLiveness',
  'createAgeVerification',
  'listParentConnectRequests',
  'getParentConnectRequest',
  'getAgeBoundaries',
  'sandboxParentConnectEvent',
  'createWorkflow',
  'listWorkflows',
  'getWorkflow',
  'updateWorkflowStepConfig',
  'createWorkflowSession',
  'getWorkflowState',
  'startWorkflow',
  'submitWorkflowStep',
  // Control routes without an operationId yet (named by method and path).
  'GET /__sandbox/organizations/{id}/aml/monitored-users',
  'DELETE /__sandbox/organizations/{id}/aml/bots/{bot_id}/monitored-users/{subject_user_id}',
  'GET /__sandbox/organizations/{id}/aml/transaction-quota',
  'PUT /__sandbox/organizations/{id}/aml/transaction-quota',
]);

interface Operation {
  operationId?: string;
  requestBody?: { content?: Record<string, { example?: unknown }> };
  responses: Record<string, { content?: Record<string, { example?: unknown }> }>;
}

describe('examples in /openapi.json', () => {
  it('gives every operation a request example (when it takes a JSON body) and a response example', async () => {
    const sandbox = await testSandbox();
    const document = (await (await sandbox.app.request('/openapi.json')).json()) as any;
    const missing: string[] = [];
    for (const [path, item] of Object.entries(document.paths as Record<string, Record<string, Operation>>)) {
      for (const [method, operation] of Object.entries(item)) {
        if (WITHOUT_EXAMPLES_YET.has(operation.operationId ?? `${method.toUpperCase()} ${path}`)) continue;
        const requestJson = operation.requestBody?.content?.['application/json'];
        const responseExamples = Object.values(operation.responses).filter((response) => response.content?.['application/json']?.example !== undefined);
        if ((requestJson && requestJson.example === undefined) || responseExamples.length === 0) missing.push(`${method.toUpperCase()} ${path} (${operation.operationId})`);
      }
    }
    expect(missing).toEqual([]);
    const createSession = document.paths['/v1/sessions'].post;
    expect(createSession.requestBody.content['application/json'].example).toMatchObject({ firstName: 'Jane', lastName: 'Doe' });
    expect(createSession.responses['200'].content['application/json'].example.id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('keeps the recorded table current: every example is what the sandbox answers today', async () => {
    const recorded = await recordOperationExamples();
    expect(serializeExamples(readOperationExamples())).toBe(serializeExamples(recorded));
  }, 120_000);
});
