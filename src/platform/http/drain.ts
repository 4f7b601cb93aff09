/**
 * A stop that ends, for a node HTTP server with keep-alive clients: stop accepting, let in-flight requests
 * finish with `Connection: close` (so each client drops its socket after its answer), close idle sockets at
 * once, and cut whatever is still open when the bound passes.
 */
import type { Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

export interface Drainable {
  /** Resolves 'drained' when every connection ended by itself, 'cut' when the bound closed the rest. */
  drain(timeoutMs: number): Promise<'drained' | 'cut'>;
  /** Closes every connection now, in-flight or not. */
  cut(): void;
}

export function drainable(server: Server): Drainable {
  const inFlight = new Map<Socket, Set<ServerResponse>>();
  let draining: Promise<'drained' | 'cut'> | null = null;

  server.prependListener('request', (request, response) => {
    const socket = request.socket;
    let responses = inFlight.get(socket);
    if (!responses) {
      inFlight.set(socket, (responses = new Set()));
      socket.once('close', () => inFlight.delete(socket));
    }
    responses.add(response);
    response.once('close', () => responses.delete(response));
    if (draining) response.setHeader('connection', 'close');
  });

  return {
    drain(timeoutMs) {
      if (draining) return draining;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const [socket, responses] of inFlight) {
        for (const response of responses) {
          if (!response.headersSent) response.setHeader('connection', 'close');
          // Headers already out without the close: end the socket once this answer is complete.
          else response.once('finish', () => socket.end());
        }
      }
      server.closeIdleConnections();
      draining = new Promise((resolve) => {
        const timer = setTimeout(() => {
          server.closeAllConnections();
          resolve('cut');
        }, timeoutMs);
        void closed.then(() => {
          clearTimeout(timer);
          resolve('drained');
        });
      });
      return draining;
    },
    cut() {
      server.close();
      server.closeAllConnections();
    },
  };
}
