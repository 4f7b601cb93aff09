import { describe, expect, it } from 'vitest';
import { reportSignature as signature } from './report-signature.ts';
import {
  CreditCheckAnalysisDataSchema,
  CreditCheckCreateResponseSchema,
  HardCreditReportSchema,
  SoftCreditReportSchema,
} from '../../src/credit-check/credit-check.schemas.ts';
import { resolveUatType, UAT_TYPE_TABLE, UAT_TYPE_VALUES, uatTypeEntry } from '../../src/credit-check/uat-types.ts';
import { balanceOf } from '../../src/platform/billing/billing.ts';
import { sessions } from '../../src/sessions/sessions.store.ts';
import { SessionListResponseSchema, SingleSessionResponseSchema } from '../../src/sessions/sessions.schemas.ts';
import { KEYS, testSandbox, type TestSandbox } from '../helpers/sandbox.ts';

const APPLICANT = { first_name: 'Sam', last_name: 'Lee', email: 'sam.lee@example.com', phone: '+16045550177' } as const;
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

async function createCheck(sandbox: TestSandbox, kind: 'hard' | 'soft', extra: Record<string, unknown> = {}, options: { namespace?: string } = {}) {
  const created = await sandbox.call('POST', `/v1/credit-check/${kind}`, { body: { ...APPLICANT, ...extra }, ...options });
  if (created.status !== 200) throw new Error(`POST /v1/credit-check/${kind} answered ${created.status}: ${created.text}`);
  return { ...created, body: CreditCheckCreateResponseSchema.parse(created.body) };
}

/** The applicant finishes (driven through the control plane): the session records its analysis. */
async function finish(sandbox: TestSandbox, id: string, namespace?: string) {
  const moved = await sandbox.call('POST', `/__sandbox/sessions/${id}/outcome`, {
    key: null,
    body: { outcome: 'SUBMITTED' },
    ...(namespace ? { namespace } : {}),
  });
  expect(moved.status).toBe(200);
}

async function session(sandbox: TestSandbox, id: string) {
  const read = await sandbox.call('GET', `/v1/sessions/${id}`);
  expect(read.status).toBe(200);
  SingleSessionResponseSchema.parse(read.body);
  return read.body;
}

function demoBalance(sandbox: TestSandbox): number {
  return balanceOf(sandbox.platform.worlds.get('default'), sandbox.platform.keyRing.organizations.get('org_demo')!);
}

/** Paths of null values and of keys holding undefined. */
function nullPaths(value: unknown, path = '$'): string[] {
  if (value === null) return [path];
  if (Array.isArray(value)) return value.flatMap((item, i) => nullPaths(item, `${path}[${i}]`));
  if (typeof value !== 'object') return [];
  return Object.entries(value as Record<string, unknown>).flatMap(([k, v]) => (v === undefined ? [`${path}.${k} (undefined)`] : nullPaths(v, `${path}.${k}`)));
}

