/**
 * Requests Node's HTTP parser refuses before the app sees them (a bad Content-Length, headers over the
 * limit, a request line that is not HTTP, a request or header timeout) are answered like every other
 * error: JSON with an `error` a person can act on, then the connection is closed.
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
