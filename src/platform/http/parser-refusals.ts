/**
 * Requests Node's HTTP parser refuses before the app sees them (a bad Content-Length, headers over the
 * limit, a request line that is not HTTP, a request or header timeout), and those the node adapter cannot
 * turn into a URL (`GET *`, a bad Host), are answered like every other error: JSON with an `error` a
 * person can act on.
 */
import type { Duplex } from 'node:stream';

const REFUSALS: Record<string, [status: number, reason: string, message: string]> = {
  HPE_HEADER_OVERFLOW: [431, 'Request Header Fields Too Large', 'Request headers too large: keep the request line and headers under 16 KB together.'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request Timeout', 'The request took too long to arrive: send the headers and body without pausing.'],
  ERR_HTTP_HEADERS_TIMEOUT: [408, 'Request Timeout', 'The request headers took too long to arrive: send them without pausing.'],
};

export function answerParserRefusal(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const [status, reason, message] = REFUSALS[error.code ?? ''] ?? [
    400,
    'Bad Request',
    `Malformed HTTP request (${error.code ?? 'parse error'}): check the request line, the headers and Content-Length against the body sent.`,
  ];
  const body = JSON.stringify({ error: message });
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/**
 * The node adapter's error handler: a request whose target or Host makes no URL (`GET *`, `OPTIONS *`)
 * answers 400 JSON instead of an empty 400; anything else that escaped the app answers 500 JSON.
 */
export function answerUnbuildableRequest(error: unknown): Response {
  if (error instanceof Error && error.name === 'RequestError') {
    return Response.json(
      {
        error:
          'The request target is not a path of this server (such as "*"), or the Host header is not a host: send a request line such as "GET /healthz HTTP/1.1" with a Host header.',
      },
      { status: 400 },
    );
  }
  return Response.json({ error: 'Internal server error: the request could not be answered. Retry it; if it keeps failing, report it.' }, { status: 500 });
}
