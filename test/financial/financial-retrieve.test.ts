import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FinancialRecordSchema } from '../../src/financial/financial.schemas.ts';
import { FINANCIAL_TEST_IDENTIFIERS } from '../../src/financial/financial-record.ts';
import { KEYS, testSandbox } from '../helpers/sandbox.ts';
import { createBankStatementRequest, nullPaths } from './helpers.ts';
import { statementArithmeticProblems, toCents } from './statement-arithmetic.ts';

const fixture = (id: string) => JSON.parse(readFileSync(join(import.meta.dirname, '../../fixtures/sandbox/financial', `${id}.json`), 'utf8'));

/** Nulls are allowed only inside the provider's statement layout (Debit/Credit/Code, LastFourDigits, Limit, POBox). */
const recordNulls = (body: unknown) => nullPaths(body, '$', ['statement']);

describe('GET /v1/financial/{id} with a live key', () => {
  it('answers 400 naming the id for a malformed id, before looking anything up', async () => {
    const sandbox = await testSandbox();
    for (const bad of ['fin_1', 'not-a-uuid', '04abb7e2-7682-4724-b0a9-580ffbc2fc1dx', 'test_Completed']) {
      const refused = await sandbox.call('GET', `/v1/financial/${encodeURIComponent(bad)}`);
      expect(refused.status, bad).toBe(400);
      expect(refused.body.error).toBe(
        'Invalid request: path parameter "id" must be a bank statement id (a UUID) or a sandbox test identifier such as test_completed.',
      );
    }
  });

  it('answers 404 for an unknown id, and for a test identifier (those are for sandbox keys)', async () => {
    const sandbox = await testSandbox();
    const unknown = await sandbox.call('GET', '/v1/financial/6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toBe(
      'Bank statement 6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b was not found in this namespace: use the bankStatementId returned by POST /v1/financial.',
    );
    expect((await sandbox.call('GET', '/v1/financial/test_completed')).status).toBe(404);
  });

  it("answers 403 for another organization's record", async () => {
    const sandbox = await testSandbox();
    const id = await createBankStatementRequest(sandbox);
    const refused = await sandbox.call('GET', `/v1/financial/${id}`, { key: KEYS.other });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe(`Bank statement ${id} belongs to another organization: use an API key of the organization that created it.`);
  });

  it('answers 401 without a key', async () => {
    const sandbox = await testSandbox();
    expect((await sandbox.call('GET', '/v1/financial/test_completed', { key: null })).status).toBe(401);
  });
});

