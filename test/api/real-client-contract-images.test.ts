/**
 * Independent contract check (2/3): document scan, face detect / compare / estimate-age, identity
 * verify (all through the client's presign → PUT → file-key flow of facts §3a) and face liveness, parsed
 * with schemas written from real-client-facts.md alone (test/api/real-client/).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { KEYS, testSandbox } from '../helpers/sandbox.ts';
import { RealClient, sdkErrorOf } from './real-client/client.ts';
import { operationCoverage } from './real-client/coverage.ts';
import { FaceDetectResponseSchema } from './real-client/schemas.ts';

const fixtureCache = new Map<string, Buffer>();
function fixture(name: string): Buffer {
  let bytes = fixtureCache.get(name);
  if (!bytes) {
    bytes = readFileSync(new URL(`../../fixtures/images/${name}`, import.meta.url));
    fixtureCache.set(name, bytes);
  }
  return bytes;
}

/** The fixtures the client can send (it uploads JPEG and PNG only). */
const FACES = ['face.jpg', 'face.png', 'face-cropped.jpg', 'different-face.jpg'] as const;
const DOCUMENTS = ['passport.jpg', 'drivers-license.jpg', 'national-id.jpg'] as const;

const { track } = operationCoverage([
  'document.scan',
  'face.compare',
  'face.createLivenessSession',
  'face.detect',
  'face.estimateAge',
  'face.getLivenessResult',
  'identity.verify',
  'upload.presign',
  'upload.put',
]);

async function liveClient(key: string = KEYS.live) {
  const sandbox = await testSandbox({ rateLimit: false });
  return { sandbox, client: track(new RealClient(sandbox, key)) };
}

describe('the real client reads every image-operation answer', () => {
  it('document.scan: each document in auto and explicit types, and an unreadable picture', async () => {
    const { client } = await liveClient();
    const passport = await client.document.scan({ image: fixture('passport.jpg') });
    expect(passport.data.documentType).toBe('passport');
    expect(typeof passport.data.mrzData).toBe('string');
    expect((await client.document.scan({ image: fixture('drivers-license.jpg') })).data.documentType).toBe('drivers_license');
    for (const documentType of ['passport', 'drivers_license', 'national_id', 'auto'] as const) {
      for (const name of DOCUMENTS) await client.document.scan({ image: fixture(name), documentType });
    }
    const blank = await client.document.scan({ image: fixture('blank.png') });
    expect(blank.data.confidence).toBe(0);
    expect(blank.data.rawFields).toEqual({});
    // A face photo scanned as a document still parses.
    await client.document.scan({ image: fixture('face.jpg'), documentType: 'national_id' });
  });

  it('face.detect and face.estimateAge: faces, documents and a picture without a face', async () => {
    const { client } = await liveClient();
    for (const name of [...FACES, ...DOCUMENTS]) {
      const detected = await client.face.detect({ image: fixture(name) });
      expect(detected.data.faceDetected, name).toBe(true);
      expect(detected.data.boundingBox, name).toBeDefined();
      const age = await client.face.estimateAge({ image: fixture(name) });
      expect(age.data.faceDetected, name).toBe(true);
      expect(Number.isInteger(age.data.estimatedAge), name).toBe(true);
    }
    const noFace = await client.face.detect({ image: fixture('blank.png') });
    expect(noFace.data).toEqual({ faceDetected: false, confidence: 0 });
    expect(noFace.raw).not.toHaveProperty('boundingBox');
    const noAge = await client.face.estimateAge({ image: fixture('blank.png') });
    expect(noAge.raw).toEqual({ faceDetected: false });
  });

  it('face.compare: a match, a mismatch and every no-face row', async () => {
    const { client } = await liveClient();
    const match = await client.face.compare({ source: fixture('face.jpg'), target: fixture('passport.jpg') });
    expect(match.data.isMatch).toBe(true);
    const mismatch = await client.face.compare({ source: fixture('face.jpg'), target: fixture('different-face.jpg') });
    expect(mismatch.data.isMatch).toBe(false);
    const rows = [
      [fixture('blank.png'), fixture('face.jpg'), false, true],
      [fixture('face.jpg'), fixture('blank.png'), true, false],
      [fixture('blank.png'), fixture('blank.png'), false, false],
    ] as const;
    for (const [source, target, sourceFaceDetected, targetFaceDetected] of rows) {
      const answer = await client.face.compare({ source, target });
      expect(answer.data).toMatchObject({ isMatch: false, confidence: 0, sourceFaceDetected, targetFaceDetected });
    }
  });

  it('identity.verify: verified, the other person, an unreadable document, with and without documentType', async () => {
    const { client } = await liveClient();
    const verified = await client.identity.verify({ documentImage: fixture('passport.jpg'), faceImage: fixture('face.jpg') });
    expect(verified.data.verified).toBe(true);
    const typed = await client.identity.verify({
      documentImage: fixture('drivers-license.jpg'),
      faceImage: fixture('different-face.jpg'),
      documentType: 'drivers_license',
    });
    expect(typed.data.verified).toBe(true);
    const other = await client.identity.verify({
      documentImage: fixture('national-id.jpg'),
      faceImage: fixture('different-face.jpg'),
      documentType: 'national_id',
    });
    expect(other.data.faceMatch.isMatch).toBe(false);
    const unreadable = await client.identity.verify({ documentImage: fixture('blank.png'), faceImage: fixture('blank.png') });
    expect(unreadable.data.verified).toBe(false);
  });

  it('presign returns exactly one upload per file, in request order, each accepting the unauthenticated PUT', async () => {
    const { client } = await liveClient();
    const files = [fixture('face.jpg'), fixture('face.png'), fixture('blank.png'), fixture('passport.jpg'), fixture('different-face.jpg')];
    const keys = await client.upload(files);
    expect(keys).toHaveLength(files.length);
    expect(new Set(keys).size).toBe(files.length);
    const puts = client.exchanges.filter((exchange) => exchange.operation === 'upload.put');
    expect(puts.map((put) => put.status)).toEqual([200, 200, 200, 200, 200]);
    expect(puts.map((put) => put.path).sort()).toEqual(keys.map((key) => `/${key}`).sort());
    // Each key is usable where the client sends it.
    const detected = await client.request({
      operation: 'face.detect',
      method: 'POST',
      path: '/v1/face/detect',
      body: { image: keys[2] },
      schema: FaceDetectResponseSchema,
    });
    expect(detected.data.faceDetected).toBe(false);
  });

  it('a sandbox key is refused on presign with the class the client maps 403 to', async () => {
    const { client } = await liveClient(KEYS.sandbox);
    const refused = await sdkErrorOf(client.face.detect({ image: fixture('face.jpg') }));
    expect([refused.className, refused.status]).toEqual(['AuthorizationError', 403]);
  });
});