describe('POST /v1/credit-check/hard and /soft', () => {
  it.each(['hard', 'soft'] as const)('creates a credit-check-%s session and answers id, session_url, type and links', async (kind) => {
    const sandbox = await testSandbox();
    const created = await createCheck(sandbox, kind, { uat: true, uat_type: 'STANDARD_HIT' });
    const id = created.body.id;
    expect(id).toMatch(UUID_V4);
    const { base, verify, console: consoleUrl } = sandbox.platform.urls;
    expect(created.body).toEqual({
      id,
      session_url: `${verify}/${id}?oid=org_demo&token=${sandbox.pageToken(id)}`,
      type: `credit-check-${kind}`,
      links: [
        { rel: 'admin_console', href: `${consoleUrl}/sessions/${id}`, description: 'View the credit check in the admin console' },
        { rel: 'session_details', href: `${base}/v1/sessions/${id}`, description: 'Retrieve the credit check session via the API' },
      ],
    });
    expect(Object.keys(created.body)).toEqual(['id', 'session_url', 'type', 'links']);
    expect(nullPaths(created.body)).toEqual([]);
    const { score_value } = await reportAfterFinish(sandbox, id);
    expect(created.headers.get('x-sandbox-explain')).toBe(
      `uat true; uat_type STANDARD_HIT -> clean file: cards and a line of credit, all R1; ${kind} check score ${score_value}; ${kind === 'hard' ? 'full report with AI insights' : 'score only'} recorded in analysis_data.credit_report when the applicant finishes (hosted page, or POST /__sandbox/sessions/${id}/outcome); e-mail invitation to sam.lee@example.com (msg_00000001); SMS invitation to +16045550177 (msg_00000002), in the outbox (GET /__sandbox/outbox); 1 token charged, balance 999`,
    );
  });

  it('echoes externalId in camelCase only when given, accepts both spellings and lets camelCase win', async () => {
    const sandbox = await testSandbox();
    const snake = await createCheck(sandbox, 'hard', { external_id: 'app-1' });
    expect(snake.body.externalId).toBe('app-1');
    expect(Object.keys(snake.body)).toEqual(['id', 'session_url', 'type', 'externalId', 'links']);
    const both = await createCheck(sandbox, 'soft', { external_id: 'snake', externalId: 'camel', firstName: 'Samuel', first_name: 'Sammy' });
    expect(both.body.externalId).toBe('camel');
    const read = await session(sandbox, both.body.id);
    expect(read.session_record.external_id).toBe('camel');
    expect(read.user.first_name).toBe('Samuel');
  });

  it('puts redirect_url into the session_url and keeps the namespace', async () => {
    const sandbox = await testSandbox();
    const created = await createCheck(sandbox, 'hard', { redirectUrl: 'https://lender.example/done?x=1' }, { namespace: 'qa-7' });
    expect(created.body.session_url).toBe(
      `${sandbox.platform.urls.verify}/${created.body.id}?oid=org_demo&redirect_url=${encodeURIComponent('https://lender.example/done?x=1')}&token=${sandbox.pageToken(created.body.id, 'qa-7')}&namespace=qa-7`,
    );
    expect((await sandbox.call('GET', `/v1/sessions/${created.body.id}`, { namespace: 'qa-7' })).status).toBe(200);
    expect((await sandbox.call('GET', `/v1/sessions/${created.body.id}`)).status).toBe(404);
  });

  it('defaults both invitations to on and says which ones went to the outbox', async () => {
    const sandbox = await testSandbox();
    const defaults = await createCheck(sandbox, 'hard');
    expect(defaults.headers.get('x-sandbox-explain')).toContain(
      'e-mail invitation to sam.lee@example.com (msg_00000001); SMS invitation to +16045550177 (msg_00000002), in the outbox (GET /__sandbox/outbox)',
    );
    expect(sessions(sandbox.platform.worlds.get('default')).get(defaults.body.id)?.invitations).toEqual({ email: true, sms: true });
    const off = await createCheck(sandbox, 'soft', { send_email_invite: false, sendPhoneInvite: false });
    expect(off.headers.get('x-sandbox-explain')).toContain('no e-mail invitation (send_email_invite false); no SMS invitation (send_phone_invite false)');
    expect(sessions(sandbox.platform.worlds.get('default')).get(off.body.id)?.invitations).toEqual({ email: false, sms: false });
  });

  it.each([
    ['a missing first_name', { first_name: undefined }, "body field first_name (or firstName) is required: send the applicant's first name, 1-255 characters"],
    ['a missing last_name', { last_name: undefined }, "body field last_name (or lastName) is required: send the applicant's last name, 1-255 characters"],
    ['a missing email', { email: undefined }, "body field email is required: it must be the applicant's e-mail address, e.g. jane.doe@example.com"],
    ['a malformed email', { email: 'sam' }, 'body field email must be a valid e-mail address such as jane.doe@example.com; got "sam"'],
    [
      'a phone not in E.164',
      { phone: '604 555 0177' },
      'body field phone must be in E.164 format: "+" then 10-15 digits, the first 1-9, no spaces (e.g. +14155550123); got "604 555 0177"',
    ],
    ['a missing phone', { phone: undefined }, 'body field phone is required: it must be an E.164 phone number such as +14155550123'],
    [
      'an http redirect_url',
      { redirect_url: 'http://lender.example/done' },
      'body field redirect_url must be a valid https:// URL (http and other schemes are refused), e.g. https://example.com/verified; got "http://lender.example/done"',
    ],
    ['a non-boolean uat', { uat: 'true' }, 'body field uat must be a JSON boolean, true or false; got the string "true"'],
    ['a non-boolean send_phone_invite', { send_phone_invite: 1 }, 'body field send_phone_invite must be a JSON boolean, true or false; got 1'],
    ['a first_name of 256 characters', { first_name: 'x'.repeat(256) }, 'body field first_name must be at most 255 characters long; got 256 characters'],
  ])('answers 400 naming the field for %s, creating and charging nothing', async (_label, patch, message) => {
    const sandbox = await testSandbox();
    for (const kind of ['hard', 'soft']) {
      const refused = await sandbox.call('POST', `/v1/credit-check/${kind}`, { body: { ...APPLICANT, ...patch } });
      expect(refused.status).toBe(400);
      expect(refused.body.error).toBe(`Invalid request: ${message}.`);
    }
    expect(sessions(sandbox.platform.worlds.get('default')).size).toBe(0);
    expect(demoBalance(sandbox)).toBe(1000);
  });

  it('answers 402 on an empty balance and 403 for a sandbox key, creating nothing', async () => {
    const sandbox = await testSandbox();
    const broke = await sandbox.call('POST', '/v1/credit-check/hard', { body: APPLICANT, key: KEYS.broke });
    expect(broke.status).toBe(402);
    expect(broke.body.error).toMatch(/^Insufficient funds or subscription/);
    const sandboxKey = await sandbox.call('POST', '/v1/credit-check/soft', { body: APPLICANT, key: KEYS.sandbox });
    expect(sandboxKey.status).toBe(403);
    expect(sandboxKey.body.error).toMatch(/live API key is needed/);
    expect((await sandbox.call('POST', '/v1/credit-check/soft', { body: APPLICANT, key: null })).status).toBe(401);
    expect(sessions(sandbox.platform.worlds.get('default')).size).toBe(0);
  });
});

