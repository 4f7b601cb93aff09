/**
 * Records the OpenAPI examples table (fixtures/openapi-examples.json): real calls, in order, on a fresh
 * sandbox (memory, seed 42, a pinned secret, clock frozen at 2026-01-15T09:30:00Z) with the fixture keys, images and
 * values the tests use; the first 2xx of each operation becomes its example.
 *
 *   npx tsx scripts/record-openapi-examples.ts          # write the file
 *   npx tsx scripts/record-openapi-examples.ts --check  # exit 1 when the file is stale
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadAllAreas } from '../src/app.ts';
import { shadowing } from '../src/drift/shadow.ts';
import { createSandbox, type Sandbox } from '../src/sandbox.ts';
import { FIXTURE_WORKFLOW_IDS } from '../src/workflows/workflows.store.ts';
import { OPENAPI_EXAMPLES_FILE, type OperationExamples } from '../src/platform/docs/openapi-examples.ts';

const JANE = { firstName: 'Jane', lastName: 'Doe', email: 'jane.doe@example.com', phone: '+447700900001' };
/** A live deepfake scan: six frames of person A and frame metadata that fits each action. */
const LIVE_SCAN = JSON.parse(readFileSync(new URL('../fixtures/deepfake-live-scan.json', import.meta.url), 'utf8')) as {
  frames: string[];
  frameMeta: unknown[];
};
const image = (name: string) => readFileSync(new URL(`../fixtures/images/${name}`, import.meta.url));

/** Journal entries carry wall-clock durations, the one thing a frozen clock does not fix: examples show 1.25 ms. */
const withFixedDurations = (value: Record<string, any>): Record<string, any> =>
  JSON.parse(JSON.stringify(value, (name, member) => (name === 'durationMs' ? 1.25 : member)));

interface Step {
  operationId: string;
  method: string;
  path: string;
  body?: unknown;
  key?: string | null;
  raw?: { bytes: Buffer; contentType: string };
}

/** What answers the calls: a sandbox's app, one built for a single call, or a server over HTTP. */
interface Answering {
  request(path: string, init: RequestInit): Response | Promise<Response>;
}

/**
 * Where the calls go: a sandbox in this process, or a server over HTTP (the bench's CI suite, which runs the
 * same calls against `npm start`'s server as an integrator's test suite would).
 */
export interface OperationTarget {
  /** The app that answers a call; `first`: the operation's first call. */
  answering(first: boolean): Promise<Answering>;
  /** Moves the default namespace's virtual clock on, without a call of its own in the recording. */
  advance(ms: number): Promise<void>;
  /** Puts the sandbox in shadow mode (in this process only: a server over HTTP runs without it, and its drift report is not called). */
  startShadowMode?(): void;
  /** Told of every call once answered, with its wall-clock duration (the bench's figures). */
  answered?(call: { operationId: string; method: string; path: string; ms: number }): void;
}

/**
 * The examples, on a sandbox with every area loaded. With `firstCall`, each operation's first call is
 * answered by the app it gives instead (the first-call test: a freshly started server over the same data).
 */
export async function recordOperationExamples(firstCall?: (sandbox: Sandbox) => Promise<Answering>): Promise<OperationExamples> {
  const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };
  // The secret is pinned so that signatures and page tokens in the examples repeat from one recording to the next.
  const sandbox = await createSandbox({
    port: null,
    memory: true,
    seed: 42,
    secret: 'openapi-examples-recording',
    clock: 'frozen@2026-01-15T09:30:00.000Z',
    logger: quiet,
    rateLimit: false,
  });
  await loadAllAreas(sandbox.platform);
  try {
    return await driveOperations({
      answering: async (first) => (first && firstCall !== undefined ? firstCall(sandbox) : sandbox.app),
      advance: async (ms) => sandbox.clock.advance(ms),
      startShadowMode: () => shadowing(sandbox.platform, sandbox.app.fetch, { upstream: 'https://staging.idv.example' }),
    });
  } finally {
    await sandbox.close();
  }
}

