/**
 * Save transactions over HTTP: envelopes, per-record outcomes with field-level errors, first-sight
 * enrolment under the bot, and the monthly quota (429 QUOTA_EXCEEDED with the quota fields).
 */
import { describe, expect, it } from 'vitest';
import { QuotaExceededSchema, SaveTransactionsResponseSchema } from '../../src/aml/aml.schemas.ts';
import { FROZEN_AT, KEYS, testSandbox, type TestSandbox } from '../helpers/sandbox.ts';

const TXN = {
  client_txn_id: 'txn-1',
  subject_user_id: 'subject-1',
  timestamp: '2026-01-14T09:00:00Z',
  direction: 'outbound',
  amount: { value: 12500, currency: 'USD' },
  type: 'wire',
} as const;

const save = (sandbox: TestSandbox, body: unknown, key?: string) =>
  sandbox.call('POST', '/v1/aml/transactions', { body, ...(key === undefined ? {} : { key }) });
const enrolments = async (sandbox: TestSandbox) =>
  (await sandbox.call('GET', '/__sandbox/organizations/org_demo/aml/monitored-users', { key: null })).body.monitored_users as {
    bot_id: string;
    subject_user_id: string;
    subject_user_name: string | null;
  }[];

describe('save transactions', () => {
  it('accepts a bare array and an object with bot_id; results per record in order', async () => {
    const sandbox = await testSandbox();
    const bare = await save(sandbox, [TXN]);
    expect(bare.status).toBe(200);
    expect(SaveTransactionsResponseSchema.parse(bare.body)).toEqual({
      accepted: 1,
      warned: 0,
      rejected: 0,
      results: [{ index: 0, client_txn_id: 'txn-1', status: 'accepted' }],
    });

    const wrapped = await save(sandbox, { bot_id: 'bot_realtime', transactions: [{ ...TXN, client_txn_id: 'txn-2', subject_user_id: 'subject-2' }] });
    expect(wrapped.body.accepted).toBe(1);
  });

  it('warns, rejects with field-level errors, and still answers 200', async () => {
    const sandbox = await testSandbox();
    const answer = await save(sandbox, [
      { ...TXN, amount: { value: 100, currency: 'EUR' } },
      {
        ...TXN,
        client_txn_id: 'txn-bad',
        direction: 'sideways',
        amount: { value: -5, currency: 'usd' },
        normalized_amount: { value: 1, currency: 'USD', fx_rate: 0 },
      },
      { subject_user_id: 'subject-9' },
      { ...TXN, client_txn_id: undefined, type: 'crypto' },
      TXN,
    ]);
    expect(answer.status).toBe(200);
    const body = SaveTransactionsResponseSchema.parse(answer.body);
    expect([body.accepted, body.warned, body.rejected]).toEqual([0, 3, 2]);
    expect(body.results[0]).toEqual({ index: 0, client_txn_id: 'txn-1', status: 'warned', warnings: ['NORMALIZED_AMOUNT_MISSING'] });
    expect(body.results[1]).toEqual({
      index: 1,
      client_txn_id: 'txn-bad',
      status: 'rejected',
      errors: [
        { code: 'FIELD_INVALID', field: 'direction', message: 'direction must be one of inbound, outbound, internal' },
        { code: 'FIELD_INVALID', field: 'amount.value', message: 'amount.value must be a number greater than 0' },
        { code: 'FIELD_INVALID', field: 'amount.currency', message: 'amount.currency must be an ISO 4217 code in capitals, e.g. USD' },
        { code: 'FIELD_INVALID', field: 'normalized_amount.fx_rate', message: 'normalized_amount.fx_rate must be a number greater than 0' },
      ],
    });
    expect(body.results[2]?.errors?.map((e) => e.field)).toEqual(['timestamp', 'direction', 'amount', 'type']);
    expect(body.results[2]?.client_txn_id).toBeNull();
    expect(body.results[3]).toMatchObject({ status: 'warned', warnings: ['CRYPTO_DETAILS_MISSING', 'CLIENT_TXN_ID_MISSING'] });
    expect(body.results[4]).toEqual({ index: 4, client_txn_id: 'txn-1', status: 'warned', warnings: ['DUPLICATE_CLIENT_TXN_ID'] });
  });

  it('enrols a subject seen for the first time under the bot; the enrolment route then answers already enrolled', async () => {
    const sandbox = await testSandbox();
    await save(sandbox, {
      bot_id: 'bot_daily',
      transactions: [
        { ...TXN, subject: { first_name: 'Sam', last_name: 'Lee' }, geography: { origin_country: 'CA' } },
        { ...TXN, client_txn_id: 'txn-3' },
      ],
    });
    expect(await enrolments(sandbox)).toMatchObject([
      {
        bot_id: 'bot_daily',
        subject_user_id: 'subject-1',
        subject_user_name: 'Sam Lee',
        subject_country: 'CA',
        added_by: 'key_live_demo',
        added_at: FROZEN_AT,
      },
    ]);
    const again = await sandbox.call('POST', '/v1/aml/bots/bot_daily/monitored-users', { body: { subject_user_id: 'subject-1' } });
    expect(again.status).toBe(200);
    // Without bot_id: the organization's first bot with a usable interval (bot_daily); rejected records enrol nobody.
    await save(sandbox, [{ ...TXN, client_txn_id: 'txn-4', subject_user_id: 'subject-5' }, { subject_user_id: 'subject-6' }]);
    expect((await enrolments(sandbox)).map((e) => `${e.bot_id}/${e.subject_user_id}`)).toEqual(['bot_daily/subject-1', 'bot_daily/subject-5']);
  });

  it('refuses bad envelopes, unknown and misconfigured bots, and sandbox keys, storing nothing', async () => {
    const sandbox = await testSandbox();
    const cases: [unknown, number, string][] = [
      [[], 400, 'transactions must not be empty'],
      [{ transactions: [] }, 400, 'transactions must not be empty'],
      [Array.from({ length: 501 }, () => TXN), 400, 'at most 500'],
      [{ bot_id: 'bot_daily' }, 400, 'transactions'],
      [[TXN, 'not an object'], 400, 'each transaction must be a JSON object'],
      [{ bot_id: 'bot_nope', transactions: [TXN] }, 404, 'Bot bot_nope was not found'],
      [{ bot_id: 'bot_misconfigured', transactions: [TXN] }, 400, 'unusable check interval'],
    ];
    for (const [body, status, message] of cases) {
      const answer = await save(sandbox, body);
      expect(answer.status, JSON.stringify(body).slice(0, 80)).toBe(status);
      expect(answer.body.error).toContain(message);
    }
    expect((await save(sandbox, [TXN], KEYS.sandbox)).status).toBe(403);
    expect((await sandbox.call('POST', '/v1/aml/transactions', { key: null, body: [TXN] })).status).toBe(403);
    expect((await sandbox.call('GET', '/__sandbox/organizations/org_demo/aml/transaction-quota', { key: null })).body).toMatchObject({
      used: 0,
      quota: 100000,
    });
    expect(await enrolments(sandbox)).toEqual([]);
  });
});

