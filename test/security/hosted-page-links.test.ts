/**
 * Hosted pages need their link: record ids follow from the public seed, so every page the API links to
 * (sessions, credit checks, age verification, Parent Connect, bank statements, credit terms) also needs
 * the token its returned link carries, and its form posts are refused from another origin.
 */
import { describe, expect, it } from 'vitest';
import { CREDIT_TERMS_BUSINESS } from '../helpers/credit-terms.ts';
import { pageAddress } from '../helpers/hosted-pages.ts';
import { testSandbox, type TestSandbox } from '../helpers/sandbox.ts';

const APPLICANT = { firstName: 'Jane', lastName: 'Doe', email: 'jane.doe@example.com', phone: '+14035550111' };

interface HostedPage {
  name: string;
  /** Creates the record through the API; answers the returned page link. */
  create(sandbox: TestSandbox): Promise<string>;
  /** The page's form address after its path, and a field set the form accepts (none: the page redirects to another). */
  form?: { suffix: string; fields: Record<string, string> };
  /** The status of the page on its link. */
  opens: 200 | 302;
}

const PAGES: HostedPage[] = [
  {
    name: 'session',
    create: async (sandbox) => (await sandbox.call('POST', '/v1/sessions', { body: APPLICANT })).body.session_url,
    form: { suffix: '/outcome', fields: { outcome: 'success' } },
    opens: 200,
  },
  {
    name: 'age verification',
    create: async (sandbox) => (await sandbox.call('POST', '/v1/age-verification', { body: { ...APPLICANT, method: 'quiz' } })).body.session_url,
    opens: 302,
  },
  {
    name: 'credit check',
    create: async (sandbox) => (await sandbox.call('POST', '/v1/credit-check/hard', { body: APPLICANT })).body.session_url,
    form: { suffix: '/outcome', fields: { outcome: 'success' } },
    opens: 200,
  },
  {
    name: 'Parent Connect',
    create: async (sandbox) => {
      const created = await sandbox.call('POST', '/v1/age-verification', { body: { ...APPLICANT, method: 'parent-connect' } });
      return created.body.links.find((link: { rel: string }) => link.rel === 'parent_connect').href;
    },
    form: { suffix: '/events', fields: { event: 'invite' } },
    opens: 200,
  },
  {
    name: 'bank statements',
    create: async (sandbox) => (await sandbox.call('POST', '/v1/financial', { body: APPLICANT })).body.bankStatementUrl,
    form: { suffix: '/link', fields: { action: 'complete', bank: 'MapleCrest' } },
    opens: 200,
  },
  {
    name: 'credit terms',
    create: async (sandbox) => (await sandbox.call('POST', '/v1/credit-terms', { body: CREDIT_TERMS_BUSINESS })).body.creditTermsUrl,
    form: { suffix: '/action', fields: { action: 'submit' } },
    opens: 200,
  },
];

/** The address with its token removed, or replaced by `token`. */
function withToken(address: string, token: string | undefined): string {
  const url = new URL(address, 'http://127.0.0.1:4010');
  if (token === undefined) url.searchParams.delete('token');
  else url.searchParams.set('token', token);
  return `${url.pathname}${url.search}`;
}

const post = (sandbox: TestSandbox, address: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
  sandbox.app.request(address, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(fields).toString(),
  });

describe.each(PAGES)('the $name hosted page', ({ create, opens }) => {
  it('opens on its returned link only: without the token or with another record’s token, a plain 404 page', async () => {
    const sandbox = await testSandbox();
    const link = await create(sandbox);
    const other = await create(sandbox);
    expect(new URL(link).searchParams.get('token')).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect((await sandbox.app.request(pageAddress(link))).status).toBe(opens);
    for (const address of [withToken(pageAddress(link), undefined), withToken(pageAddress(link), new URL(other).searchParams.get('token') ?? '')]) {
      const refused = await sandbox.app.request(address);
      expect(refused.status).toBe(404);
      expect(refused.headers.get('content-type')).toMatch(/^text\/html/);
      const text = await refused.text();
      expect(text).toContain('Open the link exactly as the API returned it');
      expect(text).not.toContain('Jane');
      expect(text).not.toContain('Reyes');
    }
  });
});

const FORMS = PAGES.flatMap(({ name, create, form }) => (form === undefined ? [] : [{ name, create, form }]));

describe.each(FORMS)('the form of the $name hosted page', ({ create, form }) => {
  it('refuses its form without the token (403), and with the token from another origin (403), changing nothing', async () => {
    const sandbox = await testSandbox();
    const link = await create(sandbox);
    const formAddress = pageAddress(link, form.suffix);
    const tokenless = await post(sandbox, withToken(formAddress, undefined), form.fields);
    expect(tokenless.status).toBe(403);
    expect(await tokenless.text()).toContain('Link not valid');
    const crossOrigin = await post(sandbox, formAddress, form.fields, { origin: 'https://evil.example' });
    expect(crossOrigin.status).toBe(403);
    expect(await crossOrigin.text()).toContain('Origin &quot;https://evil.example&quot; is not this sandbox');
    const crossSite = await post(sandbox, formAddress, form.fields, { 'sec-fetch-site': 'cross-site' });
    expect(crossSite.status).toBe(403);
    // The refusals changed nothing: the same form from the page's own origin is accepted as a first press (not 409).
    const accepted = await post(sandbox, formAddress, form.fields, { origin: 'http://127.0.0.1:4010', 'sec-fetch-site': 'same-origin' });
    expect([200, 303]).toContain(accepted.status);
  });
});

describe('the console’s view of a session', () => {
  it('shows the hosted page link to QA behind the console’s guard, never to a visitor without the admin token', async () => {
    const sandbox = await testSandbox({ adminToken: 'team-admin-token-1' });
    const created = await sandbox.call('POST', '/v1/sessions', { body: APPLICANT });
    const view = await sandbox.app.request(`/console/sessions/${created.body.id}`);
    expect(view.status).toBe(401);
    const admin = await sandbox.app.request(`/console/sessions/${created.body.id}`, { headers: { authorization: 'Bearer team-admin-token-1' } });
    expect(admin.status).toBe(200);
    expect(await admin.text()).toContain(`token=${sandbox.pageToken(created.body.id)}`);
  });
});
