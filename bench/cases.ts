/** The benchmark cases; areas add theirs here. */
import type { Sandbox } from '../src/sandbox.ts';

export interface BenchRequest {
  method: 'GET' | 'POST' | 'PUT';
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface BenchCase {
  name: string;
  fileStore?: boolean;
  connections?: number;
  request?: BenchRequest;
  /** Seeds state before the run and may return the request to send. */
  prepare?: (sandbox: Sandbox) => Promise<{ request?: BenchRequest } | void>;
}

const LIVE = { 'x-api-key': 'sk_live_demo' };
const presign = {
  method: 'POST' as const,
  path: '/v1/upload/presign',
  headers: { ...LIVE, 'content-type': 'application/json' },
  body: JSON.stringify({ files: [{ contentType: 'image/jpeg', byteLength: 1000 }] }),
};

/** Fills the default namespace with `count` records (one durable flush at the end). */
async function prefill(sandbox: Sandbox, count: number) {
  const things = sandbox.platform.worlds.get().data.collection<{ id: string; n: number; label: string }>('bench-filler');
  for (let i = 0; i < count; i++) things.put({ id: `filler-${i}`, n: i, label: `record number ${i} of the bench prefill` });
  await sandbox.platform.store.durable();
}

/**
 * Two 1-megapixel JPEGs (896x1120) of the same generated face at JPEG quality 90 and 70 (a match), built
 * once and sent as JSON base64 (about 350 KB and 200 KB), so every request decodes two megapixel images
 * in the worker pool. The pool is warmed up first: the figures are the steady state.
 */
async function megapixelCompare(): Promise<{ request: BenchRequest }> {
  const { drawSyntheticFace, encodeImage } = await import('../src/images/synthetic-images.ts');
  const { warmUpDefaultImageDecoder } = await import('../src/images/image-decoding.ts');
  await warmUpDefaultImageDecoder();
  const face = drawSyntheticFace('bench-megapixel-face', 896, 1120);
  const [source, target] = await Promise.all([encodeImage(face, 'jpeg', { quality: 90 }), encodeImage(face, 'jpeg', { quality: 70 })]);
  return {
    request: {
      method: 'POST',
      path: '/v1/face/compare',
      headers: { ...LIVE, 'content-type': 'application/json' },
      body: JSON.stringify({ source: source.toString('base64'), target: target.toString('base64') }),
    },
  };
}

export const benchCases: BenchCase[] = [
  { name: 'GET /openapi.json', request: { method: 'GET', path: '/openapi.json' } },
  { name: 'GET /v1/auth/verify (authenticated)', request: { method: 'GET', path: '/v1/auth/verify', headers: LIVE } },
  { name: 'POST /v1/upload/presign, memory store', request: presign },
  { name: 'POST /v1/upload/presign, file store, empty', fileStore: true, request: presign },
  { name: 'POST /v1/upload/presign, file store, 10k records', fileStore: true, request: presign, prepare: (s) => prefill(s, 10_000) },
  { name: 'POST /v1/upload/presign, file store, 100k records', fileStore: true, request: presign, prepare: (s) => prefill(s, 100_000) },
  { name: 'POST /v1/face/compare, two 1-megapixel JPEGs', prepare: megapixelCompare },
  { name: 'POST /v1/face/compare, two 1-MP JPEGs, 1 conn', connections: 1, prepare: megapixelCompare },
];
