/**
 * What one client can hold of the listening server: a request that dribbles its headers or its body is
 * cut with a 408 JSON answer, and connections past the cap are closed at once. Raw sockets against a real
 * server on 127.0.0.1, with small configured timeouts (the waits are events, never sleeps).
 */
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { parseCli } from '../../src/cli.ts';
import { createSandbox, type Sandbox } from '../../src/sandbox.ts';
import { silentLogger } from '../helpers/sandbox.ts';

let sandbox: Sandbox | undefined;
afterEach(async () => {
  await sandbox?.closeNow();
  sandbox = undefined;
});

async function listening(connections: NonNullable<Parameters<typeof createSandbox>[0]>['connections']): Promise<{ port: number; warnings: string[] }> {
  const warnings: string[] = [];
  sandbox = await createSandbox({ port: 0, memory: true, connections, logger: { ...silentLogger, warn: (message) => warnings.push(message) } });
  return { port: Number(new URL(sandbox.url).port), warnings };
}

interface RawConnection {
  socket: Socket;
  /** Everything received until the server closed the connection. */
  closed: Promise<string>;
}

/** A connection to 127.0.0.1 from `localAddress` (all of 127/8 is this machine on Linux: another client address). */
function open(port: number, localAddress = '127.0.0.1'): Promise<RawConnection> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: '127.0.0.1', localAddress });
    let received = '';
    socket.on('data', (chunk) => (received += String(chunk)));
    socket.on('error', () => undefined); // a refused connection is reset: `closed` tells
    const closed = new Promise<string>((done) => socket.once('close', () => done(received)));
    socket.once('connect', () => resolve({ socket, closed }));
    socket.once('error', reject);
  });
}

/** A complete keep-alive request on the connection; resolves with the head of the answer. */
function exchange(connection: RawConnection): Promise<string> {
  return new Promise((resolve) => {
    connection.socket.once('data', (chunk) => resolve(String(chunk)));
    connection.socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
  });
}

const bodyOf = (answer: string) => JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as { error: string };

describe('slow requests', () => {
  it('cuts a request whose body stops arriving with 408 JSON and closes the connection', async () => {
    const { port } = await listening({ headersTimeoutMs: 100, requestTimeoutMs: 200 });
    const slow = await open(port);
    slow.socket.write(
      'POST /v1/sessions HTTP/1.1\r\nHost: 127.0.0.1\r\nx-api-key: sk_live_demo\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"firstName":',
    );
    const answer = await slow.closed;
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(bodyOf(answer).error).toBe('The request took too long to arrive: send the headers and body without pausing.');
  });

  it('cuts a request whose headers stop arriving with 408 JSON', async () => {
    const { port } = await listening({ headersTimeoutMs: 100, requestTimeoutMs: 1000 });
    const slow = await open(port);
    slow.socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    const answer = await slow.closed;
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(bodyOf(answer).error).toBe('The request took too long to arrive: send the headers and body without pausing.');
  });

  it('closes an idle keep-alive connection after the keep-alive timeout', async () => {
    const { port } = await listening({ keepAliveTimeoutMs: 50 });
    const idle = await open(port);
    expect(await exchange(idle)).toMatch(/^HTTP\/1\.1 200 /);
    expect(await idle.closed).toMatch(/^HTTP\/1\.1 200 /);
  });
});

describe('the connection cap', () => {
  it('closes connections past the cap at once, serves those within it, and accepts again once one ends', async () => {
    const { port, warnings } = await listening({ maxConnections: 3 });
    const held = [await open(port), await open(port), await open(port)];
    for (const connection of held) expect(await exchange(connection)).toMatch(/^HTTP\/1\.1 200 /);

    const refused = await open(port);
    refused.socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    expect(await refused.closed).toBe('');
    expect(warnings).toEqual(['idv-sandbox: 3 connections are open, new ones are closed at once until some end (--max-connections).']);
    for (const connection of held) expect(await exchange(connection)).toMatch(/^HTTP\/1\.1 200 /);

    held[0]?.socket.end();
    await held[0]?.closed;
    // The server counts the closed connection once it has seen the close: retry until it has.
    let answer = '';
    for (let attempt = 0; attempt < 100 && answer === ''; attempt += 1) {
      const next = await open(port);
      answer = await Promise.race([exchange(next), next.closed]);
      if (answer !== '') next.socket.end();
    }
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
  });
});

describe('the connection cap per client address', () => {
  it('closes a client’s connections past its cap at once while other addresses keep being served, and accepts it again once one ends', async () => {
    const { port, warnings } = await listening({ maxConnectionsPerClient: 2 });
    // A slow client: two connections that send half a header and stop.
    const slow = [await open(port, '127.0.0.2'), await open(port, '127.0.0.2')];
    for (const connection of slow) connection.socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nx-half');
    const refused = await open(port, '127.0.0.2');
    refused.socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    expect(await refused.closed).toBe('');
    expect(warnings).toEqual([
      'idv-sandbox: 127.0.0.2 holds 2 open connections; its new ones are closed at once until some end (--max-connections-per-client).',
    ]);
    // Another address is served, on as many connections as its own cap allows.
    const others = [await open(port), await open(port)];
    for (const connection of others) expect(await exchange(connection)).toMatch(/^HTTP\/1\.1 200 /);
    slow[0]?.socket.destroy();
    await slow[0]?.closed;
    let answer = '';
    for (let attempt = 0; attempt < 100 && answer === ''; attempt += 1) {
      const next = await open(port, '127.0.0.2');
      answer = await Promise.race([exchange(next), next.closed]);
      if (answer !== '') next.socket.end();
    }
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
  });
});

describe('the connection settings of the CLI', () => {
  it('reads each from its flag or env variable, the flag winning, and refuses 0 or a non-number', () => {
    expect(
      parseCli(['--max-connections', '64', '--headers-timeout', '2000', '--max-connections-per-client', '16'], {
        IDV_SANDBOX_REQUEST_TIMEOUT: '30000',
        IDV_SANDBOX_KEEP_ALIVE_TIMEOUT: '1000',
        IDV_SANDBOX_MAX_CONNECTIONS: '9',
      }),
    ).toMatchObject({
      connections: { maxConnections: 64, maxConnectionsPerClient: 16, headersTimeoutMs: 2000, requestTimeoutMs: 30000, keepAliveTimeoutMs: 1000 },
    });
    expect(parseCli([], {})).toMatchObject({ connections: {} });
    expect(() => parseCli(['--max-connections', '0'], {})).toThrow('--max-connections must be at least 1');
    expect(() => parseCli(['--request-timeout', '1m'], {})).toThrow('--request-timeout must be a whole number, got "1m"');
  });
});
