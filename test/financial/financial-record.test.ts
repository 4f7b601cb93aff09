import { describe, expect, it } from 'vitest';
import {
  CreateFinancialBodySchema,
  CreateFinancialResponseSchema,
  FinancialIdSchema,
  FinancialListResponseSchema,
  FinancialRecordSchema,
  StoredFinancialRecordSchema,
} from '../../src/financial/financial.schemas.ts';
import {
  FinancialDomainError,
  completeBankLink,
  createFinancialRecord,
  startBankLink,
  toCreateFinancialJson,
  toFinancialRecordJson,
  uploadStatements,
} from '../../src/financial/financial-record.ts';
import { allKeys, statementArithmeticProblems } from './statement-arithmetic.ts';

const T0 = Date.parse('2026-06-01T08:00:00.000Z');
const ID = '0d9a6f3e-2b1c-4e5f-8a7b-9c0d1e2f3a4b';

function created(extra: Record<string, unknown> = {}) {
  const body = CreateFinancialBodySchema.parse({ email: 'ana@example.com', firstName: 'Ana', lastName: 'Silva', phone: '+14035550111', ...extra });
  return createFinancialRecord({ id: ID, organizationId: 'org_demo', userId: 'user-1', senderUserId: 'sender-1', body, nowMs: T0 }).value;
}

describe('CreateFinancialBodySchema', () => {
  it('defaults period to "3" and both invites to true', () => {
    expect(CreateFinancialBodySchema.parse({ email: 'a@example.com', firstName: 'A', lastName: 'B', phone: '+14165550100' })).toEqual({
      email: 'a@example.com',
      firstName: 'A',
      lastName: 'B',
      phone: '+14165550100',
      period: '3',
      sendEmailInvite: true,
      sendPhoneInvite: true,
    });
  });

  it.each([
    ['period 12', { period: '12' }, 'period'],
    ['numeric period', { period: 6 }, 'period'],
    ['bad phone', { phone: '4165550100' }, 'phone'],
    ['bad email', { email: 'nope' }, 'email'],
    ['empty firstName', { firstName: '' }, 'firstName'],
    ['snake_case name only', { firstName: undefined, first_name: 'A' }, 'firstName'],
  ])('refuses a body with %s', (_label, patch, path) => {
    const result = CreateFinancialBodySchema.safeParse({ email: 'a@example.com', firstName: 'A', lastName: 'B', phone: '+14165550100', ...patch });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.path.join('.'))).toEqual([path]);
  });
});

describe('FinancialIdSchema', () => {
  it('accepts UUIDs and sandbox test identifiers, refuses anything else', () => {
    expect(FinancialIdSchema.safeParse(ID).success).toBe(true);
    expect(FinancialIdSchema.safeParse('test_completed').success).toBe(true);
    for (const bad of ['abc', 'fin_1', '../etc/passwd', `${ID}x`, 'test_', 'test_Completed!', '']) {
      expect(FinancialIdSchema.safeParse(bad).success, bad).toBe(false);
    }
  });
});

