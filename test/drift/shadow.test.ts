import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCli } from '../../src/cli.ts';
import { buildDriftReport } from '../../src/drift/drift-report.ts';
import { readRecording } from '../../src/drift/recording.ts';
import { replay } from '../../src/drift/replay.ts';
import { createSandbox, type Sandbox } from '../../src/sandbox.ts';
import { STRICT_RESPONSES } from '../helpers/sandbox.ts';
import { temporaryDirectory } from '../helpers/temporary-directory.ts';

const quiet = { info() {}, warn() {}, error() {} };
const STAGING_KEY = 'sk_live_St4gingAccountKey9';

const listening = (options: Parameters<typeof createSandbox>[0] = {}) =>
  createSandbox({ port: 0, memory: true, clock: 'frozen@2026-02-01T10:00:00.000Z', logger: quiet, ...STRICT_RESPONSES, ...options });

/** A sandbox standing for the real service: the staging account's key is one of its keys (the shadow does not know it). */
const service = () => listening({ seed: 42, apiKeys: `${STAGING_KEY}=org_demo:live` });

/** The request, sent on to a sandbox standing for the real service. */
async function forwarded(upstream: Sandbox, request: Request): Promise<Response> {
  const url = new URL(request.url);
  const headers = new Headers(request.headers);
  const body = request.method === 'GET' ? undefined : await request.arrayBuffer();
  return fetch(new URL(`${url.pathname}${url.search}`, upstream.url), { method: request.method, headers, body });
}

