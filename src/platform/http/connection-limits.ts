/**
 * What one client can hold of the listening server: open connections are capped, in all and per client
 * address (the next one is closed at once, so one client holding many connections, slow ones included,
 * never starves the others), headers must arrive within a few seconds and the whole request within a
 * minute (408 JSON, then the connection is closed), and an idle keep-alive connection is closed after a few
 * seconds. docs/security.md has the figures.
 */
import type { Server, ServerOptions } from 'node:http';

export interface ConnectionLimits {
  /** Open connections at once; the next is closed as soon as it is accepted. */
  maxConnections: number;
  /** Open connections of one client address at once; its next is closed as soon as it is accepted. */
  maxConnectionsPerClient: number;
  /** Time for the request line and headers to arrive. */
  headersTimeoutMs: number;
  /** Time for the whole request, body included, to arrive. */
  requestTimeoutMs: number;
  /** Idle time before a keep-alive connection is closed. */
  keepAliveTimeoutMs: number;
}

export const DEFAULT_CONNECTION_LIMITS: ConnectionLimits = {
  maxConnections: 1024,
  maxConnectionsPerClient: 256,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 60_000,
  keepAliveTimeoutMs: 5_000,
};

/** Node checks the two request timeouts on an interval (30 s by default): check often enough to keep them. */
const MAX_CHECK_INTERVAL_MS = 1_000;

/** The options Node's `createServer` takes for these limits. */
export function serverOptionsFor(limits: ConnectionLimits): ServerOptions {
  return {
    headersTimeout: limits.headersTimeoutMs,
    // Node refuses a request timeout shorter than the headers timeout.
    requestTimeout: Math.max(limits.requestTimeoutMs, limits.headersTimeoutMs),
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    connectionsCheckingInterval: Math.min(MAX_CHECK_INTERVAL_MS, limits.headersTimeoutMs, limits.requestTimeoutMs),
  };
}

/** Caps the server's open connections, in all and per client address; the first refusal of each is logged, naming the setting. */
export function capConnections(
  server: Server,
  limits: Pick<ConnectionLimits, 'maxConnections' | 'maxConnectionsPerClient'>,
  warn: (message: string) => void,
): void {
  server.maxConnections = limits.maxConnections;
  server.once('drop', () =>
    warn(`idv-sandbox: ${limits.maxConnections} connections are open, new ones are closed at once until some end (--max-connections).`),
  );
  const open = new Map<string, number>();
  let warned = false;
  // Before the HTTP server's own listener: a refused connection never reaches its parser.
  server.prependListener('connection', (socket) => {
    const address = socket.remoteAddress ?? '';
    const count = open.get(address) ?? 0;
    if (count >= limits.maxConnectionsPerClient) {
      if (!warned) {
        warned = true;
        warn(`idv-sandbox: ${address} holds ${count} open connections; its new ones are closed at once until some end (--max-connections-per-client).`);
      }
      socket.destroy();
      return;
    }
    open.set(address, count + 1);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left === 0) open.delete(address);
      else open.set(address, left);
    });
  });
}
