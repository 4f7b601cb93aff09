/** Traffic for the fault tests: keep-alive clients creating control-plane jobs against the real CLI. */
import { Agent, request, type ClientRequest, type IncomingHttpHeaders } from 'node:http';
import { expect } from 'vitest';
import { startCli, type CliProcess } from './cli-process.ts';

export interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

export function readAnswer(req: ClientRequest): Promise<Answer> {
  return new Promise((resolve, reject) => {
    req.once('error', reject);
    req.once('response', (res) => {
      let body = '';
      res.on('data', (chunk) => (body += String(chunk)));
      res.once('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      res.once('error', reject);
    });
  });
}

export function postJob(url: string, agent: Agent, n: number, pad = ''): Promise<Answer> {
  const req = request(`${url}/__sandbox/jobs`, { method: 'POST', agent, headers: { 'content-type': 'application/json' } });
  const answer = readAnswer(req);
  req.end(JSON.stringify({ input: pad ? { n, pad } : { n } }));
  return answer;
}

/** A create whose headers the server has read (it answered 100 Continue) and whose body is held back. */
export async function heldCreate(url: string): Promise<{ send: () => Promise<Answer> }> {
  const body = JSON.stringify({ input: { held: true } });
  const req = request(`${url}/__sandbox/jobs`, {
    method: 'POST',
    agent: new Agent({ keepAlive: true }),
    headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), expect: '100-continue' },
  });
  const answer = readAnswer(req);
  answer.catch(() => undefined); // a cut connection is asserted through send()
  req.flushHeaders();
  await new Promise((resolve) => req.once('continue', resolve));
  return {
    send: () => {
      req.end(body);
      return answer;
    },
  };
}

/** Keep-alive clients creating jobs back to back until their connection is refused. */
export function streamOfCreates(url: string, clients: number, pad = '') {
  const acknowledged: string[] = [];
  let n = 0;
  const done = Promise.all(
    Array.from({ length: clients }, async () => {
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      for (;;) {
        const answer = await postJob(url, agent, n++, pad).catch(() => undefined);
        if (!answer) break;
        expect(answer.status).toBe(201);
        acknowledged.push((JSON.parse(answer.body) as { jobId: string }).jobId);
      }
      agent.destroy();
    }),
  );
  return { acknowledged, done };
}

export function outputMatches(cli: { child: CliProcess['child']; output: () => string }, pattern: RegExp): Promise<void> {
  return new Promise((resolve) => {
    const check = () => {
      if (!pattern.test(cli.output())) return;
      cli.child.stdout?.off('data', check);
      cli.child.stderr?.off('data', check);
      resolve();
    };
    cli.child.stdout?.on('data', check);
    cli.child.stderr?.on('data', check);
    check();
  });
}

/** Restarts the CLI on the file and counts the jobs it serves (200) among `ids`; any other answer than 200/404 fails. */
export async function countFound(file: string, ids: string[]): Promise<number> {
  const cli = await startCli(['--data', file, '--no-rate-limit']);
  try {
    let found = 0;
    for (const id of ids) {
      const status = (await fetch(`${cli.url}/v1/async-jobs/${id}`, { headers: { 'x-api-key': 'sk_live_demo' } })).status;
      expect([200, 404]).toContain(status);
      if (status === 200) found++;
    }
    return found;
  } finally {
    cli.child.kill('SIGTERM');
    await cli.exited;
  }
}

export async function untilAcknowledged(stream: { acknowledged: string[] }, count: number): Promise<void> {
  while (stream.acknowledged.length < count) await new Promise((resolve) => setImmediate(resolve));
}