/** Finishes the session and returns its report with the score as one number. */
async function reportAfterFinish(sandbox: TestSandbox, id: string) {
  await finish(sandbox, id);
  const analysis = CreditCheckAnalysisDataSchema.parse((await session(sandbox, id)).session_record.analysis_data);
  const report = analysis.credit_report;
  return { analysis, report, score_value: report.report_type === 'hard' ? report.score.value : report.score };
}

describe('credit-check sessions in the sessions area', () => {
  it('lists the session in GET /v1/sessions and serves it PENDING without analysis until the applicant finishes', async () => {
    const sandbox = await testSandbox();
    const hard = await createCheck(sandbox, 'hard', { uat: true, uatType: 'MORTGAGE', externalId: 'mortgage-app' });
    sandbox.clock.advance(1_000);
    const soft = await createCheck(sandbox, 'soft', { uat: true, uatType: 'MORTGAGE' });

    const listed = await sandbox.call('GET', '/v1/sessions');
    expect(listed.status).toBe(200);
    const list = SessionListResponseSchema.parse(listed.body);
    expect(list.sessions.map((s) => [s.id, s.type, s.status])).toEqual([
      [soft.body.id, 'credit-check-soft', 'PENDING'],
      [hard.body.id, 'credit-check-hard', 'PENDING'],
    ]);

    const read = await session(sandbox, hard.body.id);
    expect(read.session_record).toMatchObject({
      id: hard.body.id,
      organization_id: 'org_demo',
      type: 'credit-check-hard',
      status: 'PENDING',
      external_id: 'mortgage-app',
    });
    expect(read.session_record).not.toHaveProperty('analysis_data');
    expect(read.user).toMatchObject({ first_name: 'Sam', last_name: 'Lee', email: 'sam.lee@example.com', phone: '+16045550177' });
    expect((await sandbox.call('GET', `/v1/sessions/${hard.body.id}`, { key: KEYS.other })).status).toBe(403);
  });

  it('records the hard report of the requested uat_type when the applicant finishes', async () => {
    const sandbox = await testSandbox();
    const created = await createCheck(sandbox, 'hard', { uat: true, uat_type: 'BANKRUPTCY_PROPOSAL' });
    const { analysis, report } = await reportAfterFinish(sandbox, created.body.id);
    expect(analysis.credit_check).toEqual({
      type: 'credit-check-hard',
      uat: true,
      uat_type: 'BANKRUPTCY_PROPOSAL',
      uat_type_requested: 'BANKRUPTCY_PROPOSAL',
      uat_type_source: 'requested',
    });
    const hard = HardCreditReportSchema.parse(report);
    expect(hard).toMatchObject({ report_type: 'hard', uat_type: 'BANKRUPTCY_PROPOSAL', subject: { first_name: 'Sam', last_name: 'Lee' } });
    expect(hard.bankruptcies.map((b) => [b.type, b.status])).toEqual([['CONSUMER_PROPOSAL', 'ACTIVE']]);
    expect(hard.bankruptcies[0]!.proposal).toBeDefined();
    const [low, high] = uatTypeEntry('BANKRUPTCY_PROPOSAL').scoreRange;
    expect(hard.score.value).toBeGreaterThanOrEqual(low);
    expect(hard.score.value).toBeLessThanOrEqual(high);
    expect(hard.ai_insights.recommendation).not.toBe('APPROVE');
    expect(nullPaths(analysis)).toEqual([]);
  });

  it('records a score-only soft report', async () => {
    const sandbox = await testSandbox();
    const created = await createCheck(sandbox, 'soft', { uat: true, uatType: 'DEATH_NOTICE' });
    const { analysis, report } = await reportAfterFinish(sandbox, created.body.id);
    const soft = SoftCreditReportSchema.parse(report);
    expect(Object.keys(report).sort()).toEqual(['generated_at', 'model', 'reference_number', 'report_type', 'score', 'score_band', 'uat_type']);
    expect(soft).toMatchObject({ report_type: 'soft', uat_type: 'DEATH_NOTICE', score: 300, score_band: 'POOR', generated_at: '2026-01-15T09:30:00.000Z' });
    expect(analysis.credit_check.type).toBe('credit-check-soft');
  });

  it('records the report when the applicant finishes on the hosted page too', async () => {
    const sandbox = await testSandbox();
    const created = await createCheck(sandbox, 'hard', { uat: true, uatType: 'TRADE_R5' });
    const url = new URL(created.body.session_url);
    const page = await sandbox.app.request(`${url.pathname}${url.search}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('credit check');
    const submitted = await sandbox.app.request(`${url.pathname}/outcome${url.search}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'outcome=success',
    });
    expect(submitted.status).toBe(200);
    const read = await session(sandbox, created.body.id);
    expect(read.session_record.status).toBe('SUBMITTED');
    const report = HardCreditReportSchema.parse(read.session_record.analysis_data.credit_report);
    expect(report.uat_type).toBe('TRADE_R5');
    expect(report.trades.some((t) => t.rating === 'R5')).toBe(true);
  });

  it('chooses the persona from the session id when uat_type is missing or unrecognized, and says so', async () => {
    const sandbox = await testSandbox();
    for (const extra of [{ uat: true }, { uat: true, uat_type: 'standard_hit' }]) {
      const created = await createCheck(sandbox, 'hard', extra);
      const expected = resolveUatType(undefined, created.body.id).uatType;
      const { analysis } = await reportAfterFinish(sandbox, created.body.id);
      expect(analysis.credit_check).toMatchObject({ uat_type: expected, uat_type_source: 'derived-from-session-id' });
      const why = 'uat_type' in extra ? 'uat_type "standard_hit" not recognized (values are case-sensitive)' : 'no uat_type given';
      expect(created.headers.get('x-sandbox-explain')).toContain(
        `uat true; ${why}; persona chosen from the session id -> ${expected}: ${uatTypeEntry(expected).outcome}`,
      );
    }
  });

  it('gives every one of the 30 uat_types its own coherent hard report through HTTP', async () => {
    // 90 calls on a frozen clock: past the rate limit's burst.
    const sandbox = await testSandbox({ rateLimit: false });
    const signatures = new Map<string, string>();
    for (const entry of UAT_TYPE_TABLE) {
      const created = await createCheck(sandbox, 'hard', { uat: true, uat_type: entry.input });
      const { report } = await reportAfterFinish(sandbox, created.body.id);
      const hard = HardCreditReportSchema.parse(report);
      expect(hard.uat_type).toBe(entry.input);
      expect(hard.score.value, entry.input).toBeGreaterThanOrEqual(entry.scoreRange[0]);
      expect(hard.score.value, entry.input).toBeLessThanOrEqual(entry.scoreRange[1]);
      expect(hard.bankruptcies.length > 0, entry.input).toBe(entry.group === 'Bankruptcy');
      expect(hard.collections.length > 0, entry.input).toBe(entry.group === 'Collections');
      expect(hard.legal_items.length > 0, entry.input).toBe(entry.group === 'Legal');
      signatures.set(entry.input, signature(hard));
    }
    expect(new Set(signatures.values()).size).toBe(30);
    expect(sessions(sandbox.platform.worlds.get('default')).size).toBe(30);
    expect(demoBalance(sandbox)).toBe(970);
  });

  it('gives every uat_type a soft score inside its persona range', async () => {
    const sandbox = await testSandbox({ rateLimit: false });
    for (const uatType of UAT_TYPE_VALUES) {
      const created = await createCheck(sandbox, 'soft', { uat: true, uatType });
      const soft = SoftCreditReportSchema.parse((await reportAfterFinish(sandbox, created.body.id)).report);
      const [low, high] = uatTypeEntry(uatType).scoreRange;
      expect(soft.uat_type).toBe(uatType);
      expect(soft.score >= low && soft.score <= high, `${uatType} ${soft.score}`).toBe(true);
    }
  });
});

describe('the catalog', () => {
  it('lists the 30 uat_type magic values for both credit-check endpoints', async () => {
    const sandbox = await testSandbox();
    const catalog = (await sandbox.call('GET', '/__sandbox/catalog', { key: null })).body;
    const entries = catalog.magicValues.filter((e: { endpoint: string }) => e.endpoint === 'POST /v1/credit-check/hard|soft');
    expect(entries.map((e: { input: string }) => e.input)).toEqual(UAT_TYPE_VALUES.map((v) => `uat_type=${v}`));
    expect(entries[0]).toEqual({
      endpoint: 'POST /v1/credit-check/hard|soft',
      input: 'uat_type=SHELL_FILE',
      outcome: 'Clean: thin file: one address, one inquiry, no trades (score 600-630)',
      description: 'A file opened a few months ago by a single inquiry; no credit history to score on.',
    });
  });
});
