/**
 * The two load figures of the abuse findings, measured on a real sandbox process (the CLI) over sockets.
 * Slow (a few seconds each) and machine-dependent, so they run only with IDV_SANDBOX_ABUSE_LOAD=1:
 *
 *   IDV_SANDBOX_ABUSE_LOAD=1 npx vitest run test/security/abuse-load.test.ts
 *
 * - 512 connections from one client address that send half a header and stop, while a real client on
 *   another address keeps its p99 under 100 ms;
 * - 20 image bombs in parallel (a 154 KB PNG declaring 6300 × 6300 RGBA) answered with the pixel limit,
 *   the process's peak RSS staying under 400 MB.
 * Each prints its figures.
 */
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startCli, type CliProcess } from '../helpers/cli-process.ts';
import { pngBomb } from '../helpers/png-bomb.ts';

let sandbox: CliProcess | undefined;
afterEach(() => {
  sandbox?.child.kill('SIGKILL');
  sandbox = undefined;
});

/** The peak resident set size of a process so far, in MB (Linux). */
function peakRssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1]) / 1024;
}

/** One keep-alive-less GET from `localAddress`; resolves with its latency in ms. */
function timedGet(url: URL, path: string, localAddress: string): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const sent = request({ host: url.hostname, port: url.port, path, localAddress, headers: { 'x-api-key': 'sk_live_demo' }, agent: false }, (response) => {
      response.resume();
      response.on('end', () => (response.statusCode === 200 ? resolve(performance.now() - started) : reject(new Error(`status ${response.statusCode}`))));
    });
    sent.on('error', reject);
    sent.end();
  });
}

const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.ceil((p / 100) * values.length) - 1)] as number;

describe.runIf(process.env.IDV_SANDBOX_ABUSE_LOAD === '1')('abuse under load (IDV_SANDBOX_ABUSE_LOAD=1)', () => {
  it('serves a real client with p99 under 100 ms while 512 slow connections from another address hold half a header', async () => {
    sandbox = await startCli(['--memory', '--no-rate-limit']);
    const url = new URL(sandbox.url);
    // 127.0.0.2 is this machine too (all of 127/8 is loopback on Linux): another client address.
    const slow: Socket[] = [];
    let refused = 0;
    await Promise.all(
      Array.from(
        { length: 512 },
        () =>
          new Promise<void>((resolve) => {
            const socket = connect({ host: url.hostname, port: Number(url.port), localAddress: '127.0.0.2' });
            socket.on('error', () => undefined);
            socket.once('close', () => (refused += 1));
            socket.once('connect', () => {
              socket.write('GET /v1/sessions HTTP/1.1\r\nHost: 127.0.0.1\r\nx-api-');
              slow.push(socket);
              resolve();
            });
          }),
      ),
    );
    const latencies: number[] = [];
    for (let n = 0; n < 200; n += 1) latencies.push(await timedGet(url, '/v1/auth/verify', '127.0.0.1'));
    const p50 = percentile(latencies, 50);
    const p99 = percentile(latencies, 99);
    console.log(
      `512 half-header connections from 127.0.0.2 (${refused} closed by the per-address cap): 200 requests from 127.0.0.1, p50 ${p50.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms, max ${Math.max(...latencies).toFixed(1)} ms`,
    );
    for (const socket of slow) socket.destroy();
    expect(latencies).toHaveLength(200);
    expect(p99).toBeLessThan(100);
  }, 60_000);

  it('answers 20 parallel 6300×6300 PNG bombs with the pixel limit, peak RSS under 400 MB', async () => {
    sandbox = await startCli(['--memory', '--no-rate-limit']);
    const url = new URL(sandbox.url);
    const pid = sandbox.child.pid as number;
    const bomb = pngBomb(6300, 6300);
    const body = JSON.stringify({ image: bomb.toString('base64') });
    const before = peakRssMb(pid);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        fetch(`${url.origin}/v1/face/detect`, { method: 'POST', headers: { 'x-api-key': 'sk_live_demo', 'content-type': 'application/json' }, body }).then(
          async (response) => ({ status: response.status, body: (await response.json()) as { error: string } }),
        ),
      ),
    );
    const peak = peakRssMb(pid);
    const statuses = answers.map((answer) => answer.status);
    console.log(
      `20 parallel ${bomb.length}-byte PNG bombs (6300×6300 RGBA): statuses ${JSON.stringify(Object.fromEntries([...new Set(statuses)].map((s) => [s, statuses.filter((t) => t === s).length])))}; peak RSS ${before.toFixed(0)} MB before, ${peak.toFixed(0)} MB after`,
    );
    // Every bomb the image gate let in is refused from its header; the gate answers the rest 429 (2 run, 16 wait).
    for (const answer of answers) {
      if (answer.status === 429) expect(answer.body.error).toContain('Too many image requests at once');
      else expect(answer.body.error).toBe('image: image header declares 6300×6300; the limit is 16 megapixels');
    }
    expect(statuses.filter((status) => status === 400).length).toBeGreaterThanOrEqual(18);
    expect(peak).toBeLessThan(400);
  }, 120_000);
});
