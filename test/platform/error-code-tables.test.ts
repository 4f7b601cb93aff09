/**
 * The one error-code map is the platform's codes plus every area's `<area>.errors.ts` table: a code is
 * defined once, or where two tables deliberately share one, they answer it alike (status, body and text).
 */
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type ErrorCode, type ErrorCodeTable, PLATFORM_ERROR_CODES } from '../../src/platform/errors/error-codes.ts';

const SRC = new URL('../../src/', import.meta.url);

/** Every exported table of every `<area>.errors.ts`, named by file and export. */
async function areaTables(): Promise<Map<string, ErrorCodeTable>> {
  const tables = new Map<string, ErrorCodeTable>();
  const files = readdirSync(SRC, { recursive: true, encoding: 'utf8' }).filter((file) => /^[^/]+\/[^/]+\.errors\.ts$/.test(file));
  for (const file of files.sort()) {
    const exports: Record<string, unknown> = await import(new URL(file, SRC).href);
    for (const [name, value] of Object.entries(exports)) if (isTable(value)) tables.set(`${file} ${name}`, value);
  }
  return tables;
}

function isTable(value: unknown): value is ErrorCodeTable {
  if (typeof value !== 'object' || value === null) return false;
  const rows = Object.values(value);
  return rows.length > 0 && rows.every((row) => typeof row?.status === 'number' && typeof row?.message === 'function');
}

/** How a row answers, to compare two definitions of one code. */
const answer = (row: ErrorCode<unknown>) =>
  JSON.stringify({ status: row.status, bodyCode: row.bodyCode, message: String(row.message), detail: String(row.detail) });

/** The codes two tables define differently, each with the tables that disagree. */
function conflictingCodes(tables: ReadonlyMap<string, ErrorCodeTable>): string[] {
  const definitions = new Map<string, { table: string; answer: string }[]>();
  for (const [table, rows] of tables) {
    for (const [code, row] of Object.entries(rows)) definitions.set(code, [...(definitions.get(code) ?? []), { table, answer: answer(row) }]);
  }
  return [...definitions]
    .filter(([, rows]) => new Set(rows.map((row) => row.answer)).size > 1)
    .map(([code, rows]) => `${code}: ${rows.map((row) => row.table).join(', ')}`);
}

describe('the error-code map', () => {
  it("reads every area's table", async () => {
    const tables = await areaTables();
    expect([...tables.keys()]).toContain('aml/aml.errors.ts AML_ERROR_CODES');
    expect([...tables.keys()]).toContain('re-verifications/re-verifications.errors.ts RE_VERIFICATIONS_ERROR_CODES');
    expect(tables.size).toBeGreaterThanOrEqual(15);
  });

  it('defines each code once, or alike in every table that shares it', async () => {
    const tables = new Map([['platform PLATFORM_ERROR_CODES', PLATFORM_ERROR_CODES as ErrorCodeTable], ...(await areaTables())]);
    expect(conflictingCodes(tables)).toEqual([]);
  });

  it('names a code two tables define differently', () => {
    const notFound: ErrorCode<unknown> = { status: 404, message: () => 'Session not found.' };
    const forbidden: ErrorCode<unknown> = { status: 403, message: () => 'Session not found.' };
    const tables = new Map<string, ErrorCodeTable>([
      ['a', { SESSION_NOT_FOUND: notFound, SHARED: notFound }],
      ['b', { SESSION_NOT_FOUND: forbidden, SHARED: notFound }],
      ['c', { SESSION_NOT_FOUND: notFound }],
    ]);
    expect(conflictingCodes(tables)).toEqual(['SESSION_NOT_FOUND: a, b, c']);
  });
});
