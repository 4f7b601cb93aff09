import { Agent, request, type ClientRequest, type IncomingHttpHeaders } from 'node:http';
import { existsSync, readdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, startCli, type CliProcess } from '../helpers/cli-process.ts';
import { tempDataFile } from '../helpers/data-dir.ts';

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

function readAnswer(req: ClientRequest): Promise<Answer> {
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

function postJob(url: string, agent: Agent, n: number): Promise<Answer> {
  const req = request(`${url}/__sandbox/jobs`, { method: 'POST', agent, headers: { 'content-type': 'application/json' } });
  const answer = readAnswer(req);
  req.end(JSON.stringify({ input: { n } }));
  return answer;
}

/** A create whose headers the server has read (it answered 100 Continue) and whose body is held back. */
async function heldCreate(url: string): Promise<{ send: () => Promise<Answer> }> {
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
function streamOfCreates(url: string, clients: number) {
  const acknowledged: string[] = [];
  const lastHeaders: IncomingHttpHeaders[] = [];
  let n = 0;
  const done = Promise.all(
    Array.from({ length: clients }, async () => {
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      for (;;) {
        const answer = await postJob(url, agent, n++).catch(() => undefined);
        if (!answer) break;
        expect(answer.status).toBe(201);
        acknowledged.push((JSON.parse(answer.body) as { jobId: string }).jobId);
        lastHeaders.push(answer.headers);
      }
      agent.destroy();
    }),
  );
  return { acknowledged, lastHeaders, done };
}

function outputMatches(cli: { child: CliProcess['child']; output: () => string }, pattern: RegExp): Promise<void> {
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

async function countFound(file: string, ids: string[]): Promise<number> {
  const cli = await startCli(['--data', file]);
  try {
    let found = 0;
    for (const id of ids) if ((await fetch(`${cli.url}/v1/async-jobs/${id}`, { headers: { 'x-api-key': 'sk_live_demo' } })).status === 200) found++;
    return found;
  } finally {
    cli.child.kill('SIGTERM');
    await cli.exited;
  }
}

async function untilAcknowledged(stream: { acknowledged: string[] }, count: number): Promise<void> {
  while (stream.acknowledged.length < count) await new Promise((resolve) => setImmediate(resolve));
}

describe('a shutdown that ends (the real CLI)', { timeout: 120_000 }, () => {
  it('on SIGTERM with keep-alive clients sending: answers in-flight requests with Connection: close, then exits 0 with every acknowledged write kept', async () => {
    const file = tempDataFile();
    const cli = await startCli(['--data', file]);
    const held = await heldCreate(cli.url);
    const stream = streamOfCreates(cli.url, 3);
    await untilAcknowledged(stream, 30);
    cli.child.kill('SIGTERM');
    await outputMatches(cli, /SIGTERM received/);

    const inFlight = await held.send();
    expect(inFlight.status).toBe(201);
    expect(inFlight.headers.connection).toBe('close');
    await stream.done;
    expect(await cli.exited).toBe(0);
    expect(stream.lastHeaders.some((headers) => headers.connection === 'close')).toBe(true);

    const acknowledged = [...stream.acknowledged, (JSON.parse(inFlight.body) as { jobId: string }).jobId];
    expect(existsSync(`${file}.lock`)).toBe(false);
    expect(readdirSync(dirname(file)).filter((name) => name.includes('journal'))).toEqual([]);
    const found = await countFound(file, acknowledged);
    console.log(`SIGTERM with keep-alive clients: acknowledged ${acknowledged.length}, found ${found}`);
    expect(found).toBe(acknowledged.length);
  });

  it('cuts a request that does not finish once the shutdown bound passes, and keeps the acknowledged writes', async () => {
    const file = tempDataFile();
    const cli = await startCli(['--data', file, '--shutdown-timeout', '300']);
    const stream = streamOfCreates(cli.url, 1);
    await untilAcknowledged(stream, 10);
    const held = await heldCreate(cli.url);
    cli.child.kill('SIGTERM');
    expect(await cli.exited).toBe(1);
    await stream.done;
    expect(cli.output()).toContain('the shutdown bound of 300 ms passed');
    await expect(held.send()).rejects.toThrow();
    expect(existsSync(`${file}.lock`)).toBe(false);
    const found = await countFound(file, stream.acknowledged);
    console.log(`shutdown bound passed: acknowledged ${stream.acknowledged.length}, found ${found}`);
    expect(found).toBe(stream.acknowledged.length);
  });

  it('holds the lock while draining, so a restart is refused, and stops at once on a second signal', async () => {
    const file = tempDataFile();
    const cli = await startCli(['--data', file, '--shutdown-timeout', '600000']);
    const stream = streamOfCreates(cli.url, 1);
    await untilAcknowledged(stream, 10);
    const held = await heldCreate(cli.url);
    cli.child.kill('SIGTERM');
    await outputMatches(cli, /SIGTERM received/);
    await stream.done;

    const restart = runCli(['--port', '0', '--data', file]);
    expect(await restart.exited).toBe(1);
    expect(restart.output()).toContain(`in use by another idv-sandbox (pid ${cli.child.pid}`);

    cli.child.kill('SIGTERM');
    expect(await cli.exited).toBe(1);
    expect(cli.output()).toContain('second SIGTERM');
    await expect(held.send()).rejects.toThrow();
    expect(existsSync(`${file}.lock`)).toBe(false);
    const found = await countFound(file, stream.acknowledged);
    console.log(`second signal: acknowledged ${stream.acknowledged.length}, found ${found}`);
    expect(found).toBe(stream.acknowledged.length);
  });
});
