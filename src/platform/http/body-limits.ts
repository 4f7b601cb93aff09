/**
 * Request body limits per route family, checked before anything reads the body (413 with the limit):
 * an image operation has room for its images (15 MB each, as base64), every other route takes at most
 * 1 MB. The images a route takes are read from its own OpenAPI request body (the binary parts of its
 * multipart form, or a raw binary body), so a new image route needs no entry here, and a new route of any
 * other kind gets the small limit without asking.
 */
import type { IncomingMessage } from 'node:http';
import type { HttpBindings } from '@hono/node-server';
import type { Context, MiddlewareHandler, Next } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { ApiError } from '../errors/api-error.ts';
import { IMAGE_MAX_BYTES } from '../spec-limits.ts';
import type { OperationFacts } from '../operations/declared-operations.ts';
import type { AppEnv } from './context.ts';

export const SMALL_BODY_BYTES = 1024 * 1024;
/** One image at the 15 MB limit, base64-encoded in a JSON string. */
const BASE64_IMAGE_BYTES = Math.ceil(IMAGE_MAX_BYTES / 3) * 4;

/** The largest body of a route taking `images` images: each as base64, plus 1 MB for the other fields. */
export function bodyLimitFor(images: number): number {
  return images === 0 ? SMALL_BODY_BYTES : images * BASE64_IMAGE_BYTES + SMALL_BODY_BYTES;
}

interface SchemaLike {
  type?: unknown;
  format?: unknown;
  properties?: Record<string, SchemaLike>;
}

/** How many images a declared request body holds: the binary parts of a multipart form, or 1 for a raw binary body. */
export function imagesInBody(content: Record<string, { schema?: unknown }> | undefined): number {
  let images = 0;
  for (const { schema } of Object.values(content ?? {})) {
    const shape = (schema ?? {}) as SchemaLike;
    if (shape.format === 'binary') images = Math.max(images, 1);
    const binaryParts = Object.values(shape.properties ?? {}).filter((property) => property.format === 'binary').length;
    images = Math.max(images, binaryParts);
  }
  return images;
}

interface RouteImages {
  method: string;
  pattern: RegExp;
  images: number;
}

/** The image routes of an app, learnt from the documented operations (the route table) when it is built. */
export class RouteFamilies {
  private imageRoutes: RouteImages[] = [];