describe('a bank statement request from creation to completion', () => {
  it('starts PENDING with no statement, updatedAt equal to createdAt, externalId omitted', () => {
    const record = created();
    expect(StoredFinancialRecordSchema.parse(record)).toEqual(record);
    const { value: body, explanations } = toFinancialRecordJson(record, T0 + 1_000);
    expect(FinancialRecordSchema.parse(body)).toEqual(body);
    expect(body).toEqual({
      id: ID,
      organizationId: 'org_demo',
      userId: 'user-1',
      senderUserId: 'sender-1',
      status: 'PENDING',
      type: 'request',
      Config: { period: '3' },
      createdAt: '2026-06-01T08:00:00.000Z',
      updatedAt: '2026-06-01T08:00:00.000Z',
    });
    expect(explanations.join('; ')).toContain('waiting for the applicant');
  });

  it('keeps the wire key order of the spec and echoes externalId when given', () => {
    const { value: body } = toFinancialRecordJson(created({ externalId: 'loan-77', period: '9' }), T0);
    expect(Object.keys(body)).toEqual(['id', 'organizationId', 'userId', 'senderUserId', 'externalId', 'status', 'type', 'Config', 'createdAt', 'updatedAt']);
    expect(body.externalId).toBe('loan-77');
    expect(body.Config).toEqual({ period: '9' });
  });

  it('moves through IN_PROGRESS and FLINKS_IN_PROGRESS to COMPLETED with the statement of the linked bank', () => {
    const picked = startBankLink(created({ period: '6' }), 'MapleCrest', T0 + 60_000);
    const linked = completeBankLink(picked, undefined, T0 + 75_000);
    expect(linked).toMatchObject({ bankCode: 'MapleCrest', startedAt: '2026-06-01T08:01:00.000Z', linkedAt: '2026-06-01T08:01:15.000Z' });

    // Timeline
    expect(toFinancialRecordJson(picked, T0 + 60_000).value.status).toBe('IN_PROGRESS');
    expect(toFinancialRecordJson(linked, T0 + 76_999).value.status).toBe('IN_PROGRESS');
    const fetching = toFinancialRecordJson(linked, T0 + 77_000).value;
    expect(fetching).toMatchObject({ status: 'FLINKS_IN_PROGRESS', updatedAt: '2026-06-01T08:01:17.000Z' });
    expect(fetching).not.toHaveProperty('statement');

    // Completed
    const done = toFinancialRecordJson(linked, T0 + 80_000).value;
    expect(FinancialRecordSchema.parse(done)).toEqual(done);
    expect(done).toMatchObject({ status: 'COMPLETED', updatedAt: '2026-06-01T08:01:20.000Z' });
    expect(done.statement).toMatchObject({ InstitutionName: 'MapleCrest Bank', Institution: 'MapleCrest', InstitutionId: 902 });
    expect(done.statement!.Accounts[0]!.Holder).toMatchObject({ Name: 'ANA SILVA', Email: 'ana@example.com', PhoneNumber: '(403) 555-0111' });
    expect(statementArithmeticProblems(done.statement!)).toEqual([]);
    expect(allKeys(done).filter((key) => /transit|institutionnumber/i.test(key))).toEqual([]);

    // The statement is fixed at completion: a later read returns the same body.
    expect(JSON.stringify(toFinancialRecordJson(linked, T0 + 30 * 86_400_000).value)).toBe(JSON.stringify(done));
  });

  it('links in one step with the default bank when none was picked', () => {
    const linked = completeBankLink(created(), undefined, T0 + 5_000);
    expect(linked).toMatchObject({ bankCode: 'SandboxCapital', startedAt: linked.linkedAt });
    expect(toFinancialRecordJson(linked, T0 + 10_000).value.statement?.Institution).toBe('SandboxCapital');
  });

  it('lets the applicant change the bank before finishing', () => {
    const record = startBankLink(startBankLink(created(), 'MapleCrest', T0 + 1_000), 'TrueNorth', T0 + 2_000);
    expect(record).toMatchObject({ bankCode: 'TrueNorth', startedAt: '2026-06-01T08:00:01.000Z' });
  });

  it('refuses an unknown bank, naming the valid ones', () => {
    expect(() => startBankLink(created(), 'RealBank', T0)).toThrow(FinancialDomainError);
    try {
      completeBankLink(created(), 'RealBank', T0);
    } catch (error) {
      expect(error).toMatchObject({ code: 'UNKNOWN_BANK' });
      expect((error as Error).message).toBe('unknown bank "RealBank": choose one of SandboxCapital, MapleCrest, BorealisCU, TrueNorth, PrairieSky');
    }
  });

  it('refuses to link, pick or upload again once linked', () => {
    const linked = completeBankLink(created(), 'BorealisCU', T0 + 1_000);
    for (const again of [
      () => completeBankLink(linked, 'MapleCrest', T0 + 2_000),
      () => startBankLink(linked, 'MapleCrest', T0 + 2_000),
      () => uploadStatements(linked, T0 + 2_000),
    ]) {
      expect(again).toThrow(expect.objectContaining({ code: 'ALREADY_LINKED' }));
    }
  });

  it('completes an upload without a statement and without the provider step', () => {
    const uploaded = uploadStatements(startBankLink(created(), 'MapleCrest', T0 + 1_000), T0 + 2_000);
    expect(uploaded.type).toBe('upload');
    expect(uploaded).not.toHaveProperty('bankCode');
    expect(toFinancialRecordJson(uploaded, T0 + 4_000).value.status).toBe('IN_PROGRESS');
    const done = toFinancialRecordJson(uploaded, T0 + 7_000).value;
    expect(FinancialRecordSchema.parse(done)).toEqual(done);
    expect(done).toMatchObject({ status: 'COMPLETED', type: 'upload' });
    expect(done).not.toHaveProperty('statement');
  });
});

describe('FinancialRecordSchema', () => {
  const base = toFinancialRecordJson(created(), T0).value;
  const statement = toFinancialRecordJson(completeBankLink(created(), undefined, T0), T0 + 5_000).value.statement!;

  it('refuses a statement on a record that is not a completed request', () => {
    expect(FinancialRecordSchema.safeParse({ ...base, statement }).success).toBe(false);
    expect(FinancialRecordSchema.safeParse({ ...base, status: 'COMPLETED', type: 'upload', statement }).success).toBe(false);
  });

  it('refuses a completed request without its statement', () => {
    expect(FinancialRecordSchema.safeParse({ ...base, status: 'COMPLETED' }).success).toBe(false);
    expect(FinancialRecordSchema.safeParse({ ...base, status: 'COMPLETED', statement }).success).toBe(true);
  });

  it('refuses null for the optional externalId and unknown statuses', () => {
    expect(FinancialRecordSchema.safeParse({ ...base, externalId: null }).success).toBe(false);
    expect(FinancialRecordSchema.safeParse({ ...base, status: 'BANKDATA_IN_PROGRESS' }).success).toBe(false);
  });
});

describe('create and list responses', () => {
  it('answers bankStatementId, bankStatementUrl and links; externalId only when given', () => {
    const input = {
      bankStatementUrl: `http://127.0.0.1:4010/verify/financial/${ID}`,
      adminConsoleHref: `http://127.0.0.1:4010/console/financial/${ID}`,
      detailsHref: `http://127.0.0.1:4010/v1/financial/${ID}`,
    };
    const plain = toCreateFinancialJson({ ...input, record: created() });
    expect(CreateFinancialResponseSchema.parse(plain)).toEqual(plain);
    expect(plain).toEqual({
      bankStatementId: ID,
      bankStatementUrl: input.bankStatementUrl,
      links: [
        { rel: 'admin_console', href: input.adminConsoleHref, description: 'View the bank statement request in the admin console' },
        { rel: 'bank_statement_details', href: input.detailsHref, description: 'Retrieve the bank statement record via the API' },
      ],
    });
    const withExternal = toCreateFinancialJson({ ...input, record: created({ externalId: 'ext-1' }) });
    expect(Object.keys(withExternal)).toEqual(['bankStatementId', 'bankStatementUrl', 'externalId', 'links']);
  });

  it('requires nextToken in the list body, null on the last page', () => {
    const record = toFinancialRecordJson(created(), T0).value;
    expect(FinancialListResponseSchema.safeParse({ bankStatements: [record], nextToken: null }).success).toBe(true);
    expect(FinancialListResponseSchema.safeParse({ bankStatements: [record] }).success).toBe(false);
  });
});
