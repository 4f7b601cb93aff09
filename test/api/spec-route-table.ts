/**
 * What the API contract says of each /v1 operation, stated independently of the code, for the route-table
 * tests (test/api/route-table.test.ts) that walk every operation of /openapi.json.
 *
 * Adding a /v1 route? Add its row here, keyed `METHOD /openapi/path`, read from the endpoint's error list
 * in the spec (or, for an operation the spec does not describe, from the real client's facts):
 * - `missingKey`: 403 where the error list says "403 key missing" (adverse media, async jobs, the phone
 *   checks, every iGaming and AML operation), else 401.
 * - `lists402`: true only when the error list has 402 (insufficient funds). Only those operations may
 *   refuse for an empty balance; the route declares `402: extraErrors[402]` exactly then.
 * - `readsOneResource`: true on a GET of one resource by its id, which answers 403 when the resource is
 *   another organization's (spec Authentication 3: "A key without access to the resource yields 403";
 *   GET /v1/financial/{id}: "403 belongs to another organization"). A list is of the caller's own
 *   organization and a key may read, so a GET without it answers 403 only where a missing key is 403.
 * - `source`: the section the facts come from, so a reviewer can check the row.
 */
export interface SpecRouteFacts {
  missingKey: 401 | 403;
  lists402: boolean;
  readsOneResource?: true;
  source: string;
}

const NOT_IN_SPEC = 'not in the spec; real client: a missing key is an AuthenticationError (401)';

