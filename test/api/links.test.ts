/**
 * Every link the sandbox hands out works when followed as it is: from a non-default namespace it keeps
 * the namespace, and without a public URL it is built on the origin the client used (a Docker port map).
 */
import { describe, expect, it } from 'vitest';
import { testSandbox, type TestSandbox } from '../helpers/sandbox.ts';

const NAMESPACE = 'links-ns';
const APPLICANT = { email: 'jane.doe@example.com', firstName: 'Jane', lastName: 'Doe', phone: '+447700900001' };

/** Every link of the answers of the link-giving operations, created in `namespace`. */
async function handedOutLinks(sandbox: TestSandbox, namespace: string, headers: Record<string, string> = {}): Promise<string[]> {
  const options = { namespace, headers };
  const session = await sandbox.call('POST', '/v1/sessions', { ...options, body: APPLICANT });
  const record = await sandbox.call('GET', `/v1/sessions/${session.body.id}`, options);
  const credit = await sandbox.call('POST', '/v1/credit-check/soft', { ...options, body: APPLICANT });
  const financial = await sandbox.call('POST', '/v1/financial', { ...options, body: APPLICANT });
  const terms = await sandbox.call('POST', '/v1/credit-terms', {
    ...options,
    body: {
      firstName: 'Jane',
      lastName: 'Doe',
      businessName: 'Doe Ltd',
      businessEmail: 'ap@doe.example',
      businessAddress: '1 High St, London',
      requestedCreditAmount: 25000,
    },
  });
  for (const answer of [session, record, credit, financial, terms]) expect(answer.status, answer.text).toBe(200);
  const hrefs = (body: { links: { href: string }[] }) => body.links.map((link) => link.href);
  return [
    session.body.session_url,
    ...hrefs(session.body),
    ...Object.values<string>(record.body.resource_links),
    credit.body.session_url,
    ...hrefs(credit.body),
    financial.body.bankStatementUrl,
    ...hrefs(financial.body),
    terms.body.creditTermsUrl,
    ...hrefs(terms.body),
  ];
}

describe('links handed out in a namespace', () => {
  it('each answers 200 when followed as it is (issue: session_details lost the namespace and gave 404)', async () => {
    const sandbox = await testSandbox();
    const links = await handedOutLinks(sandbox, NAMESPACE);
    expect(links.length).toBeGreaterThanOrEqual(14);
    for (const link of links) {
      const url = new URL(link);
      expect(url.searchParams.get('namespace'), link).toBe(NAMESPACE);
      // No namespace header: the link alone must carry it. API links need the key, pages do not.
      const followed = await sandbox.call('GET', `${url.pathname}${url.search}`, url.pathname.startsWith('/v1/') ? {} : { key: null });
      expect(followed.status, link).toBe(200);
    }
  });

  it('carries no namespace parameter in the default namespace', async () => {
    const sandbox = await testSandbox();
    for (const link of await handedOutLinks(sandbox, 'default')) expect(new URL(link).searchParams.has('namespace'), link).toBe(false);
  });
});

describe('links without a public URL', () => {
  it('are built on the Host the client used, so they work through a port map', async () => {
    const sandbox = await testSandbox();
    const links = await handedOutLinks(sandbox, 'default', { host: 'localhost:32768' });
    for (const link of links) expect(link.startsWith('http://localhost:32768/'), link).toBe(true);
    const presign = await sandbox.call('POST', '/v1/upload/presign', {
      headers: { host: '[::1]:8080' },
      body: { files: [{ contentType: 'image/png', byteLength: 100 }] },
    });
    expect(presign.body.uploads[0].uploadUrl.startsWith('http://[::1]:8080/uploads/')).toBe(true);
  });

  it('ignore a Host that is not a plain host and port, and a Host at all when a public URL is set', async () => {
    const sandbox = await testSandbox();
    for (const link of await handedOutLinks(sandbox, 'default', { host: 'evil.example/<x>' }))
      expect(link.startsWith(`${sandbox.platform.urls.base}/`), link).toBe(true);
    const fixed = await testSandbox({ publicUrl: 'https://sandbox.example.com' });
    for (const link of await handedOutLinks(fixed, 'default', { host: 'localhost:32768' }))
      expect(link.startsWith('https://sandbox.example.com/'), link).toBe(true);
  });

  it('are built on that Host in the age-verification session URL, the OpenAPI server and the 404 message too', async () => {
    const sandbox = await testSandbox();
    const headers = { host: 'localhost:32768' };
    const age = await sandbox.call('POST', '/v1/age-verification', {
      headers,
      body: { email: 'kid@example.com', firstName: 'Sam', lastName: 'Lee', phone: '+14155550123', method: 'quiz' },
    });
    expect(age.status, age.text).toBe(200);
    expect(age.body.session_url).toMatch(/^http:\/\/localhost:32768\/verify\/deep-age\//);
    const link = new URL(age.body.session_url);
    const followed = await sandbox.call('GET', `${link.pathname}${link.search}`, { key: null, headers });
    expect(followed.headers.get('location')).toMatch(/^\/verify\//);
    expect((await sandbox.call('GET', '/openapi.json', { key: null, headers })).body.servers).toEqual([{ url: 'http://localhost:32768' }]);
    expect((await sandbox.call('GET', '/v1/no-such-route', { headers })).body.error).toBe(
      'No route GET /v1/no-such-route. The endpoints are listed at http://localhost:32768/docs.',
    );
  });
});