/** A node server answering with `answer(request)`: a stand-in for the real service that differs on purpose. */
async function upstreamServer(answer: (request: Request) => Promise<Response>): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer(async (incoming, outgoing) => {
    const chunks: Buffer[] = [];
    for await (const chunk of incoming) chunks.push(chunk as Buffer);
    const headers = new Headers();
    for (const [name, value] of Object.entries(incoming.headers)) if (typeof value === 'string') headers.set(name, value);
    headers.delete('content-length');
    const request = new Request(`http://upstream.test${incoming.url}`, {
      method: incoming.method,
      headers,
      ...(chunks.length === 0 ? {} : { body: Buffer.concat(chunks) }),
    });
    const response = await answer(request);
    const bytes = Buffer.from(await response.arrayBuffer());
    const answered = Object.fromEntries([...response.headers].filter(([name]) => !['content-length', 'content-encoding', 'transfer-encoding'].includes(name)));
    outgoing.writeHead(response.status, answered);
    outgoing.end(bytes);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** Sessions, a workflow with its steps, a screening job polled: what an integrator's staging test run sends. */
async function stagingRun(base: string) {
  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: { 'x-api-key': STAGING_KEY, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, headers: response.headers, body: (await response.json()) as any };
  };
  const session = await call('POST', '/v1/sessions', { first_name: 'Jane', last_name: 'Doe', email: 'jane.doe@example.com' });
  const fetched = await call('GET', `/v1/sessions/${session.body.id}`);
  await call('GET', '/v1/sessions?limit=5');
  const workflow = await call('POST', '/v1/workflows', { name: 'KYC', steps: [{ id: 'ID_VERIFICATION' }, { id: 'FACE_LIVENESS' }] });
  const headless = await call('POST', `/v1/workflows/${workflow.body.workflow.id}/sessions`, {
    first_name: 'Jane',
    last_name: 'Doe',
    email: 'jane.doe@example.com',
  });
  await call('GET', `/v1/sessions/${headless.body.session_id}/workflow`);
  const job = await call('POST', '/v1/screening/adverse-media', {
    email: 'jane.doe@example.com',
    firstName: 'Jane',
    lastName: 'Doe',
    dateOfBirth: '1990-04-01',
  });
  const polled = await call('GET', `/v1/async-jobs/${job.body.jobId}`);
  return { session, fetched, job, polled };
}

describe('the shadow mode (--shadow-upstream, --record)', () => {
  let upstream: Sandbox;
  let shadow: Sandbox;
  const recordDir = temporaryDirectory('idv-shadow-');

  beforeAll(async () => {
    upstream = await service();
    shadow = await listening({ seed: 1, shadow: { upstream: upstream.url, recordDir } });
  });
  afterAll(async () => {
    await shadow.close({ report: false });
    await upstream.close({ report: false });
  });

  it("answers with the upstream's answers, and against a sandbox of another seed reports no drift; the recording it keeps replays without drift", async () => {
    const run = await stagingRun(shadow.url);
    // The upstream's own records: its ids, readable there.
    expect(run.session.status).toBe(200);
    const direct = await fetch(`${upstream.url}/v1/sessions/${run.session.body.id}`, { headers: { 'x-api-key': STAGING_KEY } });
    expect(await direct.json()).toEqual(run.fetched.body);
    expect(run.polled.body.jobId).toBe(run.job.body.jobId);

    const report: any = await (await fetch(`${shadow.url}/__sandbox/drift`)).json();
    expect(report).toMatchObject({ exchanges: 8, replayed: 8, matched: 8, drift: false, unserved: [] });
    expect(report.operations.map((o: { operation: string }) => o.operation)).toContain('GET /v1/sessions/{session_id}/workflow');

    const [file] = readdirSync(recordDir);
    const recorded = readRecording(readFileSync(join(recordDir, file as string), 'utf8'), 'shadow.jsonl');
    expect(recorded.map((e) => `${e.request.method} ${new URL(e.request.url).pathname.split('/')[2]} ${e.response.status}`)).toHaveLength(8);
    expect(recorded[0]?.request.url).toBe(`${upstream.url}/v1/sessions`);
    expect(buildDriftReport(await replay(recorded))).toMatchObject({ matched: 8, drift: false });
  });

  it('gives the report as Markdown by ?format= or by Accept', async () => {
    const byQuery = await fetch(`${shadow.url}/__sandbox/drift?format=markdown`);
    expect(byQuery.headers.get('content-type')).toContain('text/markdown');
    const markdown = await byQuery.text();
    expect(markdown).toContain('# Drift check: no drift');
    const byAccept = await fetch(`${shadow.url}/__sandbox/drift`, { headers: { accept: 'text/markdown, application/json;q=0.5' } });
    expect(await byAccept.text()).toBe(markdown);
  });
});

describe('the shadow mode against an upstream that differs on purpose', () => {
  let real: Sandbox;
  let upstream: Awaited<ReturnType<typeof upstreamServer>>;
  let shadow: Sandbox;

  beforeAll(async () => {
    real = await service();
    upstream = await upstreamServer(async (request) => {
      const path = new URL(request.url).pathname;
      if (path === '/v1/audit-trail') return Response.json({ entries: [] });
      if (path === '/v1/outage')
        return new Response('{"error":"maintenance"}', { status: 503, headers: { 'content-type': 'application/json', 'retry-after': '30' } });
      const response = await forwarded(real, request);
      if (request.method === 'POST' && path === '/v1/screening/adverse-media')
        return new Response(await response.text(), { status: 201, headers: response.headers });
      if (request.method === 'GET' && path.startsWith('/v1/sessions/') && !path.endsWith('/workflow')) {
        const body: any = await response.json();
        body.session_record.sessionStatus = body.session_record.status;
        delete body.session_record.status;
        body.user.first_name = null;
        return Response.json(body, { headers: response.headers });
      }
      return response;
    });
    shadow = await listening({ seed: 1, shadow: { upstream: upstream.url } });
  });
  afterAll(async () => {
    await shadow.close({ report: false });
    await upstream.close();
    await real.close({ report: false });
  });

  it('reports each difference at its path and nothing else, and passes the upstream failures through', async () => {
    const run = await stagingRun(shadow.url);
    expect(run.job.status).toBe(201);
    expect(run.fetched.body.session_record.sessionStatus).toBe('PENDING');
    const outage = await fetch(`${shadow.url}/v1/outage`, { headers: { 'x-api-key': STAGING_KEY } });
    expect(outage.status).toBe(503);
    expect(outage.headers.get('retry-after')).toBe('30');
    expect(await outage.json()).toEqual({ error: 'maintenance' });
    await fetch(`${shadow.url}/v1/audit-trail`, { headers: { 'x-api-key': STAGING_KEY } });

    const report: any = await (await fetch(`${shadow.url}/__sandbox/drift`)).json();
    const differences = report.operations.flatMap((o: any) => o.differences.map((d: any) => `${o.operation} ${d.kind} ${d.path} ${d.recorded} ${d.sandbox}`));
    expect(differences).toEqual([
      'GET /v1/sessions/{id} missing $.session_record.sessionStatus string absent',
      'GET /v1/sessions/{id} extra $.session_record.status absent string',
      'GET /v1/sessions/{id} null $.user.first_name null string',
      'POST /v1/screening/adverse-media status status 201 202',
    ]);
    expect(report.unserved.map((u: any) => `${u.method} ${u.path}`)).toEqual(['GET /v1/outage', 'GET /v1/audit-trail']);
    expect(report.drift).toBe(true);
  });

  it('shows the last report in the console, linked from its navigation', async () => {
    const page = await (await fetch(`${shadow.url}/console/drift`)).text();
    expect(page).toContain('<td><code>GET /v1/sessions/{id}</code></td><td>missing</td><td><code>$.session_record.sessionStatus</code></td>');
    expect(page).toContain('<code>GET /v1/audit-trail</code>');
    expect(await (await fetch(`${shadow.url}/console`)).text()).toContain('href="/console/drift');
  });
});

describe('the shadow mode with an upstream that cannot be reached', () => {
  it('answers 502 with the error body, naming the upstream; the control plane stays served', async () => {
    const closed = await upstreamServer(async () => new Response(null));
    await closed.close();
    const shadow = await listening({ shadow: { upstream: closed.url } });
    try {
      const response = await fetch(`${shadow.url}/v1/sessions`, { headers: { 'x-api-key': STAGING_KEY } });
      expect(response.status).toBe(502);
      const body: any = await response.json();
      expect(body.error).toContain(`The upstream ${closed.url} did not answer`);
      expect(body.error).toContain('--shadow-upstream');
      expect((await fetch(`${shadow.url}/__sandbox/drift`)).status).toBe(200);
    } finally {
      await shadow.close({ report: false });
    }
  });
});

describe('GET /__sandbox/drift without the shadow mode', () => {
  it('is refused with 404, saying how to start the shadow mode; the console page says so too', async () => {
    const sandbox = await createSandbox({ port: null, memory: true, logger: quiet, ...STRICT_RESPONSES });
    try {
      const response = await sandbox.app.request('/__sandbox/drift');
      expect(response.status).toBe(404);
      expect(((await response.json()) as any).error).toContain('Start it with --shadow-upstream');
      expect(await (await sandbox.app.request('/console/drift')).text()).toContain('No drift report: the sandbox is not running in shadow mode.');
    } finally {
      await sandbox.close({ report: false });
    }
  });
});

describe('the shadow mode flags', () => {
  it('take the upstream URL and a record folder, and refuse --record alone or a URL that is not http(s)', () => {
    expect(parseCli(['--shadow-upstream', 'https://staging.example', '--record', 'drift'], {})).toMatchObject({
      shadow: { upstream: 'https://staging.example', recordDir: 'drift' },
    });
    expect(parseCli([], { IDV_SANDBOX_SHADOW_UPSTREAM: 'http://127.0.0.1:9000' })).toMatchObject({ shadow: { upstream: 'http://127.0.0.1:9000' } });
    expect(() => parseCli(['--record', 'drift'], {})).toThrow('give --shadow-upstream <URL> with it');
    expect(() => parseCli(['--shadow-upstream', 'staging.example'], {})).toThrow(
      /--shadow-upstream must be the service's http or https URL .*got "staging.example"/,
    );
  });
});
