/**
 * The coverage catalog cannot drift from the code: every sandbox id, magic value, uat type, scenario kind
 * and error code of the tables the code reads is a class with a trigger, and firing the trigger records
 * the class (in-process, one namespace per class so no trigger helps another).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { WORKFLOW_ERROR_CODES } from '../../src/workflows/steps/index.ts';
import { AML_CODE_TRIGGERS } from '../../src/aml/aml.errors.ts';
import { SANDBOX_PARENT_CONNECT } from '../../src/age-verification/sandbox-parent-connect.ts';
import { UAT_TYPE_TABLE } from '../../src/credit-check/uat-types.ts';
import { LIVENESS_MAGIC_VALUES } from '../../src/face/face-liveness.service.ts';
import { FINANCIAL_TEST_IDENTIFIERS } from '../../src/financial/financial-record.ts';
import type { OutcomeClass } from '../../src/platform/coverage/outcome-class.ts';
import { SCENARIO_RULE_KINDS } from '../../src/platform/scenarios/scenario.schema.ts';
import { RE_VERIFICATION_MAGIC_FINGERPRINTS } from '../../src/re-verifications/re-verifications.service.ts';
import { SCREENING_MAGIC_VALUES } from '../../src/screening/magic-values.ts';
import { SANDBOX_SESSION_TEST_IDENTIFIERS } from '../../src/sessions/sandbox-sessions.ts';
import { JURISDICTION_RANGES, VPN_RANGES } from '../../src/igaming/ip-ranges.ts';
import { SESSION_TRANSITIONS } from '../../src/sessions/session.machine.ts';
import { PICTURE_KINDS } from '../../src/images/image-analysis.ts';
import { IMAGE_INPUT_ERROR_KINDS } from '../../src/images/image-input-error.ts';
import { DEEPFAKE_VERDICTS, TRUST_VERDICTS } from '../../src/deepfake/deepfake.schemas.ts';
import { IMAGE_LIMITS } from '../../src/images/image-checks.ts';
// The catalog of classes is every area's: each test reads it from a sandbox with every area loaded.
import { KEYS, loadedSandbox, type TestSandbox } from '../helpers/sandbox.ts';
import { fixture } from '../images/http-helpers.ts';
import { createWorkflow, submit, uploadToSession } from '../workflows/helpers.ts';

const DEEPFAKE_ANALYZE = 'POST /v1/deepfake/analyze';
const DEEPFAKE_SESSION = '5f0c1a52-8a44-4d7e-9b1c-2a6f3e9d8c71';

/** Sends a class's trigger in its own namespace; true when the class was recorded. */
async function fire(sandbox: TestSandbox, outcome: OutcomeClass, namespace: string): Promise<boolean> {
  const request = outcome.trigger.request;
  if (!request) throw new Error(`${outcome.id} has no trigger request`);
  const headers: Record<string, string> = { 'x-sandbox-namespace': namespace, ...request.headers };
  if (request.key !== null) headers['x-api-key'] = request.key;
  if (request.body !== undefined) headers['content-type'] = 'application/json';
  const response = await sandbox.app.request(request.path, {
    method: request.method,
    headers,
    body: request.body === undefined ? undefined : JSON.stringify(request.body),
  });
  await response.text();
  return (await sandbox.coverage(namespace)).hit.some((hit) => hit.id === outcome.id);
}

/** A seeded rule may spare a given request (flaky): a trigger is sent until it hits, 30 times at most. */
async function fireUntilRecorded(sandbox: TestSandbox, outcome: OutcomeClass, namespace: string): Promise<boolean> {
  for (let attempt = 0; attempt < 30; attempt += 1) if (await fire(sandbox, outcome, namespace)) return true;
  return false;
}

function classesOf(sandbox: TestSandbox, kind: OutcomeClass['kind']): OutcomeClass[] {
  return sandbox.platform.coverage.catalog.classes.filter((outcome) => outcome.kind === kind);
}