describe('the monthly quota', () => {
  it('counts every record sent, refuses a batch that does not fit with 429 QUOTA_EXCEEDED, and resets with the month', async () => {
    const sandbox = await testSandbox();
    const set = await sandbox.call('PUT', '/__sandbox/organizations/org_demo/aml/transaction-quota', { key: null, body: { quota: 3 } });
    expect(set.body).toEqual({ quota: 3, used: 0, remaining: 3, month: '2026-01', resets_at: '2026-02-01T00:00:00.000Z' });

    expect((await save(sandbox, [TXN, { subject_user_id: 'rejected-still-counts' }])).status).toBe(200);
    const over = await save(sandbox, [
      { ...TXN, client_txn_id: 'a' },
      { ...TXN, client_txn_id: 'b' },
    ]);
    expect(over.status).toBe(429);
    expect(QuotaExceededSchema.parse(over.body)).toEqual({
      error: expect.stringContaining('Monthly transaction quota exceeded'),
      code: 'QUOTA_EXCEEDED',
      quota: 3,
      used: 2,
      remaining: 1,
      month: '2026-01',
      resets_at: '2026-02-01T00:00:00.000Z',
    });
    expect(over.headers.get('retry-after')).toBe(String((Date.parse('2026-02-01T00:00:00Z') - Date.parse(FROZEN_AT)) / 1000));
    expect((await save(sandbox, [{ ...TXN, client_txn_id: 'c' }])).status).toBe(200);
    expect((await save(sandbox, [{ ...TXN, client_txn_id: 'd' }])).status).toBe(429);
    // Another organization has its own quota.
    expect((await save(sandbox, [TXN], KEYS.other)).status).toBe(200);

    await sandbox.call('POST', '/__sandbox/clock', { key: null, body: { set: '2026-02-01T00:00:00.000Z' } });
    expect((await save(sandbox, [{ ...TXN, client_txn_id: 'e' }])).status).toBe(200);
    expect((await sandbox.call('GET', '/__sandbox/organizations/org_demo/aml/transaction-quota', { key: null })).body).toMatchObject({
      month: '2026-02',
      used: 1,
    });
  });
});
