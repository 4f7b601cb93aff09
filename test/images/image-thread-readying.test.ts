import { describe, expect, it } from 'vitest';
import { imagesDoneOnThreads, imageThreadsRunning } from '../../src/images/image-decoding.ts';
import { testSandbox } from '../helpers/sandbox.ts';
import { expectImageError, fixture } from './http-helpers.ts';

describe('image threads readied as image requests arrive', () => {
  it('an image request starts a thread before its body is read, and the first images wait for that thread rather than start another', async () => {
    const sandbox = await testSandbox({ rateLimit: false });
    expect(imageThreadsRunning()).toBe(0);

    // Refused for its body, which is read after the thread was asked for: the thread starts all the same.
    const refused = await sandbox.call('POST', '/v1/face/detect', { body: { image: 'not a picture' } });
    expectImageError(refused, 400, /image/);
    expect(imageThreadsRunning()).toBe(1);
    expect(imagesDoneOnThreads()).toBe(0);

    // Two images at once while that thread starts: sent to the pool before it is ready, either would start a
    // second thread (the pool runs up to one per core).
    const compared = await sandbox.call('POST', '/v1/face/compare', {
      body: { source: fixture('face.jpg').toString('base64'), target: fixture('different-face.jpg').toString('base64') },
    });
    expect(compared.status, compared.text).toBe(200);
    expect(imagesDoneOnThreads()).toBe(2);
    expect(imageThreadsRunning()).toBe(1);
  });
});