describe('the coverage catalog and the tables the code reads', () => {
  it('has a class with a working trigger for every sandbox id', async () => {
    const sandbox = await loadedSandbox();
    const ids = [
      ...SANDBOX_SESSION_TEST_IDENTIFIERS.map((entry) => entry.input).filter((id) => /^test_\w+$/.test(id)),
      ...FINANCIAL_TEST_IDENTIFIERS.map((entry) => entry.input),
      ...SANDBOX_PARENT_CONNECT.map((entry) => entry.id),
    ];
    const classes = classesOf(sandbox, 'test-identifier');
    expect(classes.map((c) => c.title.split(' -> ')[0]).sort()).toEqual([...ids].sort());
    for (const outcome of classes) expect(await fire(sandbox, outcome, `id-${classes.indexOf(outcome)}`), outcome.id).toBe(true);
    await sandbox.close();
  });

  it('has a class with a working trigger for every screening, liveness and re-verification magic value and every uat type', async () => {
    const sandbox = await loadedSandbox();
    const expected = [
      ...SCREENING_MAGIC_VALUES.map((value) => `magic-value ${value.endpoint} ${value.input}`),
      ...LIVENESS_MAGIC_VALUES.map((value) => `magic-value POST /v1/face/liveness/sessions ${value.input}`),
      ...RE_VERIFICATION_MAGIC_FINGERPRINTS.map((value) => `magic-value POST /v1/re-verifications device_fingerprint ${value.input}`),
      ...UAT_TYPE_TABLE.map((entry) => `magic-value POST /v1/credit-check/soft uat_type=${entry.input}`),
    ];
    const classes = new Map(classesOf(sandbox, 'magic-value').map((c) => [c.id, c]));
    expect([...classes.keys()].sort()).toEqual([...new Set(expected)].sort());
    let n = 0;
    for (const outcome of classes.values()) expect(await fire(sandbox, outcome, `magic-${(n += 1)}`), outcome.id).toBe(true);
    await sandbox.close();
  });

  it('has a class for every scenario kind, and one with a working trigger for every scenario that acts on one request', async () => {
    const sandbox = await loadedSandbox();
    const kinds = classesOf(sandbox, 'scenario-kind').map((c) => c.id);
    expect(kinds).toEqual(SCENARIO_RULE_KINDS.map(({ kind }) => `scenario-kind ${kind}`));
    const scenarios = classesOf(sandbox, 'scenario');
    expect(scenarios.map((c) => c.id).sort()).toEqual(
      sandbox.platform.scenarios
        .names()
        .map((name) => `scenario ${name}`)
        .sort(),
    );
    // auto-decline acts when a session finishes, not on one request: its trigger is a sentence.
    expect(scenarios.filter((c) => !c.trigger.request).map((c) => c.id)).toEqual(['scenario auto-decline']);
    let n = 0;
    for (const outcome of scenarios.filter((c) => c.trigger.request))
      expect(await fireUntilRecorded(sandbox, outcome, `scenario-${(n += 1)}`), outcome.id).toBe(true);
    await sandbox.close();
  });

  it('records each scenario kind when a rule of that kind acts', async () => {
    const sandbox = await loadedSandbox();
    const namespace = 'kinds';
    for (const { kind, example } of SCENARIO_RULE_KINDS) {
      const scenario = { name: `kind-${kind}`, description: kind, ...('behaviours' in example ? { behaviours: example.behaviours } : { rules: [example] }) };
      expect((await sandbox.call('POST', '/__sandbox/scenarios', { key: null, namespace, body: scenario })).status).toBe(201);
      const header = { 'X-Sandbox-Scenario': scenario.name };
      // The stub's example answers the key check; the other rules match any request.
      const [method, path, body] =
        kind === 'behaviour'
          ? ['POST', '/v1/screening/adverse-media', sandbox.platform.coverage.catalog.operations.get('POST /v1/screening/adverse-media')?.exampleBody]
          : kind === 'stub'
            ? ['GET', '/v1/auth/verify', undefined]
            : ['POST', '/v1/screening/phone-trust', { phone: '+447700900001' }];
      for (let i = 0; i < 30 && !(await sandbox.coverage(namespace)).hit.some((h) => h.id === `scenario-kind ${kind}`); i += 1) {
        await sandbox.call(method, path, { namespace, headers: header, body });
      }
      expect(
        (await sandbox.coverage(namespace)).hit.map((h) => h.id),
        kind,
      ).toContain(`scenario-kind ${kind}`);
    }
    await sandbox.close();
  });

  it('counts a 2xx stub as a stub, whatever requests it answers, never as a failing kind', async () => {
    const sandbox = await loadedSandbox();
    const stub = SCENARIO_RULE_KINDS.find(({ kind }) => kind === 'stub')?.example as object;
    const scenario = { name: 'first-key-check', description: 'the first key check names Acme', rules: [{ ...stub, firstN: 1, latencyMs: 5 }] };
    expect((await sandbox.call('POST', '/__sandbox/scenarios', { key: null, body: scenario })).status).toBe(201);
    const stubbed = await sandbox.call('GET', '/v1/auth/verify', { headers: { 'X-Sandbox-Scenario': scenario.name } });
    expect(stubbed.body).toMatchObject({ organization: { id: 'org_acme' } });
    const kinds = (await sandbox.coverage()).hit.filter((h) => h.kind === 'scenario-kind').map((h) => h.id);
    expect(kinds.sort()).toEqual(['scenario-kind delay', 'scenario-kind stub']);
    await sandbox.close();
  });

  it('has a class for every error code, recorded when the code is answered', async () => {
    const sandbox = await loadedSandbox();
    const codes = [...Object.keys(AML_CODE_TRIGGERS), ...Object.keys(WORKFLOW_ERROR_CODES)].map((code) => `error-code ${code}`);
    const classes = classesOf(sandbox, 'error-code');
    expect(classes.map((c) => c.id).sort()).toEqual(codes.sort());
    const cadence = classes.find((c) => c.id === 'error-code BOT_CADENCE_INVALID');
    expect(cadence && (await fire(sandbox, cadence, 'codes'))).toBe(true);

    // QUOTA_EXCEEDED takes two steps (a lowered quota, then a batch): its trigger says them.
    const quota = classes.find((c) => c.id === 'error-code QUOTA_EXCEEDED');
    expect(quota?.trigger.how).toContain('transaction-quota');
    expect(
      (await sandbox.call('PUT', '/__sandbox/organizations/org_demo/aml/transaction-quota', { key: null, namespace: 'quota', body: { quota: 0 } })).status,
    ).toBe(200);
    const batch = sandbox.platform.coverage.catalog.operations.get('POST /v1/aml/transactions')?.exampleBody;
    expect((await sandbox.call('POST', '/v1/aml/transactions', { namespace: 'quota', body: batch })).status).toBe(429);
    expect((await sandbox.coverage('quota')).hit.map((h) => h.id)).toContain('error-code QUOTA_EXCEEDED');

    // A workflow route's code is recorded from the error body the engine answers.
    const unknown = await sandbox.call('GET', '/v1/sessions/3b241101-e2bb-4255-8caf-4136c566a962/workflow', { namespace: 'workflow-codes' });
    expect(unknown.body.code).toBe('SESSION_NOT_FOUND');
    expect((await sandbox.coverage('workflow-codes')).hit.map((h) => h.id)).toContain('error-code SESSION_NOT_FOUND');
    await sandbox.close();
  });

  it('has a class with a working trigger for every magic address range of VPN detection and IP jurisdiction, and for the addresses outside them', async () => {
    const sandbox = await loadedSandbox();
    const placements = ['non-public', 'ordinary'];
    const expected = [
      ...[...VPN_RANGES.map((range) => range.cidr), ...placements].map((where) => `ip-range POST /v1/igaming/vpn-detection ${where}`),
      ...[...JURISDICTION_RANGES.map((range) => range.cidr), ...placements].map((where) => `ip-range POST /v1/igaming/ip-jurisdiction ${where}`),
    ];
    const classes = classesOf(sandbox, 'ip-range');
    expect(classes.map((c) => c.id).sort()).toEqual(expected.sort());
    expect(classes.find((c) => c.id === 'ip-range POST /v1/igaming/ip-jurisdiction 198.51.100.0/26')?.title).toBe(
      '198.51.100.0/26 (United States (restricted)) -> HIT',
    );
    let n = 0;
    for (const outcome of classes) expect(await fire(sandbox, outcome, `ip-${(n += 1)}`), outcome.id).toBe(true);
    await sandbox.close();
  });

  it('has a class for every deepfake verdict and trust verdict, recorded when its magic word is analysed over uploaded frames', async () => {
    const sandbox = await loadedSandbox();
    const expected = [
      ...DEEPFAKE_VERDICTS.map((verdict) => `response-value ${DEEPFAKE_ANALYZE} verdict=${verdict}`),
      ...TRUST_VERDICTS.map((verdict) => `response-value ${DEEPFAKE_ANALYZE} trustVerdict=${verdict}`),
    ];
    const classes = classesOf(sandbox, 'response-value').filter((c) => c.operation === DEEPFAKE_ANALYZE);
    expect(classes.map((c) => c.id).sort()).toEqual(expected.sort());
    const { frames } = JSON.parse(readFileSync(new URL('../../fixtures/deepfake-live-scan.json', import.meta.url), 'utf8')) as { frames: string[] };
    let n = 0;
    for (const outcome of classes) {
      const namespace = `deepfake-${(n += 1)}`;
      expect(outcome.trigger.how).toContain('PUT the six frames');
      const urls = await sandbox.call('POST', '/v1/deepfake/upload-urls', { namespace, body: { sessionId: DEEPFAKE_SESSION, includeAudio: false } });
      for (const [index, name] of frames.entries()) {
        const target = new URL(urls.body.uploadUrls[`frame_${index}`]);
        const put = await sandbox.app.request(target.pathname + target.search, {
          method: 'PUT',
          headers: { 'content-type': 'image/jpeg' },
          body: fixture(name),
        });
        expect(put.status).toBe(200);
      }
      const request = outcome.trigger.request as NonNullable<OutcomeClass['trigger']['request']>;
      const body = { ...(request.body as Record<string, unknown>), s3Keys: urls.body.uploadKeys };
      expect((await sandbox.call('POST', request.path, { namespace, body })).status).toBe(200);
      expect(
        (await sandbox.coverage(namespace)).hit.map((hit) => hit.id),
        outcome.id,
      ).toContain(outcome.id);
    }
    await sandbox.close();
  });

  it('has a class for every move of the session transition table, recorded when its trigger moves a session', async () => {
    const sandbox = await loadedSandbox();
    const moves = SESSION_TRANSITIONS.flatMap((row) => row.from.flatMap((from) => row.to.map((to) => `transition ${row.event} ${from} -> ${to}`)));
    const classes = classesOf(sandbox, 'transition');
    expect(classes.map((c) => c.id).sort()).toEqual(moves.sort());
    // The applicant's own moves happen on the hosted page or in a workflow step: their trigger is a sentence.
    expect(classes.filter((c) => !c.trigger.request).map((c) => c.id)).toEqual([
      'transition open PENDING -> PENDING',
      'transition attempt_failed PENDING -> PENDING',
      'transition attempt_failed PENDING -> FAILED',
    ]);
    const body = sandbox.platform.coverage.catalog.operations.get('POST /v1/sessions')?.exampleBody;
    let n = 0;
    for (const outcome of classes.filter((c) => c.trigger.request)) {
      const namespace = `transition-${(n += 1)}`;
      const created = await sandbox.call('POST', '/v1/sessions', { namespace, body });
      expect(created.status).toBe(200);
      if (outcome.id.includes(' SUBMITTED -> ')) {
        expect(outcome.trigger.how).toContain('move it to SUBMITTED');
        await sandbox.call('POST', `/__sandbox/sessions/${created.body.id}/outcome`, { key: null, namespace, body: { outcome: 'SUBMITTED' } });
      }
      const request = outcome.trigger.request as NonNullable<OutcomeClass['trigger']['request']>;
      const moved = await sandbox.call(request.method, request.path.replace('{id}', created.body.id), { key: request.key, namespace, body: request.body });
      expect(moved.status, `${outcome.id}: ${moved.text}`).toBe(200);
      expect(
        (await sandbox.coverage(namespace)).hit.map((hit) => hit.id),
        outcome.id,
      ).toContain(outcome.id);
    }
    // A control outcome VERIFIED on a PENDING session submits, then verifies: both moves are recorded.
    const created = await sandbox.call('POST', '/v1/sessions', { namespace: 'transition-both', body });
    await sandbox.call('POST', `/__sandbox/sessions/${created.body.id}/outcome`, { key: null, namespace: 'transition-both', body: { outcome: 'VERIFIED' } });
    expect((await sandbox.coverage('transition-both')).hit.map((hit) => hit.id).filter((id) => id.startsWith('transition '))).toEqual([
      'transition submit PENDING -> SUBMITTED',
      'transition verify SUBMITTED -> VERIFIED',
    ]);
    await sandbox.close();
  });

  it('records the applicant’s own moves: opening the hosted page, and failed workflow attempts up to the limit', async () => {
    const sandbox = await loadedSandbox();
    const moves = async () => (await sandbox.coverage('default')).hit.map((hit) => hit.id).filter((id) => id.startsWith('transition '));
    const plain = await sandbox.call('POST', '/v1/sessions', { body: { firstName: 'Jane', lastName: 'Doe', email: 'jane@example.com' } });
    const page = await sandbox.app.request(`/verify/${plain.body.id}?oid=org_demo&token=${sandbox.pageToken(plain.body.id)}`);
    expect(page.status).toBe(200);
    expect(await moves()).toEqual(['transition open PENDING -> PENDING']);

    const workflowId = await createWorkflow(sandbox, [{ id: 'DOCUMENT_UPLOAD' }]);
    const hosted = await sandbox.call('POST', '/v1/sessions', {
      body: { firstName: 'Jane', lastName: 'Doe', email: 'jane@example.com', workflowId, externalId: 'sandbox-attempts:exhaust' },
    });
    const keys = await uploadToSession(sandbox, hosted.body.id, { id_front: 'passport.jpg' });
    for (let attempt = 1; attempt <= 3; attempt += 1) {
      const answer = await submit(sandbox, hosted.body.id, 'DOCUMENT_UPLOAD', { uploads: { document: keys.id_front } });
      expect(answer.status, answer.text).toBe(200);
    }
    expect((await sandbox.call('GET', `/v1/sessions/${hosted.body.id}`)).body.session_record.status).toBe('FAILED');
    expect(await moves()).toEqual([
      'transition open PENDING -> PENDING',
      'transition attempt_failed PENDING -> PENDING',
      'transition attempt_failed PENDING -> FAILED',
    ]);
    await sandbox.close();
  });

  it('has a class for every kind of refused image, every kind of picture and a face found or not, recorded when its trigger is sent', async () => {
    const sandbox = await loadedSandbox();
    const expected = [
      // The schemas refuse a non-string image first (validation invalid_type): the image layer's own never answers.
      ...IMAGE_INPUT_ERROR_KINDS.filter((kind) => kind !== 'invalid_type').map((kind) => `image error ${kind}`),
      ...PICTURE_KINDS.map((kind) => `image picture ${kind}`),
      'image face found',
      'image face none',
    ];
    const classes = classesOf(sandbox, 'image');
    expect(classes.map((c) => c.id).sort()).toEqual(expected.sort());
    let n = 0;
    for (const outcome of classes.filter((c) => c.trigger.request)) expect(await fire(sandbox, outcome, `image-${(n += 1)}`), outcome.id).toBe(true);
    // The others name a fixture file, or an image too big to inline: sent here as their trigger says.
    expect(classes.filter((c) => !c.trigger.request).map((c) => c.id)).toEqual([
      'image error too_large',
      'image error decode_timeout',
      'image picture document',
      'image picture photo',
      'image face found',
    ]);
    const detect = async (namespace: string, image: Buffer) => {
      const form = new FormData();
      form.set('image', new Blob([image]));
      const response = await sandbox.app.request('/v1/face/detect', {
        method: 'POST',
        headers: { 'x-api-key': KEYS.live, 'x-sandbox-namespace': namespace },
        body: form,
      });
      await response.text();
      return (await sandbox.coverage(namespace)).hit.map((hit) => hit.id);
    };
    expect(await detect('image-passport', fixture('passport.jpg'))).toEqual(expect.arrayContaining(['image picture document', 'image face found']));
    expect(await detect('image-face', fixture('face.jpg'))).toEqual(expect.arrayContaining(['image picture photo', 'image face found']));
    expect(await detect('image-large', Buffer.alloc(IMAGE_LIMITS.maxBytes + 1))).toContain('image error too_large');
    await sandbox.close();
  });

  it('fires every other trigger request it lists and records its class', async () => {
    const sandbox = await loadedSandbox();
    // A deepfake verdict needs its frames uploaded first: the test above fires those.
    const fired = sandbox.platform.coverage.catalog.classes.filter(
      (c) => c.trigger.request && ['validation', 'refusal', 'response-value'].includes(c.kind) && c.operation !== DEEPFAKE_ANALYZE,
    );
    expect(fired.length).toBeGreaterThan(10);
    let n = 0;
    for (const outcome of fired) expect(await fire(sandbox, outcome, `other-${(n += 1)}`), outcome.id).toBe(true);
    await sandbox.close();
  });

  it('fires the trigger of every documented status that one request gives, and records it', { timeout: 120_000 }, async () => {
    const sandbox = await loadedSandbox({ strictResponses: false });
    // Statuses whose trigger is a request: successes need an existing resource for most operations with
    // an id in the path, so only those without one are fired; every error trigger is.
    const statuses = classesOf(sandbox, 'status').filter((c) => {
      const request = c.trigger.request;
      if (!request || request.path.includes('{')) return false;
      return true;
    });
    const misses: string[] = [];
    let n = 0;
    for (const outcome of statuses) if (!(await fireUntilRecorded(sandbox, outcome, `status-${(n += 1)}`))) misses.push(outcome.id);
    expect(misses.join('\n')).toEqual('');
    await sandbox.close();
  });
});
