import { describe, expect, it } from 'vitest';
import { decodeImage, holdDefaultImageDecoder } from '../../src/images/image-decoding.ts';
import { ImageInputError } from '../../src/images/image-input-error.ts';
import { fixture } from './http-helpers.ts';

// Alone in its file: no sandbox here holds the process-wide decoder, so the counts below are exact.
describe('the process-wide decoder held by sandboxes', () => {
  it('keeps the pool while any holder remains, and stops it (in-flight decodes fail as 400 errors) when the last one lets go', async () => {
    const releaseA = holdDefaultImageDecoder();
    const releaseB = holdDefaultImageDecoder();
    // decodeImage hands the job to a worker synchronously, so it is in flight before the release.
    const survives = decodeImage(fixture('face.png'));
    await releaseA();
    await releaseA(); // releasing twice counts once
    expect((await survives).format).toBe('png');

    const interrupted = decodeImage(fixture('face.jpg')).then(
      () => 'decoded',
      (error: unknown) => (error instanceof ImageInputError ? `${error.status} ${error.kind}` : String(error)),
    );
    await releaseB();
    expect(await interrupted).toBe('400 undecodable');

    // The next decode starts a new pool.
    expect((await decodeImage(fixture('face.gif'))).format).toBe('gif');
    await holdDefaultImageDecoder()();
  });
});
