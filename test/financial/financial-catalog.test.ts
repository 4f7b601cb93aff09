import { describe, expect, it } from 'vitest';
import { FINANCIAL_TEST_IDENTIFIERS } from '../../src/financial/financial-record.ts';
import { SANDBOX_BANKS } from '../../src/financial/sandbox-banks.ts';
import { testSandbox } from '../helpers/sandbox.ts';

describe('the bank-statement area in the catalog and the OpenAPI document', () => {
  it('lists the sandbox test identifiers and the hosted page banks from the tables the code reads', async () => {
    const sandbox = await testSandbox();
    const catalog = (await sandbox.call('GET', '/__sandbox/catalog', { key: null })).body;
    const identifiers = catalog.testIdentifiers.filter((e: { endpoint: string }) => e.endpoint === 'GET /v1/financial/{id} (sandbox key)');
    expect(identifiers.map((e: { input: string }) => e.input)).toEqual([
      'test_completed',
      'test_pending',
      'test_in_progress',
      'test_flinks_in_progress',
      'test_upload_completed',
    ]);
    expect(identifiers[0]).toEqual({
      endpoint: 'GET /v1/financial/{id} (sandbox key)',
      input: 'test_completed',
      outcome: FINANCIAL_TEST_IDENTIFIERS[0].outcome,
      description: FINANCIAL_TEST_IDENTIFIERS[0].description,
    });
    const banks = catalog.magicValues.filter((e: { endpoint: string }) => e.endpoint === 'hosted page {verify_url}/bank-statements/{id}');
    expect(banks.map((e: { input: string }) => e.input)).toEqual(SANDBOX_BANKS.map((b) => `bank=${b.input}`));
  });

  it('documents the four operations with their error responses', async () => {
    const sandbox = await testSandbox();
    const paths = (await sandbox.call('GET', '/openapi.json', { key: null })).body.paths;
    expect(paths['/v1/financial'].post.operationId).toBe('createBankStatementRequest');
    expect(Object.keys(paths['/v1/financial'].post.responses).sort()).toEqual(['200', '400', '401', '402', '403', '413', '415', '429', '500']);
    expect(paths['/v1/financial'].get.operationId).toBe('listBankStatements');
    expect(paths['/v1/financial/externalId/{externalId}'].get.operationId).toBe('listBankStatementsByExternalId');
    expect(paths['/v1/financial/{id}'].get.operationId).toBe('getBankStatement');
    expect(Object.keys(paths['/v1/financial/{id}'].get.responses)).toContain('404');
    expect(paths['/v1/credit-check/hard'].post.operationId).toBe('createHardCreditCheck');
    expect(paths['/v1/credit-check/soft'].post.operationId).toBe('createSoftCreditCheck');
  });
});
