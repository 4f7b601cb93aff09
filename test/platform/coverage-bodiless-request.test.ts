/**
 * Coverage reads a request's body only when one came. Many clients send `content-type: application/json` on
 * every call, GETs too: recording such a GET must not read its (absent) body, which on the server made the
 * Node adapter build a full Request per call (twice a read's CPU, and finalizer bursts after each full
 * collection that held the server for 30-120 ms).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { KEYS, type TestSandbox, testSandbox } from '../helpers/sandbox.ts';

/** A request that counts how often its body is read as text (what a JSON body's coverage reads). */
function countingRequest(url: string, init: RequestInit): Request & { reads: number } {
  const request = Object.assign(new Request(url, init), { reads: 0 });
  const text = request.text.bind(request);
  Object.defineProperty(request, 'text', {
    value: () => {
      request.reads += 1;
      return text();
    },
  });
  return request;
}

let sandbox: TestSandbox | undefined;
afterEach(async () => {
  await sandbox?.closeNow();
  sandbox = undefined;
});

describe('coverage of a request without a body', () => {
  it('records a GET sent with a JSON content type without reading a body', async () => {
    sandbox = await testSandbox();
    const headers = { 'x-api-key': KEYS.sandbox, 'content-type': 'application/json' };
    const read = countingRequest('http://localhost/v1/sessions/test_verified', { headers });
    const answer = await sandbox.app.request(read);
    expect(answer.status).toBe(200);
    expect(read.reads).toBe(0);
    // Recorded all the same: the answer's status and its test identifier.
    const hits = (await sandbox.coverage()).hit.map((hit) => hit.id);
    expect(hits).toEqual(expect.arrayContaining(['status GET /v1/sessions/{id} 200', 'test-identifier GET /v1/sessions/{id} test_verified']));
  });
});
