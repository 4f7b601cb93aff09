import { describe, expect, it } from 'vitest';
import { FinancialListResponseSchema } from '../../src/financial/financial.schemas.ts';
import { KEYS, testSandbox, type TestSandbox } from '../helpers/sandbox.ts';
import { createBankStatementRequest, linkOnPage } from './helpers.ts';

/** Creates `count` requests one second apart (externalId ext-<i>); returns their ids, oldest first. */
async function createMany(
  sandbox: TestSandbox,
  count: number,
  extra: (i: number) => Record<string, unknown> = (i) => ({ externalId: `ext-${i}` }),
): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    ids.push(await createBankStatementRequest(sandbox, extra(i)));
    sandbox.clock.advance(1_000);
  }
  return ids;
}

async function list(sandbox: TestSandbox, path: string, key: string = KEYS.live) {
  const response = await sandbox.call('GET', path, { key });
  return { ...response, page: response.status === 200 ? FinancialListResponseSchema.parse(response.body) : undefined };
}

describe('GET /v1/financial', () => {
  it('lists the organization records newest first, at the clock, with nextToken null on a single page', async () => {
    const sandbox = await testSandbox();
    const ids = await createMany(sandbox, 3);
    await linkOnPage(sandbox, ids[0]!, 'BorealisCU');
    sandbox.clock.advance(5_000);
    const { page, headers } = await list(sandbox, '/v1/financial');
    expect(page!.nextToken).toBeNull();
    expect(page!.bankStatements.map((r) => r.id)).toEqual([...ids].reverse());
    expect(page!.bankStatements.map((r) => r.status)).toEqual(['PENDING', 'PENDING', 'COMPLETED']);
    expect(page!.bankStatements[2]!.statement?.Institution).toBe('BorealisCU');
    expect(headers.get('x-sandbox-explain')).toBe('3 bank statement records on this page (last page)');
  });

  it('pages across three pages with no duplicates and no gaps, each page parsed with the list schema', async () => {
    const sandbox = await testSandbox();
    const ids = await createMany(sandbox, 7);
    const seen: string[] = [];
    const tokens: (string | null)[] = [];
    let path = '/v1/financial?limit=3';
    for (let i = 0; i < 5; i++) {
      const { status, page } = await list(sandbox, path);
      expect(status).toBe(200);
      seen.push(...page!.bankStatements.map((r) => r.id));
      tokens.push(page!.nextToken);
      if (page!.nextToken === null) break;
      path = `/v1/financial?limit=3&nextToken=${encodeURIComponent(page!.nextToken)}`;
    }
    expect(tokens.map((t) => t === null)).toEqual([false, false, true]);
    expect(seen).toEqual([...ids].reverse());
    expect(new Set(seen).size).toBe(7);
  });

  it('uses 10 records per page by default', async () => {
    const sandbox = await testSandbox();
    await createMany(sandbox, 11);
    const first = await list(sandbox, '/v1/financial');
    expect(first.page!.bankStatements).toHaveLength(10);
    const second = await list(sandbox, `/v1/financial?nextToken=${encodeURIComponent(first.page!.nextToken!)}`);
    expect(second.page!.bankStatements).toHaveLength(1);
    expect(second.page!.nextToken).toBeNull();
  });

  it('neither repeats nor skips records created between two page reads', async () => {
    const sandbox = await testSandbox();
    const ids = await createMany(sandbox, 4);
    const first = await list(sandbox, '/v1/financial?limit=2');
    const newer = await createBankStatementRequest(sandbox);
    const second = await list(sandbox, `/v1/financial?limit=2&nextToken=${encodeURIComponent(first.page!.nextToken!)}`);
    expect(first.page!.bankStatements.map((r) => r.id)).toEqual([ids[3], ids[2]]);
    expect(second.page!.bankStatements.map((r) => r.id)).toEqual([ids[1], ids[0]]);
    expect(second.page!.nextToken).toBeNull();
    expect((await list(sandbox, '/v1/financial?limit=1')).page!.bankStatements[0]!.id).toBe(newer);
  });

  it('answers 400 for a tampered, foreign or malformed nextToken', async () => {
    const sandbox = await testSandbox();
    await createMany(sandbox, 3);
    const token = (await list(sandbox, '/v1/financial?limit=1')).page!.nextToken!;
    const [payload, signature] = token.split('.') as [string, string];
    const position = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    const forged = `${Buffer.from(JSON.stringify({ ...position, t: position.t + 1 })).toString('base64url')}.${signature}`;
    const flipped = `${payload}.${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`;
    const fromOtherSandbox = (await createOtherSandboxToken())!;
    const fix = 'pass nextToken exactly as returned by the previous page of the same query, or omit it to start from the first page';
    const altered = `has been altered or was issued by another sandbox (its signature does not match): ${fix}`;
    for (const [bad, problem] of [
      [forged, altered],
      [flipped, altered],
      [fromOtherSandbox, altered],
      ['not-a-token', `is not a token this API issued: ${fix}`],
    ] as const) {
      const refused = await sandbox.call('GET', `/v1/financial?nextToken=${encodeURIComponent(bad)}`);
      expect(refused.status, bad).toBe(400);
      expect(refused.body).toEqual({ error: `Invalid request: query parameter nextToken ${problem}.` });
    }
    // The token of another query (an externalId list) is refused too.
    const byExternal = await list(sandbox, '/v1/financial/externalId/ext-1?limit=1');
    expect(byExternal.page!.nextToken).toBeNull();
    const refused = await sandbox.call('GET', `/v1/financial/externalId/ext-1?nextToken=${encodeURIComponent(token)}`);
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({
      error: `Invalid request: query parameter nextToken belongs to a different query (another organization or externalId): ${fix}.`,
    });
  });

  it('answers 400 naming limit when it is outside 1-100', async () => {
    const sandbox = await testSandbox();
    for (const bad of ['0', '101', 'ten']) {
      const refused = await sandbox.call('GET', `/v1/financial?limit=${bad}`);
      expect(refused.status, bad).toBe(400);
      expect(refused.body.error).toContain('query parameter "limit"');
    }
  });

  it("never lists another organization's records", async () => {
    const sandbox = await testSandbox();
    await createMany(sandbox, 2);
    const other = await list(sandbox, '/v1/financial', KEYS.other);
    expect(other.page).toEqual({ bankStatements: [], nextToken: null });
  });

  it('gives a sandbox key the five test identifier records, newest first, nextToken null', async () => {
    const sandbox = await testSandbox();
    await createMany(sandbox, 2);
    const { page, headers } = await list(sandbox, '/v1/financial', KEYS.sandbox);
    expect(page!.nextToken).toBeNull();
    expect(page!.bankStatements.map((r) => [r.id, r.status, r.type])).toEqual([
      ['test_pending', 'PENDING', 'request'],
      ['test_in_progress', 'IN_PROGRESS', 'request'],
      ['test_flinks_in_progress', 'FLINKS_IN_PROGRESS', 'request'],
      ['test_completed', 'COMPLETED', 'request'],
      ['test_upload_completed', 'COMPLETED', 'upload'],
    ]);
    expect(page!.bankStatements.every((r) => r.organizationId === 'org_demo')).toBe(true);
    expect(headers.get('x-sandbox-explain')).toBe("sandbox key: the test identifiers' records (5 on this page)");
    const single = await sandbox.call('GET', '/v1/financial/test_completed', { key: KEYS.sandbox });
    expect(page!.bankStatements[3]).toEqual(single.body);
  });
});

