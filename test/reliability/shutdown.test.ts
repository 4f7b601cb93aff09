import { existsSync, readdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, startCli } from '../helpers/cli-process.ts';
import { tempDataFile } from '../helpers/data-dir.ts';
import { countFound, heldCreate, outputMatches, streamOfCreates, untilAcknowledged } from '../helpers/keep-alive-traffic.ts';

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
