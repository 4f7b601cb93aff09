/**
 * What one client can hold of the listening server: open connections are capped (the next one is closed
 * at once), headers must arrive within a few seconds and the whole request within a minute (408 JSON, then
 * the connection is closed), and an idle keep-alive connection is closed after a few seconds.
 */
import type { Server, ServerOptions } from 'node:http';

export interface ConnectionLimits {
  /** Open connections at once; the next is closed as soon as it is accepted. */
  maxConnections: number;
  /** Time for the request line and headers to arrive. */
  headersTimeoutMs: number;
  /** Time for the whole request, body included, to arrive. */
  requestTimeoutMs: number;
  /** Idle time before a keep-alive connection is closed. */
  keepAliveTimeoutMs: number;
}

export const DEFAULT_CONNECTION_LIMITS: ConnectionLimits = {
  maxConnections: 512,
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

/** Caps the server's open connections; the first refusal is logged, naming the setting. */
export function capConnections(server: Server, maxConnections: number, warn: (message: string) => void): void {
  server.maxConnections = maxConnections;
  server.once('drop', () => warn(`idv-sandbox: ${maxConnections} connections are open, new ones are closed at once until some end (--max-connections).`));
}