describe('GET /v1/financial/externalId/{externalId}', () => {
  it('lists only the records with that externalId, newest first, in the list shape', async () => {
    const sandbox = await testSandbox();
    const ids = await createMany(sandbox, 5, (i) => ({ externalId: i % 2 === 0 ? 'loan-42' : 'loan-7' }));
    const { page } = await list(sandbox, '/v1/financial/externalId/loan-42');
    expect(page!.bankStatements.map((r) => r.id)).toEqual([ids[4], ids[2], ids[0]]);
    expect(page!.bankStatements.every((r) => r.externalId === 'loan-42')).toBe(true);
    expect(page!.nextToken).toBeNull();
  });

  it('pages by externalId with its own tokens', async () => {
    const sandbox = await testSandbox();
    const ids = await createMany(sandbox, 5, () => ({ externalId: 'same' }));
    const first = await list(sandbox, '/v1/financial/externalId/same?limit=2');
    const second = await list(sandbox, `/v1/financial/externalId/same?limit=2&nextToken=${encodeURIComponent(first.page!.nextToken!)}`);
    const third = await list(sandbox, `/v1/financial/externalId/same?limit=2&nextToken=${encodeURIComponent(second.page!.nextToken!)}`);
    expect([...first.page!.bankStatements, ...second.page!.bankStatements, ...third.page!.bankStatements].map((r) => r.id)).toEqual([...ids].reverse());
    expect(third.page!.nextToken).toBeNull();
  });

  it('answers 200 with an empty page when nothing matches (the real client reads a 404 the same way)', async () => {
    const sandbox = await testSandbox();
    await createMany(sandbox, 2);
    const { status, body } = await list(sandbox, '/v1/financial/externalId/nobody');
    expect(status).toBe(200);
    expect(body).toEqual({ bankStatements: [], nextToken: null });
    // Another organization's externalId is not visible either.
    expect((await list(sandbox, '/v1/financial/externalId/ext-0', KEYS.other)).body).toEqual({ bankStatements: [], nextToken: null });
  });

  it('decodes a percent-encoded externalId', async () => {
    const sandbox = await testSandbox();
    const [id] = await createMany(sandbox, 1, () => ({ externalId: 'loan/2026 #1' }));
    const { page } = await list(sandbox, `/v1/financial/externalId/${encodeURIComponent('loan/2026 #1')}`);
    expect(page!.bankStatements.map((r) => r.id)).toEqual([id]);
  });

  it('filters the sandbox records by externalId for a sandbox key', async () => {
    const sandbox = await testSandbox();
    const { page } = await list(sandbox, '/v1/financial/externalId/sandbox-bank-statement-001', KEYS.sandbox);
    expect(page!.bankStatements.map((r) => r.id)).toEqual(['test_completed']);
    expect((await list(sandbox, '/v1/financial/externalId/other', KEYS.sandbox)).body).toEqual({ bankStatements: [], nextToken: null });
  });
});

/** A valid token of a sandbox started with another seed (so another signing secret). */
async function createOtherSandboxToken(): Promise<string | null> {
  const other = await testSandbox({ seed: 99 });
  await createMany(other, 2);
  return (await list(other, '/v1/financial?limit=1')).page!.nextToken;
}
