/** Shared steps of the bank-statement route tests. Each test still builds its own sandbox and records. */
import { pageAddress } from '../helpers/hosted-pages.ts';
import { KEYS, type TestSandbox } from '../helpers/sandbox.ts';

export const APPLICANT = { email: 'ana.silva@example.com', firstName: 'Ana', lastName: 'Silva', phone: '+14035550111' } as const;

export const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** The hosted page links POST /v1/financial returned, per sandbox and id: the page is opened only through them. */
const pageLinks = new WeakMap<TestSandbox, Map<string, string>>();

/** The page's path and query as POST /v1/financial returned it, with `suffix` (e.g. `/link`) after the path. */
export function pagePath(sandbox: TestSandbox, id: string, suffix = ''): string {
  const link = pageLinks.get(sandbox)?.get(id);
  if (!link) throw new Error(`no bank statement ${id} was created through createBankStatementRequest in this sandbox`);
  return pageAddress(link, suffix);
}

/** POST /v1/financial with the applicant plus `extra`; returns the created id (and remembers its page link). */
export async function createBankStatementRequest(
  sandbox: TestSandbox,
  extra: Record<string, unknown> = {},
  options: { namespace?: string; key?: string } = {},
): Promise<string> {
  const created = await sandbox.call('POST', '/v1/financial', {
    body: { ...APPLICANT, ...extra },
    key: options.key ?? KEYS.live,
    ...(options.namespace ? { namespace: options.namespace } : {}),
  });
  if (created.status !== 200) throw new Error(`POST /v1/financial answered ${created.status}: ${created.text}`);
  const id = created.body.bankStatementId as string;
  if (!pageLinks.has(sandbox)) pageLinks.set(sandbox, new Map());
  pageLinks.get(sandbox)?.set(id, created.body.bankStatementUrl as string);
  return id;
}

/** What the applicant's browser does: post the page's form (urlencoded), without following the redirect. */
export async function postPageForm(sandbox: TestSandbox, path: string, fields: Record<string, string>): Promise<Response> {
  return sandbox.app.request(path, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });
}

/** Picks `bank` and links it on the hosted page, through the form address of the returned link. */
export async function linkOnPage(sandbox: TestSandbox, id: string, bank: string, action: 'complete' | 'start' = 'complete'): Promise<Response> {
  return postPageForm(sandbox, pagePath(sandbox, id, '/link'), { bank, action });
}

/** Paths of `null` values and of keys holding `undefined`, skipping subtrees whose nulls the spec allows. */
export function nullPaths(value: unknown, path = '$', allowUnder: readonly string[] = []): string[] {
  if (value === null) return [path];
  if (Array.isArray(value)) return value.flatMap((item, index) => nullPaths(item, `${path}[${index}]`, allowUnder));
  if (typeof value !== 'object') return [];
  return Object.entries(value as Record<string, unknown>).flatMap(([key, child]) => {
    if (child === undefined) return [`${path}.${key} (undefined)`];
    if (allowUnder.includes(key)) return [];
    return nullPaths(child, `${path}.${key}`, allowUnder);
  });
}
