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
import { isUntouchedLightweightRequest } from './fast-paths.ts';
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

/** A route that takes images (as bytes in its body) or decodes them (however they came). */
export interface ImageRoute {
  method: string;
  pattern: RegExp;
  /** The images its body takes: 0 for one that decodes images sent as text, or stored before. */
  images: number;
  decodesImages: boolean;
}

/** The image routes of an app, learnt from the documented operations (the route table) when it is built. */
export class RouteFamilies {
  private imageRoutes: ImageRoute[] = [];

  learn(operations: readonly Pick<OperationFacts, 'method' | 'path' | 'images' | 'decodesImages'>[]): void {
    this.imageRoutes = operations.flatMap(({ method, path, images, decodesImages }) => {
      if (images === 0 && !decodesImages) return [];
      const pattern = new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`);
      return [{ method, pattern, images, decodesImages }];
    });
  }

  /** The route of this request when it takes or decodes images; undefined for every other route. */
  imageRouteOf(method: string, path: string): ImageRoute | undefined {
    return this.imageRoutes.find((route) => route.method === method && route.pattern.test(path));
  }

  /**
   * 413 before parsing for a body over its route family's limit, for a request whose route takes
   * `images` images (`imageRouteOf`, looked up once by the caller, which also gates image requests).
   */
  bodyLimits(): (c: Context<AppEnv>, images: number, next: Next) => ReturnType<MiddlewareHandler> {
    const bySize = new Map<number, MiddlewareHandler>();
    // Not async: every request crosses it, and every way on is already a promise.
    return (c, images, next) => {
      if (images > 0) c.set('errorFamily', 'image');
      // No body reaches a GET or HEAD handler; asking for one would build a whole Fetch Request per read.
      if (c.req.method === 'GET' || c.req.method === 'HEAD') return next();
      const maxSize = bodyLimitFor(images);
      if (readsOffSocket(c, images, maxSize)) return next();
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

/** Media types whose body only undici's parser reads (a form): never read off the socket here. */
const FORM_MEDIA_TYPE = /^(multipart\/form-data|application\/x-www-form-urlencoded)$/i;

/**
 * A body of declared length within `maxSize`, on a real socket, is read straight off it: a Fetch Request
 * with a web stream per request costs more than the rest of a small create, and on Node 20 the first one
 * loads undici (25-40 ms of an integrator's first upload). Any other body (chunked, a form, too large,
 * in-process) takes the body-limit path. Returns whether it took the body.
 *
 * - A JSON body outside the image routes is read at once into the request's body cache as text, where
 *   Hono's validator and the journal find it.
 * - Any other (an upload's bytes, an image route's JSON) is read when a handler first asks for it: the node
 *   adapter's lightweight request, whose `text` and `arrayBuffer` Hono's body cache calls, reads the socket
 *   itself. An image route's body is then read after the API-key guard and inside its slot, as before, and
 *   a refused one is never held in memory.
 */
function readsOffSocket(c: Context, images: number, maxSize: number): boolean {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  if (!incoming || incoming.headers['transfer-encoding'] !== undefined) return false;
  // A request with neither Content-Length nor Transfer-Encoding has no body (RFC 9112, 6.3): a DELETE, mostly.
  const declared = incoming.headers['content-length'];
  if (declared === undefined || Number(declared) === 0) return readOnDemand(c.req.raw, incoming);
  if (!(Number(declared) <= maxSize)) return false;
  const mediaType = incoming.headers['content-type']?.split(';')[0]?.trim() ?? '';
  if (FORM_MEDIA_TYPE.test(mediaType)) return false;
  if (images === 0) {
    if (!JSON_MEDIA_TYPE.test(mediaType)) return false;
    const body = incomingText(incoming);
    // A client gone mid-body rejects the read; a handler that never reads the body must not see that as unhandled.
    body.catch(() => undefined);
    // Hono keeps the pending read in its cache (the type says the value; the cache holds promises).
    (c.req.bodyCache as { text?: Promise<string> }).text = body;
    return true;
  }
  return readOnDemand(c.req.raw, incoming);
}

/**
 * Gives the node adapter's lightweight request for `incoming` its own `text` and `arrayBuffer`, which read
 * the socket (Hono's body cache calls them once and keeps the promise). False for any other request object.
 */
function readOnDemand(raw: Request, incoming: IncomingMessage): boolean {
  if (!isUntouchedLightweightRequest(raw, incoming)) return false;
  // A client gone mid-body is the client's 400 (no one reads it, but the journal and the log do), never a 500.
  const cutShort = () => {
    throw new ApiError(400, `Request body incomplete: the connection closed before the ${incoming.headers['content-length']} bytes its Content-Length declares had arrived.`);
  };
  Object.defineProperties(raw, {
    text: { value: () => incomingText(incoming).catch(cutShort) },
    arrayBuffer: { value: () => incomingBytes(incoming).then((bytes) => bytes.buffer, cutShort) },
  });
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
  return readIncoming(incoming, (chunks) => utf8.decode(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)));
}

/**
 * A request's body as bytes, as node:stream/consumers' `arrayBuffer()` gives them: in a buffer of their own,
 * of exactly their length (a chunk of the socket's shares a larger one). Fails as `incomingText` does.
 */
export function incomingBytes(incoming: IncomingMessage): Promise<Uint8Array<ArrayBuffer>> {
  return readIncoming(incoming, (chunks) => {
    const bytes = new Uint8Array(chunks.reduce((length, chunk) => length + chunk.length, 0));
    let at = 0;
    for (const chunk of chunks) {
      bytes.set(chunk, at);
      at += chunk.length;
    }
    return bytes;
  });
}

/** What `whole` makes of the chunks of a request's body, as they came, once it has ended. */
function readIncoming<T>(incoming: IncomingMessage, whole: (chunks: Buffer[]) => T): Promise<T> {
  return new Promise((resolve, reject) => {
    // Already read whole by someone else, or already gone.
    if (incoming.readableEnded) return resolve(whole([]));
    if (incoming.destroyed) return reject(incoming.errored ?? prematureClose());
    const chunks: Buffer[] = [];
    const onData = (chunk: Buffer) => chunks.push(chunk);
    const onEnd = () => {
      stop();
      resolve(whole(chunks));
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
