/**
 * Makes recordings the way an integrator would, with a second sandbox (another seed) standing in for the
 * real service: each call is answered by it and kept as an exchange, then written as JSONL or HAR 1.2.
 */
import { createSandbox, type Sandbox } from '../../src/sandbox.ts';
import { type Exchange, jsonlLine } from '../../src/drift/recording.ts';

export const RECORDED_HOST = 'https://api.idv.example';
/** The key the integrator's staging account used: not a fixture key, so it must be mapped. */
export const RECORDED_KEY = 'sk_live_St4gingAccountKey9';

export interface Recorder {
  exchanges: Exchange[];
  call(method: string, url: string, body?: unknown, headers?: Record<string, string>): Promise<any>;
  /** Moves the recorded time on (the next call starts this much later). */
  wait(ms: number): void;
  close(): Promise<void>;
  service: Sandbox;
}

export async function recorder(seed = 42, startAt = '2026-02-01T10:00:00.000Z'): Promise<Recorder> {
  const service = await createSandbox({ port: null, memory: true, seed, clock: `frozen@${startAt}`, logger: { info() {}, warn() {}, error() {} } });
  const exchanges: Exchange[] = [];
  let at = Date.parse(startAt);
  return {
    exchanges,
    service,
    wait: (ms) => {
      at += ms;
    },
    async call(method, url, body, extra = {}) {
      at += 1000;
      const startedAt = new Date(at).toISOString();
      await service.app.request('/__sandbox/clock', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ set: startedAt }),
      });
      const bytes = body instanceof Uint8Array;
      const headers: Record<string, string> = { 'content-type': bytes ? 'image/jpeg' : 'application/json', ...extra };
      const sent = body === undefined || bytes ? body : JSON.stringify(body);
      // An absolute URL is one the service handed out (a presigned upload): it is requested as it came.
      const absolute = /^https?:/.test(url);
      const target = absolute ? url.slice(new URL(url).origin.length) : url;
      const response = await service.app.request(target, { method, headers: { ...headers, 'x-api-key': 'sk_live_demo' }, body: sent });
      const responseHeaders: Record<string, string> = {};
      response.headers.forEach((value, name) => {
        responseHeaders[name] = value;
      });
      const answer = await response.text();
      exchanges.push({
        number: exchanges.length + 1,
        startedAt,
        request: {
          method,
          url: absolute ? url : `${RECORDED_HOST}${url}`,
          headers: { ...headers, 'x-api-key': RECORDED_KEY },
          ...(sent === undefined ? {} : { body: sent }),
        },
        response: { status: response.status, headers: responseHeaders, body: answer },
      });
      try {
        return JSON.parse(answer);
      } catch {
        return answer;
      }
    },
    close: () => service.close({ report: false }).then(() => undefined),
  };
}

/** HAR text, base64 for bytes (as HAR's content.encoding). */
const harText = (body: string | Uint8Array | undefined) =>
  body instanceof Uint8Array ? { text: Buffer.from(body).toString('base64'), encoding: 'base64' } : body === undefined ? {} : { text: body };

export const toJsonl = (exchanges: readonly Exchange[]) => exchanges.map(jsonlLine).join('\n');

const harHeaders = (headers: Record<string, string>) => Object.entries(headers).map(([name, value]) => ({ name, value }));

export const toHar = (exchanges: readonly Exchange[]) =>
  JSON.stringify({
    log: {
      version: '1.2',
      creator: { name: 'drift-test', version: '1' },
      entries: exchanges.map(({ request, response, startedAt }) => ({
        startedDateTime: startedAt,
        time: 1,
        request: {
          method: request.method,
          url: request.url,
          httpVersion: 'HTTP/1.1',
          headers: harHeaders(request.headers),
          queryString: [],
          cookies: [],
          headersSize: -1,
          bodySize: -1,
          ...(request.body === undefined ? {} : { postData: { mimeType: request.headers['content-type'] ?? '', ...harText(request.body) } }),
        },
        response: {
          status: response.status,
          statusText: '',
          httpVersion: 'HTTP/1.1',
          headers: harHeaders(response.headers),
          cookies: [],
          content: { size: -1, mimeType: response.headers['content-type'] ?? '', ...harText(response.body) },
          redirectURL: '',
          headersSize: -1,
          bodySize: -1,
        },
        cache: {},
        timings: { send: 0, wait: 1, receive: 0 },
      })),
    },
  });