/** Every operation's calls, in order, on `target`: the first 2xx answer of each is its example. */
export async function driveOperations(target: OperationTarget): Promise<OperationExamples> {
  const examples: OperationExamples = {};
  const called = new Set<string>();
  const call = async ({ operationId, method, path, body, key = 'sk_live_demo', raw }: Step) => {
    const headers: Record<string, string> = {};
    if (key) headers['x-api-key'] = key;
    if (body !== undefined || raw) headers['content-type'] = raw?.contentType ?? 'application/json';
    const app = await target.answering(!called.has(operationId));
    called.add(operationId);
    const began = performance.now();
    const response = await app.request(path, {
      method,
      headers,
      body: raw ? new Uint8Array(raw.bytes) : body === undefined ? undefined : JSON.stringify(body),
    });
    const answer = (await response.json()) as Record<string, any>;
    target.answered?.({ operationId, method, path, ms: performance.now() - began });
    if (response.status >= 300) throw new Error(`${operationId}: ${method} ${path} answered ${response.status}: ${JSON.stringify(answer)}`);
    examples[operationId] ??= { ...(body !== undefined ? { request: body } : {}), status: response.status, response: withFixedDurations(answer) };
    return answer;
  };
  const put = async (uploadUrl: string, bytes: Buffer, contentType: string) => {
    const target = new URL(uploadUrl);
    await call({ operationId: 'putUpload', method: 'PUT', path: target.pathname + target.search, key: null, raw: { bytes, contentType } });
  };
  const upload = async (name: string) => {
    const bytes = image(name);
    const presigned = await call({
      operationId: 'presignUploads',
      method: 'POST',
      path: '/v1/upload/presign',
      body: { files: [{ contentType: 'image/jpeg', byteLength: bytes.length }] },
    });
    await put(presigned.uploads[0].uploadUrl, bytes, 'image/jpeg');
    return presigned.uploads[0].fileKey as string;
  };

  await call({ operationId: 'verifyApiKey', method: 'GET', path: '/v1/auth/verify' });
  const face = await upload('face.jpg');
  const passport = await upload('passport.jpg');

  const session = await call({
    operationId: 'createSession',
    method: 'POST',
    path: '/v1/sessions',
    body: { ...JANE, external_id: 'cust_001', redirect_url: 'https://example.com/done' },
  });
  await call({ operationId: 'getSession', method: 'GET', path: `/v1/sessions/${session.id}` });
  await call({ operationId: 'listSessions', method: 'GET', path: '/v1/sessions?limit=5' });
  await call({
    operationId: 'sandboxDriveSessionOutcome',
    method: 'POST',
    path: `/__sandbox/sessions/${session.id}/outcome`,
    body: { outcome: 'SUBMITTED' },
    key: null,
  });
  // Anti-cheat while the session is open (a terminal one answers UNAVAILABLE): the selfie enrolled when it finished.
  await call({
    operationId: 'analyzeAntiCheat',
    method: 'POST',
    path: '/v1/igaming/anti-cheat',
    body: { session_id: session.id, image: image('face.jpg').toString('base64') },
  });
  await call({ operationId: 'updateSessionStatus', method: 'PATCH', path: `/v1/sessions/${session.id}/update-status`, body: { new_status: 'VERIFIED' } });

  const job = await call({
    operationId: 'screenAdverseMedia',
    method: 'POST',
    path: '/v1/screening/adverse-media',
    body: { ...JANE, dateOfBirth: '1980-04-23', country: 'GB' },
  });
  await target.advance(3000);
  await call({ operationId: 'getAsyncJob', method: 'GET', path: `/v1/async-jobs/${job.jobId}` });
  await call({
    operationId: 'screenPepSanctions',
    method: 'POST',
    path: '/v1/screening/pep-sanctions',
    body: { firstName: 'Jane', lastName: 'Doe', dateOfBirth: '1990-01-01' },
  });
  await call({
    operationId: 'checkTitle',
    method: 'POST',
    path: '/v1/screening/title-check',
    body: { email: JANE.email, firstName: 'Jane', lastName: 'Doe', address: '1 Sandbox Lane, Springfield, IL 62701' },
  });
  await call({ operationId: 'checkPhoneOwnership', method: 'POST', path: '/v1/screening/phone-ownership', body: { ...JANE, sessionId: session.id } });
  await call({ operationId: 'checkPhoneTrust', method: 'POST', path: '/v1/screening/phone-trust', body: { phone: '+447700900003' } });
  await call({ operationId: 'checkCarrierAgeGate', method: 'POST', path: '/v1/screening/carrier-age-gate', body: { phone: '+447700900001' } });

  await call({ operationId: 'createHardCreditCheck', method: 'POST', path: '/v1/credit-check/hard', body: { ...JANE, uat: true } });
  await call({ operationId: 'createSoftCreditCheck', method: 'POST', path: '/v1/credit-check/soft', body: { ...JANE, uat: true } });
  const statement = await call({ operationId: 'createBankStatementRequest', method: 'POST', path: '/v1/financial', body: { ...JANE, externalId: 'cust_001' } });
  await call({ operationId: 'listBankStatements', method: 'GET', path: '/v1/financial?limit=5' });
  await call({ operationId: 'getBankStatement', method: 'GET', path: `/v1/financial/${statement.bankStatementId}` });
  await call({ operationId: 'listBankStatementsByExternalId', method: 'GET', path: '/v1/financial/externalId/cust_001' });

  await call({ operationId: 'scanDocument', method: 'POST', path: '/v1/document/scan', body: { image: passport, documentType: 'passport' } });
  await call({ operationId: 'detectFace', method: 'POST', path: '/v1/face/detect', body: { image: face } });
  await call({ operationId: 'compareFaces', method: 'POST', path: '/v1/face/compare', body: { source: face, target: passport } });
  await call({ operationId: 'estimateAge', method: 'POST', path: '/v1/face/estimate-age', body: { image: face } });
  await call({ operationId: 'verifyIdentity', method: 'POST', path: '/v1/identity/verify', body: { documentImage: passport, faceImage: face } });

  const profile = await call({ operationId: 'createProfile', method: 'POST', path: '/v1/profiles', body: { name: 'Acme onboarding' } });
  await call({ operationId: 'listProfiles', method: 'GET', path: '/v1/profiles' });
  await call({ operationId: 'getProfile', method: 'GET', path: `/v1/profiles/${profile.id}` });
  const terms = await call({
    operationId: 'createCreditTerms',
    method: 'POST',
    path: '/v1/credit-terms',
    body: {
      firstName: 'Dana',
      lastName: 'Reyes',
      businessName: 'Reyes Supply Co.',
      businessEmail: 'ap@reyes-supply.example',
      businessAddress: '120 Market Street, Springfield, IL 62701',
      requestedCreditAmount: 25000,
      externalId: 'biz_001',
    },
  });
  await call({ operationId: 'listCreditTerms', method: 'GET', path: '/v1/credit-terms' });
  await call({ operationId: 'getCreditTerms', method: 'GET', path: `/v1/credit-terms/${terms.creditTermsId}` });
  await call({ operationId: 'listCreditTermsByExternalId', method: 'GET', path: '/v1/credit-terms/externalId/biz_001' });

  await call({
    operationId: 'createProfileLogoUploadUrl',
    method: 'POST',
    path: '/v1/profiles/logo-upload-url',
    body: { contentType: 'image/png', byteLength: 2048 },
  });

  // iGaming: the self-exclusion registry (the session's selfie was enrolled when it finished); network checks.
  await call({
    operationId: 'excludeApplicant',
    method: 'POST',
    path: '/v1/igaming/self-exclusion/applicant',
    body: { session_id: session.id, reason: 'player request' },
  });
  await call({
    operationId: 'excludeIdentity',
    method: 'POST',
    path: '/v1/igaming/self-exclusion/identity',
    body: { document_number: 'P1234567', reason: 'regulator list' },
  });
  await call({ operationId: 'listSelfExclusionRegistry', method: 'GET', path: '/v1/igaming/self-exclusion' });
  await call({ operationId: 'removeExcludedIdentity', method: 'DELETE', path: '/v1/igaming/self-exclusion/identity/P1234567' });
  await call({
    operationId: 'excludeFace',
    method: 'POST',
    path: '/v1/igaming/self-exclusion/face',
    body: { session_id: session.id, reason: 'player request' },
  });
  await call({ operationId: 'removeExcludedFace', method: 'DELETE', path: `/v1/igaming/self-exclusion/face/${session.id}` });
  await call({ operationId: 'purgeAntiCheatEnrollment', method: 'DELETE', path: `/v1/igaming/anti-cheat/${session.id}` });
  const signal = (score: number) => ({ pass: true, score, signals: [] });
  await call({
    operationId: 'analyzeInjection',
    method: 'POST',
    path: '/v1/igaming/injection',
    body: { session_id: session.id, device_integrity: signal(97), media_source: signal(88), frame_timing: signal(75) },
  });
  await call({ operationId: 'detectVpn', method: 'POST', path: '/v1/igaming/vpn-detection', body: { session_id: session.id, ip_address: '198.51.100.7' } });
  await call({
    operationId: 'checkIpJurisdiction',
    method: 'POST',
    path: '/v1/igaming/ip-jurisdiction',
    body: { session_id: session.id, ip_address: '203.0.113.5' },
  });

  // Liveness, deepfake and re-verification scans: person A's fixture pictures as frames.
  const liveness = await call({
    operationId: 'createFaceLivenessSession',
    method: 'POST',
    path: '/v1/face/liveness/sessions',
    body: { session_id: session.id },
  });
  await target.advance(5000);
  await call({ operationId: 'getFaceLivenessResult', method: 'GET', path: `/v1/face/liveness/sessions/${liveness.liveness_session_id}/result` });
  const challenge = await call({ operationId: 'getDeepfakeChallenge', method: 'GET', path: `/v1/deepfake/challenge/${session.id}` });
  const scan = await call({
    operationId: 'createDeepfakeUploadUrls',
    method: 'POST',
    path: '/v1/deepfake/upload-urls',
    body: { sessionId: session.id, includeAudio: false },
  });
  for (const [index, name] of LIVE_SCAN.frames.entries()) await put(scan.uploadUrls[`frame_${index}`], image(name), 'image/jpeg');
  await call({
    operationId: 'analyzeDeepfake',
    method: 'POST',
    path: '/v1/deepfake/analyze',
    body: { scanDurationMs: 3500, challengeWord: challenge.challengeWord, frameMeta: LIVE_SCAN.frameMeta, s3Keys: scan.uploadKeys },
  });
  const reVerification = await call({
    operationId: 'createReVerification',
    method: 'POST',
    path: '/v1/re-verifications',
    body: { workflow_id: FIXTURE_WORKFLOW_IDS.identity72h, device_fingerprint: 'fp-1' },
  });
  const reVerify = (operationId: string, step: string, body: unknown) =>
    call({ operationId, method: 'POST', path: `/v1/re-verifications/${reVerification.re_verification_id}/liveness/${step}`, body });
  const started = await reVerify('startReVerificationLiveness', 'start', {});
  const frameUrls = await reVerify('createReVerificationLivenessUploadUrl', 'upload-url', { frame_count: 3 });
  for (const [index, name] of LIVE_SCAN.frames.slice(0, 3).entries()) await put(frameUrls.frame_upload_urls[index], image(name), 'image/jpeg');
  await put(frameUrls.timeline_upload_url, Buffer.from(JSON.stringify(started.script.steps)), 'application/json');
  await target.advance(started.script.durationMs);
  await reVerify('completeReVerificationLiveness', 'complete', {});

  // Headless workflow: a workflow, a session of it, the ID step on the passport and selfie of person A, liveness.
  const workflow = await call({
    operationId: 'createWorkflow',
    method: 'POST',
    path: '/v1/workflows',
    body: { name: 'Identity flow', steps: [{ id: 'ID_VERIFICATION' }, { id: 'FACE_LIVENESS' }] },
  });
  const workflowId = workflow.workflow.id as string;
  await call({ operationId: 'listWorkflows', method: 'GET', path: '/v1/workflows' });
  await call({ operationId: 'getWorkflow', method: 'GET', path: `/v1/workflows/${workflowId}` });
  await call({
    operationId: 'updateWorkflowStepConfig',
    method: 'PATCH',
    path: `/v1/workflows/${workflowId}/steps/FACE_LIVENESS/config`,
    body: { config: { confidence_threshold: 75 } },
  });
  const headless = await call({
    operationId: 'createWorkflowSession',
    method: 'POST',
    path: `/v1/workflows/${workflowId}/sessions`,
    body: { email: JANE.email, first_name: 'Jane', last_name: 'Doe', phone: '+14155550123' },
  });
  const headlessId = headless.session_id as string;
  await call({ operationId: 'startWorkflow', method: 'POST', path: `/v1/sessions/${headlessId}/workflow/start` });
  // A script that passes what the content passes too, so the examples that follow are unchanged.
  await call({
    operationId: 'sandboxSetAttemptScript',
    method: 'PUT',
    path: `/__sandbox/sessions/${headlessId}/attempt-script`,
    body: { script: 'ID_VERIFICATION=pass' },
    key: null,
  });
  const slots = await call({
    operationId: 'createSessionUploads',
    method: 'POST',
    path: `/v1/sessions/${headlessId}/uploads`,
    body: {
      files: [
        { file_name: 'passport.jpg', content_type: 'image/jpeg', upload_type: 'id_front' },
        { file_name: 'face.jpg', content_type: 'image/jpeg', upload_type: 'selfie_front' },
      ],
    },
  });
  await put(slots.signed_urls[0].upload_url, image('passport.jpg'), 'image/jpeg');
  await put(slots.signed_urls[1].upload_url, image('face.jpg'), 'image/jpeg');
  await call({
    operationId: 'submitWorkflowStep',
    method: 'POST',
    path: `/v1/sessions/${headlessId}/steps/ID_VERIFICATION`,
    body: { document_type: 'passport-us', uploads: { id_front: slots.signed_urls[0].file_key, selfie_front: slots.signed_urls[1].file_key } },
  });
  await call({ operationId: 'getWorkflowState', method: 'GET', path: `/v1/sessions/${headlessId}/workflow` });

  // Age verification with Parent Connect, driven through the control plane.
  const child = await call({
    operationId: 'createAgeVerification',
    method: 'POST',
    path: '/v1/age-verification',
    body: {
      email: 'kid@example.com',
      firstName: 'Sam',
      lastName: 'Lee',
      phone: '+14155550123',
      method: 'parent-connect',
      ageBand: '13-17',
      platformRestrictions: [{ key: 'chat', label: 'In-game chat', type: 'toggle', category: 'feature', default: true }],
      eulaUrl: 'https://example.com/eula',
    },
  });
  const parentConnectId = new URL(child.links.find((link: { rel: string }) => link.rel === 'parent_connect').href).pathname.split('/').at(-1);
  await call({
    operationId: 'sandboxParentConnectEvent',
    method: 'POST',
    path: `/__sandbox/age-verification/parent-connect/${parentConnectId}/events`,
    body: { event: 'invite' },
    key: null,
  });
  await call({
    operationId: 'sandboxParentConnectEvent',
    method: 'POST',
    path: `/__sandbox/age-verification/parent-connect/${parentConnectId}/events`,
    body: { event: 'verify_parent' },
    key: null,
  });
  const consent = await call({
    operationId: 'sandboxParentConnectEvent',
    method: 'POST',
    path: `/__sandbox/age-verification/parent-connect/${parentConnectId}/events`,
    body: { event: 'give_consent', boundaries: { chat: false } },
    key: null,
  });
  await call({ operationId: 'listParentConnectRequests', method: 'GET', path: '/v1/age-verification/parent-connect?limit=5' });
  await call({ operationId: 'getParentConnectRequest', method: 'GET', path: `/v1/age-verification/parent-connect/${parentConnectId}` });
  await call({ operationId: 'getAgeBoundaries', method: 'GET', path: `/v1/age-verification/boundaries/${consent.child_attestation_id}` });

  // AML: enrol a known subject, save a transaction, then the control plane's enrolments and quota.
  await call({ operationId: 'addMonitoredUser', method: 'POST', path: '/v1/aml/bots/bot_daily/monitored-users', body: { subject_user_id: 'cust_001' } });
  await call({
    operationId: 'saveTransactions',
    method: 'POST',
    path: '/v1/aml/transactions',
    body: {
      bot_id: 'bot_daily',
      transactions: [
        {
          client_txn_id: 'txn-1',
          subject_user_id: 'cust_001',
          timestamp: '2026-01-14T09:00:00Z',
          direction: 'outbound',
          amount: { value: 12500, currency: 'USD' },
          type: 'wire',
        },
      ],
    },
  });

  const control = (operationId: string, method: string, path: string, body?: unknown) => call({ operationId, method, path, body, key: null });
  await control('sandboxGetClock', 'GET', '/__sandbox/clock');
  await control('sandboxChangeClock', 'POST', '/__sandbox/clock', { advance: '90s' });
  await control('sandboxListScenarios', 'GET', '/__sandbox/scenarios?namespace=examples');
  await control('sandboxAddScenario', 'POST', '/__sandbox/scenarios', {
    name: 'verify-down',
    description: 'GET /v1/auth/verify answers 503 twice, then recovers',
    rules: [
      {
        match: { methods: ['GET'], path: '/v1/auth/verify' },
        firstN: 2,
        respond: { status: 503, error: 'Verify is down (scenario verify-down).', headers: { 'Retry-After': '1' } },
      },
    ],
  });
  await control('sandboxToggleScenario', 'POST', '/__sandbox/scenarios/verify-down/activate');
  await control('sandboxRemoveScenario', 'DELETE', '/__sandbox/scenarios/verify-down');
  const verify = await (await target.answering(false)).request('/v1/auth/verify', { headers: { 'x-api-key': 'sk_live_demo' } });
  await control('sandboxGetRequest', 'GET', `/__sandbox/requests/${verify.headers.get('x-request-id')}`);
  await control('sandboxListRequests', 'GET', '/__sandbox/requests?path=/v1/auth/verify&key=sk_live_demo');
  await control('sandboxFindRequests', 'POST', '/__sandbox/requests/find', { method: 'GET', path: '/v1/auth/verify' });
  await control('sandboxCountRequests', 'POST', '/__sandbox/requests/count', { path: '/v1/**', status: 200 });
  await control('sandboxVerifyRequests', 'POST', '/__sandbox/requests/verify', { method: 'GET', path: '/v1/auth/verify', atLeast: 1 });
  await control('sandboxListOrganizations', 'GET', '/__sandbox/organizations');
  await control('sandboxSetBalance', 'PUT', '/__sandbox/organizations/org_demo/balance', { balance: 1000 });
  await control('sandboxListMonitoredUsers', 'GET', '/__sandbox/organizations/org_demo/aml/monitored-users');
  await control('sandboxGetTransactionQuota', 'GET', '/__sandbox/organizations/org_demo/aml/transaction-quota');
  await control('sandboxSetTransactionQuota', 'PUT', '/__sandbox/organizations/org_demo/aml/transaction-quota', { quota: 50000 });
  await control('sandboxRemoveMonitoredUser', 'DELETE', '/__sandbox/organizations/org_demo/aml/bots/bot_daily/monitored-users/cust_001');
  await control('sandboxStats', 'GET', '/__sandbox/stats');
  await control('sandboxGetRetention', 'GET', '/__sandbox/retention');
  await control('sandboxSetRetention', 'PUT', '/__sandbox/retention', { days: 30 });
  await control('sandboxCatalog', 'GET', '/__sandbox/catalog');
  await control('sandboxCoverage', 'GET', '/__sandbox/coverage?kind=scenario-kind');
  await control('sandboxClearCoverage', 'DELETE', '/__sandbox/coverage');
  // The shadow mode's report, as a sandbox started with --shadow-upstream answers it before any request.
  if (target.startShadowMode) {
    target.startShadowMode();
    await control('sandboxDrift', 'GET', '/__sandbox/drift');
  }
  await control('sandboxCreateTestJob', 'POST', '/__sandbox/jobs', { input: { n: 1 } });
  await control('sandboxClearRequests', 'DELETE', '/__sandbox/requests');
  await control('sandboxListOutbox', 'GET', '/__sandbox/outbox?channel=email&limit=1');
  await control('sandboxClearOutbox', 'DELETE', '/__sandbox/outbox');
  // A month later, without recording another clock change: the purge drops the default namespace's records.
  await target.advance(31 * 86_400_000);
  await control('sandboxPurge', 'POST', '/__sandbox/retention/purge');
  await control('sandboxReset', 'POST', '/__sandbox/reset', { seed: 42 });
  return Object.fromEntries(Object.entries(examples).sort(([a], [b]) => a.localeCompare(b)));
}

export const serializeExamples = (examples: OperationExamples) => `${JSON.stringify(examples, null, 2)}\n`;

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const text = serializeExamples(await recordOperationExamples());
  if (process.argv.includes('--check')) {
    if (readFileSync(OPENAPI_EXAMPLES_FILE, 'utf8') !== text) {
      console.error('fixtures/openapi-examples.json is stale: run npx tsx scripts/record-openapi-examples.ts');
      process.exit(1);
    }
  } else {
    writeFileSync(OPENAPI_EXAMPLES_FILE, text);
  }
}