export const SPEC_ROUTES: Record<string, SpecRouteFacts> = {
  'GET /v1/auth/verify': { missingKey: 401, lists402: false, source: NOT_IN_SPEC },
  'GET /v1/async-jobs/{jobId}': {
    missingKey: 403,
    lists402: false,
    readsOneResource: true,
    source: 'spec GET /v1/async-jobs/{jobId}: 400, 401, 403 key missing, 404, 500',
  },
  'POST /v1/upload/presign': {
    missingKey: 401,
    lists402: false,
    source: `${NOT_IN_SPEC}; the presign itself is free (the operation using the file is billed)`,
  },

  'POST /v1/financial': { missingKey: 401, lists402: true, source: `${NOT_IN_SPEC}; billed like session creation (402 on an empty balance)` },
  'GET /v1/financial': { missingKey: 401, lists402: false, source: NOT_IN_SPEC },
  'GET /v1/financial/externalId/{externalId}': { missingKey: 401, lists402: false, source: NOT_IN_SPEC },
  'GET /v1/financial/{id}': { missingKey: 401, lists402: false, readsOneResource: true, source: 'spec GET /v1/financial/{id}: 400, 401, 403, 404, 429' },

  'POST /v1/credit-check/hard': { missingKey: 401, lists402: true, source: 'spec POST /v1/credit-check/hard: 400, 401, 402, 429' },
  'POST /v1/credit-check/soft': { missingKey: 401, lists402: true, source: 'spec POST /v1/credit-check/soft: 400, 401, 402, 429' },

  'POST /v1/sessions': { missingKey: 401, lists402: true, source: 'spec POST /v1/sessions: 400, 401, 402, 404, 429' },
  'GET /v1/sessions': { missingKey: 401, lists402: false, source: 'spec GET /v1/sessions: 400, 401, 429' },
  'GET /v1/sessions/{id}': {
    missingKey: 401,
    lists402: false,
    readsOneResource: true,
    source: 'spec referenced operation (errors not shown); Authentication 3: missing key 401',
  },
  'PATCH /v1/sessions/{id}/update-status': { missingKey: 401, lists402: false, source: NOT_IN_SPEC },
  'POST /v1/sessions/{id}/uploads': {
    missingKey: 401,
    lists402: false,
    source: 'spec referenced operation (not shown); real client: 409 for terminal sessions, no 402',
  },

  'POST /v1/screening/adverse-media': {
    missingKey: 403,
    lists402: false,
    source: 'spec POST /v1/screening/adverse-media: 400, 401, 403 key missing, 404, 500',
  },
  'POST /v1/screening/pep-sanctions': { missingKey: 401, lists402: false, source: 'spec POST /v1/screening/pep-sanctions: 400, 401, 403, 404, 500' },
  'POST /v1/screening/title-check': { missingKey: 401, lists402: true, source: `${NOT_IN_SPEC}; billed per check like the carrier checks` },
  'POST /v1/screening/phone-ownership': {
    missingKey: 403,
    lists402: true,
    source: 'spec POST /v1/screening/phone-ownership: 400, 401, 402, 403 key missing, 404, 503, 500',
  },
  'POST /v1/screening/phone-trust': { missingKey: 403, lists402: true, source: 'spec POST /v1/screening/phone-trust: errors as for phone ownership' },
  'POST /v1/screening/carrier-age-gate': { missingKey: 401, lists402: true, source: `${NOT_IN_SPEC}; billed per check like the other carrier checks` },

  'POST /v1/document/scan': { missingKey: 401, lists402: true, source: 'spec direct image operations, common errors: 400, 401, 402, 403, 429, 500' },
  'POST /v1/face/detect': { missingKey: 401, lists402: true, source: 'spec direct image operations, common errors' },
  'POST /v1/face/compare': { missingKey: 401, lists402: true, source: 'spec direct image operations, common errors' },
  'POST /v1/face/estimate-age': { missingKey: 401, lists402: true, source: 'spec direct image operations, common errors' },
  'POST /v1/identity/verify': { missingKey: 401, lists402: true, source: 'spec direct image operations (the compound one), common errors' },
  'POST /v1/face/liveness/sessions': { missingKey: 401, lists402: false, source: NOT_IN_SPEC },
  'GET /v1/face/liveness/sessions/{lid}/result': { missingKey: 401, lists402: false, readsOneResource: true, source: NOT_IN_SPEC },

  'GET /v1/deepfake/challenge/{sessionId}': { missingKey: 401, lists402: false, readsOneResource: true, source: NOT_IN_SPEC },
  'POST /v1/deepfake/upload-urls': { missingKey: 401, lists402: false, source: NOT_IN_SPEC },
  'POST /v1/deepfake/analyze': { missingKey: 401, lists402: true, source: `${NOT_IN_SPEC}; billed per analysis like the image operations` },

  'POST /v1/profiles/logo-upload-url': { missingKey: 401, lists402: false, source: NOT_IN_SPEC },
  'GET /v1/profiles': { missingKey: 401, lists402: false, source: NOT_IN_SPEC },
  'POST /v1/profiles': { missingKey: 401, lists402: false, source: NOT_IN_SPEC },
  'GET /v1/profiles/{id}': { missingKey: 401, lists402: false, readsOneResource: true, source: NOT_IN_SPEC },

  'POST /v1/credit-terms': { missingKey: 401, lists402: true, source: `${NOT_IN_SPEC}; billed like the bank statement request it mirrors` },
  'GET /v1/credit-terms': { missingKey: 401, lists402: false, source: NOT_IN_SPEC },
  'GET /v1/credit-terms/externalId/{externalId}': { missingKey: 401, lists402: false, source: NOT_IN_SPEC },
  'GET /v1/credit-terms/{id}': { missingKey: 401, lists402: false, readsOneResource: true, source: NOT_IN_SPEC },

  'POST /v1/workflows': { missingKey: 401, lists402: false, source: 'spec POST /v1/workflows: 400, 401, 403 sandbox key, 429' },
  'GET /v1/workflows': { missingKey: 401, lists402: false, source: 'real client workflows.list (facts 6.8); Authentication 3: missing key 401' },
  'GET /v1/workflows/{workflow_id}': {
    missingKey: 401,
    lists402: false,
    readsOneResource: true,
    source: 'spec referenced operation Retrieve workflow (not shown); facts 6.8',
  },
  'PATCH /v1/workflows/{workflow_id}/steps/{step_id}/config': {
    missingKey: 401,
    lists402: false,
    source: 'real client workflows.updateStepConfig (facts 6.8)',
  },
  'POST /v1/workflows/{workflow_id}/sessions': {
    missingKey: 401,
    lists402: true,
    source: 'spec POST /v1/workflows/{workflow_id}/sessions: 400, 401, 402, 403, 404, 429',
  },
  'GET /v1/sessions/{session_id}/workflow': {
    missingKey: 401,
    lists402: false,
    readsOneResource: true,
    source: 'spec referenced operation Get workflow state (not shown); facts 6.9',
  },
  'POST /v1/sessions/{session_id}/workflow/start': { missingKey: 401, lists402: false, source: 'real client workflowSessions.start (facts 6.9)' },
  'POST /v1/sessions/{session_id}/steps/{step_id}': {
    missingKey: 401,
    lists402: false,
    source: 'spec POST /v1/sessions/{session_id}/steps/{step_id} (errors not shown); facts 6.9: 409 for conflicts',
  },
  'POST /v1/re-verifications': { missingKey: 401, lists402: false, source: `${NOT_IN_SPEC}; create error codes not_found, reverify_disabled only` },
  'POST /v1/re-verifications/{id}/liveness/start': { missingKey: 401, lists402: true, source: `${NOT_IN_SPEC}; lifecycle code insufficient_balance` },
  'POST /v1/re-verifications/{id}/liveness/upload-url': { missingKey: 401, lists402: false, source: NOT_IN_SPEC },
  'POST /v1/re-verifications/{id}/liveness/complete': { missingKey: 401, lists402: true, source: `${NOT_IN_SPEC}; lifecycle code insufficient_balance` },

  'POST /v1/age-verification': { missingKey: 401, lists402: true, source: `${NOT_IN_SPEC}; billed like the session it creates` },
  'GET /v1/age-verification/parent-connect': { missingKey: 401, lists402: false, source: NOT_IN_SPEC },
  'GET /v1/age-verification/parent-connect/{id}': { missingKey: 401, lists402: false, readsOneResource: true, source: NOT_IN_SPEC },
  'GET /v1/age-verification/boundaries/{id}': { missingKey: 401, lists402: false, readsOneResource: true, source: NOT_IN_SPEC },

  'POST /v1/igaming/self-exclusion/applicant': {
    missingKey: 403,
    lists402: false,
    source: 'spec POST /v1/igaming/self-exclusion/applicant: 400, 401, 403 key header missing, 404, 500',
  },
  'POST /v1/igaming/self-exclusion/identity': { missingKey: 403, lists402: false, source: 'spec POST /v1/igaming/self-exclusion/identity: 400, 401, 403, 500' },
  'DELETE /v1/igaming/self-exclusion/identity/{document_number}': {
    missingKey: 403,
    lists402: false,
    source: 'spec DELETE /v1/igaming/self-exclusion/identity/{document_number}: 400, 401, 403, 500',
  },
  'POST /v1/igaming/self-exclusion/face': {
    missingKey: 403,
    lists402: false,
    source: 'spec referenced "Exclude face" (contract not shown): as the other self-exclusion operations',
  },
  'DELETE /v1/igaming/self-exclusion/face/{session_id}': {
    missingKey: 403,
    lists402: false,
    source: 'spec DELETE /v1/igaming/self-exclusion/face/{session_id}: 400, 401, 403, 500',
  },
  'GET /v1/igaming/self-exclusion': { missingKey: 403, lists402: false, source: 'spec GET /v1/igaming/self-exclusion: 400, 401, 403, 500' },
  'DELETE /v1/igaming/anti-cheat/{session_id}': {
    missingKey: 403,
    lists402: false,
    source: 'spec DELETE /v1/igaming/anti-cheat/{session_id}: 400, 401, 403, 500',
  },
  'POST /v1/igaming/injection': { missingKey: 403, lists402: false, source: `${NOT_IN_SPEC}; an iGaming operation like the spec's` },
  'POST /v1/igaming/vpn-detection': { missingKey: 403, lists402: false, source: `${NOT_IN_SPEC}; an iGaming operation like the spec's` },
  'POST /v1/igaming/ip-jurisdiction': { missingKey: 403, lists402: false, source: `${NOT_IN_SPEC}; an iGaming operation like the spec's` },
  'POST /v1/igaming/anti-cheat': { missingKey: 403, lists402: false, source: `${NOT_IN_SPEC}; an iGaming operation like the spec's` },

  'POST /v1/aml/bots/{bot_id}/monitored-users': {
    missingKey: 403,
    lists402: false,
    source: 'spec POST /v1/aml/bots/{bot_id}/monitored-users: 400, 401, 403 key missing, 404, 500',
  },
  'POST /v1/aml/transactions': {
    missingKey: 403,
    lists402: false,
    source: 'spec referenced "Save transactions" (contract not shown); AML family: 403 key missing, quota 429 instead of 402',
  },
};
