/**
 * The shadow mode (`--shadow-upstream URL`, `--record DIR`): each /v1 request is forwarded to the
 * upstream (the real service's staging) and its answer goes back to the client untouched; the same
 * request is then answered by this sandbox in a namespace of its own (`shadow`), with the key and the
 * ids mapped as check-recording maps them, and the difference joins the report of GET /__sandbox/drift.
 * With a record folder each exchange is appended as a JSONL line that check-recording reads.
 */
import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { errorBody } from '../platform/errors/api-error.ts';
import type { Platform } from '../platform/platform.ts';
import { buildDriftReport, type DriftReport } from './drift-report.ts';
import { type Exchange, jsonlLine } from './recording.ts';
import { clientOperationsOf, KeyMapper, Replayer, type SendToSandbox } from './replayer.ts';

export const SHADOW_NAMESPACE = 'shadow';

export interface ShadowOptions {
  /** The service the requests go to: `https://staging.example`, its /v1 paths appended. */
  upstream: string;
  /** A folder: each exchange appended to `shadow-<start instant>.jsonl` in it. */
  recordDir?: string;
}

type Fetch = (request: Request, env: unknown) => Response | Promise<Response>;

/** Headers of one hop, not the message's: the forwarding sets its own. */
const HOP_HEADERS = new Set(['host', 'connection', 'keep-alive', 'transfer-encoding', 'content-length', 'upgrade', 'proxy-connection', 'te', 'trailer']);

/** The upstream's body is read decoded (fetch undoes gzip): its encoding and length headers would lie about the bytes passed on. */
const DECODED_AWAY = new Set(['content-encoding', 'content-length', 'transfer-encoding', 'connection', 'keep-alive']);

/** Keyed by the namespaces the shadow answers in: a server started afresh over the same data sees it too. */
const shadows = new WeakMap<Platform['worlds'], Shadow>();

/** The shadow mode of a sandbox's platform, when it runs in it. */
export const shadowOf = (platform: Platform): Shadow | undefined => shadows.get(platform.worlds);

const isApiPath = (path: string) => path === '/v1' || path.startsWith('/v1/');

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** A body as a recording keeps it: text when it is UTF-8, else bytes; nothing when empty. */
function recordedBody(bytes: Uint8Array): string | Uint8Array | undefined {
  if (bytes.byteLength === 0) return undefined;
  try {
    return utf8.decode(bytes);
  } catch {
    return bytes;
  }
}

const headerRecord = (headers: Headers) => Object.fromEntries([...headers].map(([name, value]) => [name.toLowerCase(), value]));

export class Shadow {
  readonly #upstream: URL;
  readonly #keys = new KeyMapper();
  readonly #replayer: Replayer;
  readonly #recordFile: string | undefined;
  /** Shadow answers one at a time, in the order the upstream answered: ids learnt from one are there for the next. */
  #queue: Promise<void> = Promise.resolve();
  #numbered = 0;

  constructor(
    private readonly platform: Platform,
    private readonly app: Fetch,
    options: ShadowOptions,
  ) {
    this.#upstream = new URL(options.upstream);
    this.#replayer = new Replayer(SHADOW_NAMESPACE, new Set(), () => clientOperationsOf(platform));
    if (options.recordDir !== undefined) {
      mkdirSync(options.recordDir, { recursive: true });
      const started = platform.worlds.get(SHADOW_NAMESPACE).clock.iso().replaceAll(':', '-');
      this.#recordFile = join(options.recordDir, `shadow-${started}.jsonl`);
    }
  }

  /** Where the exchanges are appended, with --record. */
  get recordFile(): string | undefined {
    return this.#recordFile;
  }

  report(): DriftReport {
    return buildDriftReport(this.#replayer.result);
  }

  /** The server's handler: /v1 through the upstream (and the shadow), everything else (console, control plane, hosted pages) served here. */
  readonly fetch: Fetch = async (request, env) => {
    const url = new URL(request.url);
    if (!isApiPath(url.pathname)) return this.app(request, env);
    const startedAt = this.platform.worlds.get(SHADOW_NAMESPACE).clock.iso();
    const body = request.method === 'GET' || request.method === 'HEAD' ? undefined : new Uint8Array(await request.arrayBuffer());
    const headers = new Headers();
    request.headers.forEach((value, name) => {
      if (!HOP_HEADERS.has(name)) headers.set(name, value);
    });
    const target = new URL(`${this.#upstream.pathname.replace(/\/+$/, '')}${url.pathname}${url.search}`, this.#upstream);
    let upstream: Response;
    let answer: Uint8Array;
    try {
      upstream = await fetch(target, { method: request.method, headers, body, redirect: 'manual' });
      answer = new Uint8Array(await upstream.arrayBuffer());
    } catch (error) {
      const reason = (error as Error & { cause?: Error }).cause?.message ?? (error as Error).message;
      return Response.json(
        errorBody(
          'default',
          `The upstream ${this.#upstream.origin} did not answer (${reason}). The sandbox runs in shadow mode: it passes the upstream's answers on and has none to give. Check that --shadow-upstream names a reachable service.`,
        ),
        { status: 502 },
      );
    }
    const exchange: Exchange = {
      number: ++this.#numbered,
      request: { method: request.method, url: target.href, headers: headerRecord(headers), body: body && recordedBody(body) },
      response: { status: upstream.status, headers: headerRecord(upstream.headers), body: recordedBody(answer) },
      startedAt,
    };
    const shadowed = this.#queue.then(() => this.#shadow(exchange, url.origin));
    this.#queue = shadowed;
    await shadowed;
    const passed = new Headers();
    upstream.headers.forEach((value, name) => {
      if (!DECODED_AWAY.has(name)) passed.append(name, value);
    });
    return new Response(answer.byteLength === 0 ? null : answer, { status: upstream.status, statusText: upstream.statusText, headers: passed });
  };

  /** Answers the exchange in the shadow namespace and records it; a failure here never reaches the client's answer. */
  async #shadow(exchange: Exchange, origin: string): Promise<void> {
    try {
      const served = this.#replayer.operationOf(exchange);
      const key = exchange.request.headers['x-api-key'];
      // Sent with the client's origin, so the links the shadow namespace hands out name this sandbox; without
      // the connection's bindings, whose raw headers the sandbox would read instead of the request's.
      const send: SendToSandbox = async (target, init) => this.app(new Request(new URL(target, origin), init), undefined);
      if (served)
        await this.#replayer.replay(exchange, served, key === undefined ? undefined : this.#keys.fixtureKey(key, exchange.response.status === 401), send);
      if (this.#recordFile !== undefined) appendFileSync(this.#recordFile, `${jsonlLine(exchange)}\n`);
    } catch (error) {
      this.platform.log.warn(`shadow mode: exchange ${exchange.number} was not compared: ${(error as Error).message}`);
    }
  }
}

/** The server's handler in shadow mode (the mode is kept for GET /__sandbox/drift and the console). */
export function shadowing(platform: Platform, app: Fetch, options: ShadowOptions): Fetch {
  const shadow = new Shadow(platform, app, options);
  shadows.set(platform.worlds, shadow);
  return shadow.fetch;
}