describe('GET /v1/financial/{id} with a sandbox key', () => {
  it('answers test_completed with the fixture, organizationId being the caller organization', async () => {
    const sandbox = await testSandbox();
    const read = await sandbox.call('GET', '/v1/financial/test_completed', { key: KEYS.sandbox });
    expect(read.status).toBe(200);
    const record = FinancialRecordSchema.parse(read.body);
    expect(read.body).toEqual({ ...fixture('test_completed'), organizationId: 'org_demo' });
    expect(read.headers.get('x-sandbox-explain')).toBe(
      'sandbox test identifier test_completed -> COMPLETED request record (fixtures/sandbox/financial/test_completed.json)',
    );

    // The documented values.
    expect(record).toMatchObject({
      id: 'test_completed',
      status: 'COMPLETED',
      type: 'request',
      externalId: 'sandbox-bank-statement-001',
      Config: { period: '3' },
      createdAt: '2026-01-05T14:00:00.000Z',
      updatedAt: '2026-01-05T14:12:35.000Z',
    });
    const statement = record.statement!;
    expect(statement).toMatchObject({ HttpStatusCode: 200, InstitutionName: 'Sandbox Capital', InstitutionId: 901, Institution: 'SandboxCapital' });
    expect(statement.Accounts.map((a) => [a.Title, a.Currency, a.Balance.Current])).toEqual([
      ['Everyday Chequing', 'CAD', 5885.86],
      ['High Interest Savings', 'CAD', statement.Accounts[1]!.Transactions.at(-1)!.Balance],
    ]);
    expect(statement.Accounts[0]!.Holder).toMatchObject({ Name: 'ALEX MARTIN', Email: 'alex.martin@example.com', PhoneNumber: '(416) 555-0142' });

    // The arithmetic over the whole statement as served: each Balance = previous + Credit - Debit; Current = last.
    expect(statementArithmeticProblems(statement)).toEqual([]);
    for (const account of statement.Accounts) {
      const first = account.Transactions[0]!;
      const opening = toCents(first.Balance) - toCents(first.Credit ?? 0) + toCents(first.Debit ?? 0);
      const net = account.Transactions.reduce((sum, t) => sum + toCents(t.Credit ?? 0) - toCents(t.Debit ?? 0), 0);
      expect(opening + net, account.Title).toBe(toCents(account.Balance.Current));
    }
    // Transfers to savings appear on both accounts, same day, same amount.
    const [chequing, savings] = statement.Accounts;
    const out = chequing!.Transactions.filter((t) => t.Description === 'TRANSFER TO SAVINGS').map((t) => [t.Date, t.Debit]);
    const into = savings!.Transactions.filter((t) => t.Description === 'TRANSFER FROM CHEQUING').map((t) => [t.Date, t.Credit]);
    expect(out.length).toBeGreaterThan(0);
    expect(into).toEqual(out);
    expect(recordNulls(read.body)).toEqual([]);
  });

  it.each([
    ['test_pending', 'PENDING', 'request'],
    ['test_in_progress', 'IN_PROGRESS', 'request'],
    ['test_flinks_in_progress', 'FLINKS_IN_PROGRESS', 'request'],
    ['test_upload_completed', 'COMPLETED', 'upload'],
  ])('answers %s with its fixture: %s %s, without a statement', async (id, status, type) => {
    const sandbox = await testSandbox();
    const read = await sandbox.call('GET', `/v1/financial/${id}`, { key: KEYS.sandbox });
    expect(read.status).toBe(200);
    expect(FinancialRecordSchema.parse(read.body)).toMatchObject({ id, status, type, organizationId: 'org_demo' });
    expect(read.body).toEqual({ ...fixture(id), organizationId: 'org_demo' });
    expect(read.body).not.toHaveProperty('statement');
    expect(recordNulls(read.body)).toEqual([]);
  });

  it('answers any other id with a completed record built from the id: same id, same bytes, whatever the clock', async () => {
    const sandbox = await testSandbox();
    const id = '2f6d0c1e-8b7a-4c3d-9e5f-a1b2c3d4e5f6';
    const first = await sandbox.call('GET', `/v1/financial/${id}`, { key: KEYS.sandbox });
    sandbox.clock.advance(86_400_000 * 40);
    const again = await sandbox.call('GET', `/v1/financial/${id}`, { key: KEYS.sandbox });
    const fresh = await (await testSandbox({ seed: 7 })).call('GET', `/v1/financial/${id}`, { key: KEYS.sandbox });
    expect(first.status).toBe(200);
    expect(again.text).toBe(first.text);
    expect(fresh.text).toBe(first.text);

    const record = FinancialRecordSchema.parse(first.body);
    expect(record).toMatchObject({ id, organizationId: 'org_demo', status: 'COMPLETED', type: 'request' });
    expect(statementArithmeticProblems(record.statement!)).toEqual([]);
    expect(first.headers.get('x-sandbox-explain')).toMatch(
      new RegExp(`^sandbox: id ${id} is not a test identifier -> COMPLETED request record from \\w+, period [369] months, built from a hash of the id$`),
    );
    expect(recordNulls(first.body)).toEqual([]);

    const other = await sandbox.call('GET', '/v1/financial/test_anything_else', { key: KEYS.sandbox });
    expect(other.body.id).toBe('test_anything_else');
    expect(other.body.statement.Accounts[0].Transactions[0].Id).not.toBe(record.statement!.Accounts[0]!.Transactions[0]!.Id);
  });

  it('never shows a sandbox key the records live keys created', async () => {
    const sandbox = await testSandbox();
    const id = await createBankStatementRequest(sandbox);
    const read = await sandbox.call('GET', `/v1/financial/${id}`, { key: KEYS.sandbox });
    expect(read.body.status).toBe('COMPLETED');
    expect(read.body.statement.Accounts[0].Holder.Name).not.toBe('ANA SILVA');
  });

  it('still validates the id format', async () => {
    const sandbox = await testSandbox();
    expect((await sandbox.call('GET', '/v1/financial/fin_1', { key: KEYS.sandbox })).status).toBe(400);
  });

  it('has a fixture file for every test identifier of the table', () => {
    for (const entry of FINANCIAL_TEST_IDENTIFIERS) expect(fixture(entry.input).id).toBe(entry.input);
  });
});
