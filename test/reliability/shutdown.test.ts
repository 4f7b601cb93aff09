import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { Agent } from 'node:http';
import { connect, type Socket } from 'node:net';
import { dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, startCli } from '../helpers/cli-process.ts';
import { tempDataFile } from '../helpers/data-dir.ts';
import { countFound, heldCreate, outputMatches, postJob, streamOfCreates, untilAcknowledged } from '../helpers/keep-alive-traffic.ts';

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

  it('writes the snapshot to its end when that outlasts the bound, with nothing in flight: exits 0 and the JSON file holds every write', async () => {
    const file = tempDataFile();
    // A bound of 1 ms: the drain ends at once (no request in flight), the 4-MB snapshot write takes longer.
    const cli = await startCli(['--data', file, '--shutdown-timeout', '1']);
    const oneRequestPerConnection = new Agent();
    const acknowledged: string[] = [];
    for (let n = 0; n < 40; n++) {
      const answer = await postJob(cli.url, oneRequestPerConnection, n, 'x'.repeat(100_000));
      acknowledged.push((JSON.parse(answer.body) as { jobId: string }).jobId);
    }
    cli.child.kill('SIGTERM');
    expect(await cli.exited).toBe(0);
    expect(cli.output()).not.toContain('shutdown bound');
    expect(existsSync(`${file}.lock`)).toBe(false);
    expect(readdirSync(dirname(file)).filter((name) => name.includes('journal') || name.endsWith('.tmp'))).toEqual([]);
    const snapshot = readFileSync(file, 'utf8');
    for (const id of acknowledged) expect(snapshot).toContain(id);
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

  it('on SIGTERM with an idle keep-alive and a half-sent-header connection open: closes both at once, writes the snapshot and exits 0 within 1 s', async () => {
    const file = tempDataFile();
    const cli = await startCli(['--data', file]);
    const acknowledged: string[] = [];
    for (let n = 0; n < 3; n++) acknowledged.push((JSON.parse((await postJob(cli.url, new Agent(), n)).body) as { jobId: string }).jobId);
    const { port } = new URL(cli.url);
    const open = (text: string) =>
      new Promise<Socket>((resolve) => {
        const socket = connect(Number(port), '127.0.0.1', () => socket.write(text, () => resolve(socket)));
        socket.on('error', () => undefined);
      });
    const idle = await open('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n');
    await new Promise((resolve) => idle.once('data', resolve));
    const halfHeader = await open('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Half: ');
    const ended = [idle, halfHeader].map((socket) => new Promise((resolve) => socket.once('close', resolve)));

    const started = performance.now();
    cli.child.kill('SIGTERM');
    const code = await cli.exited;
    const elapsedMs = performance.now() - started;
    await Promise.all(ended);
    console.log(`SIGTERM with an idle and a half-header connection: exit ${code} after ${elapsedMs.toFixed(0)} ms`);
    expect(code).toBe(0);
    expect(elapsedMs).toBeLessThan(1000);
    expect(existsSync(`${file}.lock`)).toBe(false);
    expect(readdirSync(dirname(file)).filter((name) => name.includes('journal'))).toEqual([]);
    const snapshot = readFileSync(file, 'utf8');
    for (const id of acknowledged) expect(snapshot).toContain(id);
  });
});
