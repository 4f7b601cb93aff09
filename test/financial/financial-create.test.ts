import { describe, expect, it } from 'vitest';
import { CreateFinancialResponseSchema, FinancialRecordSchema } from '../../src/financial/financial.schemas.ts';
import { bankStatements } from '../../src/financial/financial.store.ts';
import { balanceOf } from '../../src/platform/billing/billing.ts';
import { KEYS, testSandbox, type TestSandbox } from '../helpers/sandbox.ts';
import { APPLICANT, nullPaths, UUID_V4 } from './helpers.ts';

function demoBalance(sandbox: TestSandbox, namespace = 'default'): number {
  const org = sandbox.platform.keyRing.organizations.get('org_demo')!;
  return balanceOf(sandbox.platform.worlds.get(namespace), org);
}

function storedCount(sandbox: TestSandbox, namespace = 'default'): number {
  return bankStatements(sandbox.platform.worlds.get(namespace)).size;
}

describe('POST /v1/financial', () => {
  it('creates a PENDING request and answers bankStatementId, the hosted page URL and links', async () => {
    const sandbox = await testSandbox();
    const created = await sandbox.call('POST', '/v1/financial', { body: { ...APPLICANT, externalId: 'loan-77', period: '6' } });
    expect(created.status).toBe(200);
    const body = CreateFinancialResponseSchema.parse(created.body);
    const id = body.bankStatementId;
    expect(id).toMatch(UUID_V4);
    const { base, verify, console: consoleUrl } = sandbox.platform.urls;
    expect(created.body).toEqual({
      bankStatementId: id,
      bankStatementUrl: `${verify}/bank-statements/${id}?token=${sandbox.pageToken(id)}`,
      externalId: 'loan-77',
      links: [
        { rel: 'admin_console', href: `${consoleUrl}/bank-statements/${id}`, description: 'View the bank statement request in the admin console' },
        { rel: 'bank_statement_details', href: `${base}/v1/financial/${id}`, description: 'Retrieve the bank statement record via the API' },
      ],
    });
    expect(Object.keys(created.body)).toEqual(['bankStatementId', 'bankStatementUrl', 'externalId', 'links']);
    expect(created.headers.get('x-sandbox-explain')).toBe(
      'bank statement request created PENDING (period 6 months); completes 5 s after the applicant links a bank on the hosted page; e-mail invitation to ana.silva@example.com (msg_00000001); SMS invitation to +14035550111 (msg_00000002), in the outbox (GET /__sandbox/outbox)',
    );

    // The stored record, read back through the API.
    const read = await sandbox.call('GET', `/v1/financial/${id}`);
    expect(read.status).toBe(200);
    const record = FinancialRecordSchema.parse(read.body);
    expect(read.body).toEqual({
      id,
      organizationId: 'org_demo',
      userId: record.userId,
      senderUserId: record.senderUserId,
      externalId: 'loan-77',
      status: 'PENDING',
      type: 'request',
      Config: { period: '6' },
      createdAt: '2026-01-15T09:30:00.000Z',
      updatedAt: '2026-01-15T09:30:00.000Z',
    });
    expect(record.userId).toMatch(UUID_V4);
    expect(record.senderUserId).toMatch(UUID_V4);
    expect(record.userId).not.toBe(record.senderUserId);
  });

  it('omits externalId when none was given (never null) and defaults the period to "3"', async () => {
    const sandbox = await testSandbox();
    const created = await sandbox.call('POST', '/v1/financial', { body: APPLICANT });
    expect(created.status).toBe(200);
    expect(created.body).not.toHaveProperty('externalId');
    expect(nullPaths(created.body)).toEqual([]);
    const read = await sandbox.call('GET', `/v1/financial/${created.body.bankStatementId}`);
    expect(read.body).not.toHaveProperty('externalId');
    expect(read.body.Config).toEqual({ period: '3' });
    expect(nullPaths(read.body)).toEqual([]);
  });

  it('gives one applicant the same userId on every request of the organization, and the organization one sender', async () => {
    const sandbox = await testSandbox();
    const ids = [];
    for (const email of [APPLICANT.email, APPLICANT.email.toUpperCase(), 'someone.else@example.com']) {
      const created = await sandbox.call('POST', '/v1/financial', { body: { ...APPLICANT, email } });
      ids.push(created.body.bankStatementId as string);
    }
    const records = await Promise.all(ids.map(async (id) => (await sandbox.call('GET', `/v1/financial/${id}`)).body));
    expect(records[0].userId).toBe(records[1].userId);
    expect(records[2].userId).not.toBe(records[0].userId);
    expect(new Set(records.map((r) => r.senderUserId)).size).toBe(1);
  });

  it('carries namespace=<ns> in the hosted page URL outside the default namespace, and keeps namespaces apart', async () => {
    const sandbox = await testSandbox();
    const created = await sandbox.call('POST', '/v1/financial', { body: APPLICANT, namespace: 'ci-worker-3' });
    const id = created.body.bankStatementId;
    expect(created.body.bankStatementUrl).toBe(
      `${sandbox.platform.urls.verify}/bank-statements/${id}?token=${sandbox.pageToken(id, 'ci-worker-3')}&namespace=ci-worker-3`,
    );
    expect((await sandbox.call('GET', `/v1/financial/${id}`, { namespace: 'ci-worker-3' })).status).toBe(200);
    expect((await sandbox.call('GET', `/v1/financial/${id}`)).status).toBe(404);
  });

  it('charges one token per request', async () => {
    const sandbox = await testSandbox();
    const before = demoBalance(sandbox);
    await sandbox.call('POST', '/v1/financial', { body: APPLICANT });
    await sandbox.call('POST', '/v1/financial', { body: APPLICANT });
    expect(demoBalance(sandbox)).toBe(before - 2);
  });

  it.each([
    ['a missing email', { email: undefined }, "body field email is required: it must be the applicant's e-mail address, e.g. jane.doe@example.com"],
    ['a malformed email', { email: 'ana-at-example' }, 'body field email must be a valid e-mail address such as jane.doe@example.com; got "ana-at-example"'],
    ['a missing firstName', { firstName: undefined }, "body field firstName is required: send the applicant's first name, 1-255 characters"],
    ['an empty lastName', { lastName: '' }, "body field lastName must not be empty: send the applicant's name, 1-255 characters"],
    [
      'snake_case names only (the real client sends camelCase)',
      { firstName: undefined, first_name: 'Ana' },
      "body field firstName is required: send the applicant's first name, 1-255 characters",
    ],
    [
      'a phone not in E.164',
      { phone: '403-555-0111' },
      'body field phone must be in E.164 format: "+" then 10-15 digits, the first 1-9, no spaces (e.g. +14155550123); got "403-555-0111"',
    ],
    ['a missing phone', { phone: undefined }, 'body field phone is required: it must be an E.164 phone number such as +14155550123'],
    ['a period of 12 months', { period: '12' }, 'body field "period" must be one of "3", "6", "9"'],
    ['a numeric period', { period: 6 }, 'body field "period" must be one of "3", "6", "9"'],
    ['a non-boolean sendEmailInvite', { sendEmailInvite: 'yes' }, 'body field sendEmailInvite must be a JSON boolean, true or false; got the string "yes"'],
    ['an externalId of 256 characters', { externalId: 'x'.repeat(256) }, 'body field externalId must be at most 255 characters long; got 256 characters'],
  ])('answers 400 naming the field for %s, and stores and charges nothing', async (_label, patch, message) => {
    const sandbox = await testSandbox();
    const before = demoBalance(sandbox);
    const refused = await sandbox.call('POST', '/v1/financial', { body: { ...APPLICANT, ...patch } });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe(`Invalid request: ${message}.`);
    expect(storedCount(sandbox)).toBe(0);
    expect(demoBalance(sandbox)).toBe(before);
    expect((await sandbox.call('GET', '/v1/financial')).body).toEqual({ bankStatements: [], nextToken: null });
  });

  it('answers 400 for a body that is not JSON', async () => {
    const sandbox = await testSandbox();
    const refused = await sandbox.call('POST', '/v1/financial', { raw: '{"email":' });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatch(/Malformed JSON/);
    expect(storedCount(sandbox)).toBe(0);
  });

  it('answers 402 when the organization has no tokens, storing nothing', async () => {
    const sandbox = await testSandbox();
    const refused = await sandbox.call('POST', '/v1/financial', { body: APPLICANT, key: KEYS.broke });
    expect(refused.status).toBe(402);
    expect(refused.body.error).toMatch(/^Insufficient funds or subscription/);
    expect(storedCount(sandbox)).toBe(0);
  });

  it('refuses a sandbox key with 403 (read-only) and a missing or revoked key with 401', async () => {
    const sandbox = await testSandbox();
    const sandboxKey = await sandbox.call('POST', '/v1/financial', { body: APPLICANT, key: KEYS.sandbox });
    expect(sandboxKey.status).toBe(403);
    expect(sandboxKey.body.error).toMatch(/live API key is needed to create or modify/);
    expect((await sandbox.call('POST', '/v1/financial', { body: APPLICANT, key: null })).status).toBe(401);
    expect((await sandbox.call('POST', '/v1/financial', { body: APPLICANT, key: KEYS.revoked })).status).toBe(401);
    expect(storedCount(sandbox)).toBe(0);
  });
});