  learn(operations: readonly Pick<OperationFacts, 'method' | 'path' | 'images'>[]): void {
    this.imageRoutes = operations.flatMap(({ method, path, images }) => {
      if (images === 0) return [];
      const pattern = new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`);
      return [{ method, pattern, images }];
    });
  }

  /** How many images the route of this request takes (0 for every route that is not an image route). */
  imagesOf(method: string, path: string): number {
    return this.imageRoutes.find((route) => route.method === method && route.pattern.test(path))?.images ?? 0;
  }

  /**
   * 413 before parsing for a body over its route family's limit, for a request whose route takes
   * `images` images (`imagesOf`, looked up once by the caller, which also gates image requests).
   */
  bodyLimits(): (c: Context<AppEnv>, images: number, next: Next) => ReturnType<MiddlewareHandler> {
    const bySize = new Map<number, MiddlewareHandler>();
    // Not async: every request crosses it, and every way on is already a promise.
    return (c, images, next) => {
      if (images > 0) c.set('errorFamily', 'image');
      // No body reaches a GET or HEAD handler; asking for one would build a whole Fetch Request per read.
      if (c.req.method === 'GET' || c.req.method === 'HEAD') return next();
      const maxSize = bodyLimitFor(images);
      if (images === 0 && readsJsonDirectly(c, maxSize)) return next();
      let limit = bySize.get(maxSize);
      if (!limit) {
        const megabytes = Math.round((maxSize / 1_048_576) * 10) / 10;
        const what = images === 0 ? 'only image operations take more' : `${images} image${images > 1 ? 's' : ''} of up to 15 MB each, as base64`;
        limit = bodyLimit({
          maxSize,
          onError: (limited) => {
            throw new ApiError(413, `Request body too large: ${limited.req.method} ${limited.req.path.slice(0, 120)} takes at most ${megabytes} MB (${what}).`);
          },
        });
        bySize.set(maxSize, limit);
      }
      return limit(c, next);
    };
  }
}

/** The media types Hono's validator reads as JSON. */
const JSON_MEDIA_TYPE = /^application\/([\w.-]+\+)?json$/i;

/**
 * A JSON body of declared length within `maxSize`, on a real socket, is read straight off the socket into
 * the request's body cache as text, where Hono's validator and the journal find it: a Fetch Request with a
 * web stream per request costs more than the rest of a small create. Any other body (chunked, multipart,
 * binary, too large, in-process) takes the body-limit path. Returns whether it took the body.
 */
function readsJsonDirectly(c: Context, maxSize: number): boolean {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  const declared = incoming?.headers['content-length'];
  if (!incoming || declared === undefined || incoming.headers['transfer-encoding'] !== undefined) return false;
  if (!JSON_MEDIA_TYPE.test(incoming.headers['content-type']?.split(';')[0]?.trim() ?? '') || !(Number(declared) <= maxSize)) return false;
  const body = incomingText(incoming);
  // A client gone mid-body rejects the read; a handler that never reads the body must not see that as unhandled.
  body.catch(() => undefined);
  // Hono keeps the pending read in its cache (the type says the value; the cache holds promises).
  (c.req.bodyCache as { text?: Promise<string> }).text = body;
  return true;
}

const utf8 = new TextDecoder();

/**
 * A request's body as text, as node:stream/consumers' `text()` gives it (UTF-8, a leading byte-order mark
 * dropped, bytes that are not UTF-8 as U+FFFD), without its async iteration, a promise per chunk: the chunks
 * are kept as they come and decoded once at the end. A client gone before the end rejects the read with the
 * stream's error (or a premature close), as `text()` does.
 */
export function incomingText(incoming: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    // Already read whole by someone else, or already gone.
    if (incoming.readableEnded) return resolve('');
    if (incoming.destroyed) return reject(incoming.errored ?? prematureClose());
    const chunks: Buffer[] = [];
    const onData = (chunk: Buffer) => chunks.push(chunk);
    const onEnd = () => {
      stop();
      resolve(utf8.decode(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)));
    };
    const onError = (error: Error) => {
      stop();
      reject(error);
    };
    const onClose = () => onError(incoming.errored ?? prematureClose());
    function stop() {
      incoming.off('data', onData);
      incoming.off('end', onEnd);
      incoming.off('error', onError);
      incoming.off('close', onClose);
    }
    incoming.on('data', onData);
    incoming.on('end', onEnd);
    incoming.on('error', onError);
    incoming.on('close', onClose);
  });
}

function prematureClose(): Error {
  return Object.assign(new Error('Premature close'), { code: 'ERR_STREAM_PREMATURE_CLOSE' });
}

/** What is read and thrown away of one body answered before it arrived, before its connection is cut. */
const MAX_DISCARDED_BYTES = 64 * 1024 * 1024;

/** The app's fetch as the node adapter calls it; `env` holds the HTTP/1 server's request and response (HttpBindings). */
type Fetch = (request: Request, env: unknown) => Response | Promise<Response>;

/**
 * A body answered before it was read whole (413 over the limit, 429 from the image gate) is still on its
 * way: its answer goes out once the rest has arrived, read and thrown away. A client still sending then
 * reads the answer instead of a reset (EPIPE), also on a connection that closes after its answer
 * (`Connection: close`, as Python's urllib sends): Node closes that socket as soon as the answer is
 * written, and bytes still arriving turn the close into a reset. The request timeout bounds the wait; past
 * MAX_DISCARDED_BYTES the answer goes at once and the connection is cut after it. (The node adapter's own
 * clean-up gives up after 500 ms, which parallel large uploads exceed; it is turned off where the server is made.)
 */
export function answerOnceBodyArrived(fetch: Fetch): Fetch {
  // Not async where the body is already in (every read): every request crosses it.
  return (request, env) => {
    const answer = fetch(request, env);
    const bindings = env as HttpBindings;
    if (bindings.incoming.complete) return answer;
    return Promise.resolve(answer).then((response) => (arrived(bindings.incoming) ? response : restOfBody(bindings).then(() => response)));
  };
}

const arrived = (incoming: IncomingMessage) => incoming.complete || incoming.destroyed;

function restOfBody({ incoming, outgoing }: HttpBindings): Promise<void> {
  return new Promise((resolve) => {
    // The answer is made, so whatever read the body has stopped: only the discarding reader remains.
    incoming.removeAllListeners('data');
    let discarded = 0;
    incoming.on('data', (chunk: Buffer) => {
      discarded += chunk.length;
      if (discarded <= MAX_DISCARDED_BYTES) return;
      incoming.pause();
      outgoing.once('finish', () => incoming.socket.destroy());
      resolve();
    });
    incoming.once('end', resolve);
    incoming.once('close', resolve);
    incoming.resume();
  });
}