describe('the real client reads every face-liveness answer', () => {
  it('createLivenessSession with {} and with both keys; results IN_PROGRESS, SUCCEEDED and every magic session_id', async () => {
    const { sandbox, client } = await liveClient();
    const plain = await client.face.createLivenessSession();
    const typed = await client.face.createLivenessSession({ sessionId: 'sess/abc 123', challengeType: 'FaceMovementAndLightChallenge' });
    const magic = {
      failed: (await client.face.createLivenessSession({ sessionId: 'test_liveness_failed' })).data.liveness_session_id,
      spoof: (await client.face.createLivenessSession({ sessionId: 'test_liveness_spoof', challengeType: 'FaceMovementChallenge' })).data.liveness_session_id,
      pending: (await client.face.createLivenessSession({ sessionId: 'test_liveness_pending' })).data.liveness_session_id,
    };
    expect((await client.face.getLivenessResult(plain.data.liveness_session_id)).data).toEqual({ status: 'IN_PROGRESS', passed: false });
    sandbox.clock.advance(5_000);
    const done = await client.face.getLivenessResult(plain.data.liveness_session_id, { confidenceThreshold: 100 });
    expect(done.data.status).toBe('SUCCEEDED');
    expect(done.data.passed).toBe(false);
    const withSession = await client.face.getLivenessResult(typed.data.liveness_session_id, { sessionId: 'sess/abc 123', confidenceThreshold: 1 });
    expect(withSession.data.passed).toBe(true);
    expect((await client.face.getLivenessResult(magic.failed)).data).toEqual({ status: 'FAILED', passed: false });
    expect((await client.face.getLivenessResult(magic.spoof)).data).toEqual({ status: 'SUCCEEDED', confidence: 12.5, passed: false });
    expect((await client.face.getLivenessResult(magic.pending)).data.status).toBe('IN_PROGRESS');
    sandbox.clock.advance(15 * 60_000);
    expect((await client.face.getLivenessResult(magic.pending)).data.status).toBe('FAILED');
    // A sandbox key reads a synthetic result for any id, including one that needs encoding.
    const sandboxClient = track(new RealClient(sandbox, KEYS.sandbox));
    expect((await sandboxClient.face.getLivenessResult('live-1/a b')).data.status).toBe('SUCCEEDED');
    expect((await sandboxClient.face.getLivenessResult('live-1', { sessionId: 'test_liveness_failed' })).data.status).toBe('FAILED');
  });
});
