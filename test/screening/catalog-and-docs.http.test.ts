import { describe, expect, it } from 'vitest';
import { SCREENING_MAGIC_VALUES } from '../../src/screening/magic-values.ts';
import { testSandbox } from '../helpers/sandbox.ts';

describe('screening in the catalog and the OpenAPI document', () => {
  it('lists every screening magic value and the adverse-media job kind in GET /__sandbox/catalog', async () => {
    const sandbox = await testSandbox();
    const catalog = await sandbox.call('GET', '/__sandbox/catalog', { key: null });
    expect(catalog.status).toBe(200);
    const screeningRows = (catalog.body.magicValues as { endpoint: string }[]).filter((row) => row.endpoint.startsWith('POST /v1/screening/'));
    // The catalog shows the rows without their triggers (the coverage report shows those as requests).
    expect(screeningRows).toEqual(SCREENING_MAGIC_VALUES.map(({ trigger: _trigger, ...row }) => row));
    expect(screeningRows.length).toBeGreaterThanOrEqual(50);
    expect(catalog.body.jobKinds).toContain('adverse-media');
  });

  it('documents the six screening operations with their error responses', async () => {
    const sandbox = await testSandbox();
    const document = await sandbox.call('GET', '/openapi.json', { key: null });
    expect(document.status).toBe(200);
    const paths = document.body.paths as Record<
      string,
      { post?: { operationId: string; responses: Record<string, unknown>; parameters?: { name: string; in: string }[] } }
    >;
    const operations = Object.fromEntries(
      ['adverse-media', 'pep-sanctions', 'title-check', 'phone-ownership', 'phone-trust', 'carrier-age-gate'].map((name) => [
        name,
        paths[`/v1/screening/${name}`]?.post,
      ]),
    );
    expect(operations['adverse-media']?.operationId).toBe('screenAdverseMedia');
    expect(Object.keys(operations['adverse-media']?.responses ?? {}).sort()).toEqual(['200', '202', '400', '401', '403', '409', '413', '415', '429', '500']);
    expect(operations['adverse-media']?.parameters).toEqual([expect.objectContaining({ name: 'idempotency-key', in: 'header' })]);
    for (const name of ['phone-ownership', 'phone-trust', 'carrier-age-gate']) {
      expect(Object.keys(operations[name]?.responses ?? {})).toEqual(expect.arrayContaining(['200', '400', '402', '403', '404', '503']));
    }
    expect(Object.keys(operations['pep-sanctions']?.responses ?? {})).toEqual(expect.arrayContaining(['200', '400']));
    expect(Object.keys(operations['pep-sanctions']?.responses ?? {})).not.toContain('402');
    expect(Object.keys(operations['title-check']?.responses ?? {})).toEqual(expect.arrayContaining(['200', '400', '402']));
  });
});
