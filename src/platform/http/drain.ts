/**
 * A stop that ends, for a node HTTP server with keep-alive clients: stop accepting, close at once every
 * connection without a request being answered (idle keep-alive, connected but silent, headers half sent),
 * let in-flight requests finish with `Connection: close` (so each client drops its socket after its
 * answer), and cut whatever is still open when the bound passes.
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
  /**
   * Every open connection, with the responses it is answering (none: nothing to wait for), in a list: a
   * connection answers one request at a time (a few, pipelined), and a set would give every response an
   * identity hash, stored in the object on its first use as a key.
   */
  const connections = new Map<Socket, ServerResponse[]>();
  let draining: Promise<'drained' | 'cut'> | null = null;

  server.on('connection', (socket: Socket) => {
    connections.set(socket, []);
    socket.once('close', () => connections.delete(socket));
  });

  // One listener for every response (a response closes once): `once` would wrap a new one per request.
  function answered(this: ServerResponse): void {
    const socket = this.req.socket;
    const responses = connections.get(socket);
    if (!responses) return;
    const index = responses.indexOf(this);
    if (index >= 0) responses.splice(index, 1);
    // Answered in full (the bytes are queued): the socket ends once they are out.
    if (draining && responses.length === 0) socket.end();
  }

  server.prependListener('request', (request, response) => {
    const responses = connections.get(request.socket);
    if (!responses) return;
    responses.push(response);
    response.on('close', answered);
    if (draining) response.setHeader('connection', 'close');
  });

  return {
    drain(timeoutMs) {
      if (draining) return draining;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const [socket, responses] of connections) {
        // Nothing being answered: an idle keep-alive, a silent or a half-sent request. Nothing to wait for.
        if (responses.length === 0) socket.destroy();
        for (const response of responses) {
          if (!response.headersSent) response.setHeader('connection', 'close');
        }
      }
      draining = new Promise((resolve) => {
        const timer = setTimeout(() => {
          server.closeAllConnections();
          for (const socket of connections.keys()) socket.destroy();
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
      for (const socket of connections.keys()) socket.destroy();
    },
  };
}
