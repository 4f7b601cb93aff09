/**
 * Image operations run a few at a time so memory stays bounded: the rest wait in a bounded queue, and past
 * it the answer is 429 with Retry-After and the image error body. Requests are held in flight by holding
 * back their bodies (the handler waits on the stream), so every step is deterministic.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ConcurrencyGate } from '../../src/platform/concurrency/concurrency-gate.ts';
import { KEYS, testSandbox, type TestSandbox } from '../helpers/sandbox.ts';

const FACE = readFileSync(new URL('../../fixtures/images/face.jpg', import.meta.url)).toString('base64');

/** Lets pending promise callbacks and I/O callbacks run. */
const turn = () => new Promise((resolve) => setImmediate(resolve));

async function until(condition: () => boolean): Promise<void> {
  for (let turns = 0; !condition(); turns += 1) {
    if (turns > 1000) throw new Error('condition never held');
    await turn();
  }
}

/** An image request whose body arrives only when `finish()` is called; `reading` resolves once the handler reads it. */
function heldImageRequest(sandbox: TestSandbox, path: string, body: unknown) {
  let finish = () => undefined as void;
  let reading = false;
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        reading = true;
        return new Promise<void>((resolve) => {
          finish = () => {
            controller.enqueue(new TextEncoder().encode(JSON.stringify(body)));
            controller.close();
            resolve();
          };
        });
      },
    },
    { highWaterMark: 0 },
  );
  const response = sandbox.app.request(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': KEYS.live },
    body: stream,
    duplex: 'half',
  } as RequestInit);
  return { response, reading: () => reading, finish: () => finish() };
}

describe('the image concurrency gate', () => {
  it('admits `active` at once, queues `queued` in arrival order, refuses the next, and hands slots on', async () => {
    const gate = new ConcurrencyGate({ active: 2, queued: 2 });
    const order: string[] = [];
    const first = await gate.enter();
    const second = await gate.enter();
    const third = gate.enter()?.then((release) => (order.push('third'), release));
    const fourth = gate.enter()?.then((release) => (order.push('fourth'), release));
    expect([gate.active, gate.queued]).toEqual([2, 2]);
    expect(gate.enter()).toBeUndefined();

    first?.();
    first?.(); // a second release of the same slot frees nothing more
    const releaseThird = await third;
    expect(order).toEqual(['third']);
    expect([gate.active, gate.queued]).toEqual([2, 1]);
    second?.();
    releaseThird?.();
    (await fourth)?.();
    expect(order).toEqual(['third', 'fourth']);
    expect([gate.active, gate.queued]).toEqual([0, 0]);
  });
});

describe('image operations under load', () => {
  it('runs one at a time, queues one, answers 429 with Retry-After past that, and leaves other routes alone', async () => {
    const sandbox = await testSandbox({ imageConcurrency: { active: 1, queued: 1 } });
    const gate = sandbox.platform.imageRequests;

    const running = heldImageRequest(sandbox, '/v1/face/detect', { image: FACE });
    await until(running.reading);
    expect(gate.active).toBe(1);
    const waiting = heldImageRequest(sandbox, '/v1/face/estimate-age', { image: FACE });
    await until(() => gate.queued === 1);
    expect(waiting.reading()).toBe(false);

    const refused = await sandbox.call('POST', '/v1/face/compare', { body: { source: FACE, target: FACE } });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(refused.body).toEqual({
      error:
        'Too many image requests at once: 1 are processed in parallel and 1 wait, the rest are refused. Retry after 1 s, or send fewer image requests at the same time.',
      hints: [],
    });
    const upload = await sandbox.call('PUT', '/uploads/anything', { raw: 'x', headers: { 'content-type': 'image/jpeg' } });
    expect(upload.status).toBe(429);
    expect((await sandbox.call('GET', '/v1/sessions')).status).toBe(200);

    running.finish();
    expect((await running.response).status).toBe(200);
    await until(waiting.reading);
    expect([gate.active, gate.queued]).toEqual([1, 0]);
    waiting.finish();
    expect((await waiting.response).status).toBe(200);
    expect([gate.active, gate.queued]).toEqual([0, 0]);

    const after = await sandbox.call('POST', '/v1/face/compare', { body: { source: FACE, target: FACE } });
    expect(after.status).toBe(200);
  });

  it('frees the slot of a request that fails, so refusals never leak capacity', async () => {
    const sandbox = await testSandbox({ imageConcurrency: { active: 1, queued: 0 } });
    for (let n = 0; n < 5; n += 1) {
      expect((await sandbox.call('POST', '/v1/face/detect', { body: { image: 12 } })).status).toBe(400);
      expect((await sandbox.call('POST', '/v1/face/detect', { key: 'sk_live_wrong', body: { image: FACE } })).status).toBe(401);
    }
    expect(sandbox.platform.imageRequests.active).toBe(0);
    expect((await sandbox.call('POST', '/v1/face/detect', { body: { image: FACE } })).status).toBe(200);
  });
});
