import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type AnalyzeBody, AnalyzeResponseSchema, ChallengeResponseSchema, UploadUrlsResponseSchema } from '../../src/deepfake/deepfake.schemas.ts';
import { challengeWordFor } from '../../src/deepfake/deepfake.service.ts';
import { FROZEN_AT, KEYS, testSandbox, type TestSandbox } from '../helpers/sandbox.ts';
import { fixture } from '../images/http-helpers.ts';

interface LiveScanFixture {
  frames: string[];
  frameMeta: AnalyzeBody['frameMeta'];
}

const SESSION = '5f0c1a52-8a44-4d7e-9b1c-2a6f3e9d8c71';
/** Six frames of person A and frame metadata that fits each action (the fixture the OpenAPI examples use too). */
const { frames: LIVE_FRAMES, frameMeta: GOOD_META } = JSON.parse(
  readFileSync(new URL('../../fixtures/deepfake-live-scan.json', import.meta.url), 'utf8'),
) as LiveScanFixture;

async function uploadUrls(sandbox: TestSandbox, includeAudio = false, sessionId = SESSION) {
  const response = await sandbox.call('POST', '/v1/deepfake/upload-urls', { body: { sessionId, includeAudio } });
  expect(response.status, response.text).toBe(200);
  return UploadUrlsResponseSchema.parse(response.body);
}

async function put(sandbox: TestSandbox, url: string, bytes: Uint8Array, contentType: string) {
  const target = new URL(url);
  const response = await sandbox.app.request(target.pathname + target.search, {
    method: 'PUT',
    headers: { 'content-type': contentType },
    body: bytes as Uint8Array<ArrayBuffer>,
  });
  expect(response.status, await response.text()).toBe(200);
}

/** Upload URLs, PUT the named fixtures as frames (and a clip), return the s3Keys to analyze. */
async function uploadScan(sandbox: TestSandbox, frames: readonly string[], options: { audio?: boolean; sessionId?: string } = {}) {
  const urls = await uploadUrls(sandbox, options.audio ?? false, options.sessionId);
  for (const [index, name] of frames.entries()) await put(sandbox, urls.uploadUrls[`frame_${index}`] as string, fixture(name), 'image/jpeg');
  if (options.audio) await put(sandbox, urls.uploadUrls.audio_clip as string, Buffer.from('fake mp4 audio'), 'audio/mp4');
  return urls.uploadKeys;
}

async function analyze(sandbox: TestSandbox, s3Keys: Record<string, string>, extra: Record<string, unknown> = {}, key: string = KEYS.live) {
  return sandbox.call('POST', '/v1/deepfake/analyze', { body: { scanDurationMs: 3500, frameMeta: GOOD_META, s3Keys, ...extra }, key });
}

describe('deepfake challenge', () => {
  it('gives a session three fixed words, the same on every read and for a sandbox key', async () => {
    const sandbox = await testSandbox();
    const first = await sandbox.call('GET', `/v1/deepfake/challenge/${SESSION}`);
    expect(first.status).toBe(200);
    const body = ChallengeResponseSchema.parse(first.body);
    expect(body.sessionId).toBe(SESSION);
    expect(body.challengeWord).toBe(challengeWordFor(42, 'org_demo', SESSION));
    expect(body.challengeWord.split(' ')).toHaveLength(3);
    expect((await sandbox.call('GET', `/v1/deepfake/challenge/${SESSION}`)).body).toEqual(first.body);
    expect((await sandbox.call('GET', `/v1/deepfake/challenge/${SESSION}`, { key: KEYS.sandbox })).status).toBe(200);
    const another = await sandbox.call('GET', '/v1/deepfake/challenge/0b6c4cf5-6c1e-4c53-8d3a-2f1f1b8f9b0e');
    expect(another.body.challengeWord).not.toBe(body.challengeWord);
  });

  it('refuses a session id that is not a UUID (400) and a session of another organization (403)', async () => {
    const sandbox = await testSandbox();
    const bad = await sandbox.call('GET', '/v1/deepfake/challenge/sess_abc123');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toContain('sessionId must be a UUID');
    const created = await sandbox.call('POST', '/v1/sessions', { body: { email: 'jane@example.com', firstName: 'Jane', lastName: 'Doe' }, key: KEYS.other });
    const foreign = await sandbox.call('GET', `/v1/deepfake/challenge/${created.body.id}`);
    expect(foreign.status).toBe(403);
    expect(foreign.body.error).toContain('another organization');
  });
});

describe('deepfake upload URLs', () => {
  it('presigns six frames, plus the audio clip only when asked', async () => {
    const sandbox = await testSandbox();
    const frames = await uploadUrls(sandbox);
    expect(Object.keys(frames.uploadUrls)).toEqual(['frame_0', 'frame_1', 'frame_2', 'frame_3', 'frame_4', 'frame_5']);
    expect(Object.keys(frames.uploadKeys)).toEqual(Object.keys(frames.uploadUrls));
    expect(frames.sessionId).toBe(SESSION);
    const withAudio = await uploadUrls(sandbox, true);
    expect(Object.keys(withAudio.uploadUrls)).toContain('audio_clip');
    expect(withAudio.uploadKeys.audio_clip).toMatch(/^uploads\//);
  });

  it('presigns the audio clip as audio/mp4 (the client’s documented type) by default, audio/webm when asked; another type is a 400', async () => {
    const sandbox = await testSandbox();
    const mp4 = await uploadUrls(sandbox, true);
    await put(sandbox, mp4.uploadUrls.audio_clip as string, Buffer.from('mp4 audio'), 'audio/mp4');
    const webm = await sandbox.call('POST', '/v1/deepfake/upload-urls', { body: { sessionId: SESSION, includeAudio: true, audioContentType: 'audio/webm' } });
    expect(webm.status).toBe(200);
    await put(sandbox, webm.body.uploadUrls.audio_clip as string, Buffer.from('webm audio'), 'audio/webm');
    const ogg = await sandbox.call('POST', '/v1/deepfake/upload-urls', { body: { sessionId: SESSION, includeAudio: true, audioContentType: 'audio/ogg' } });
    expect(ogg.status).toBe(400);
    expect(ogg.body.error).toContain('audioContentType must be one of audio/mp4, audio/webm');
  });

  it('names a missing includeAudio and an empty sessionId; sandbox keys cannot write', async () => {
    const sandbox = await testSandbox();
    const missing = await sandbox.call('POST', '/v1/deepfake/upload-urls', { body: { sessionId: SESSION } });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toContain('includeAudio is required');
    const empty = await sandbox.call('POST', '/v1/deepfake/upload-urls', { body: { sessionId: '', includeAudio: false } });
    expect(empty.status).toBe(400);
    expect(empty.body.error).toContain('sessionId must not be empty');
    expect((await sandbox.call('POST', '/v1/deepfake/upload-urls', { body: { sessionId: SESSION, includeAudio: false }, key: KEYS.sandbox })).status).toBe(403);
  });
});

describe('deepfake analyze', () => {
  it('judges six frames of one person with fitting metadata LIVE, from the pixels, and charges one token', async () => {
    const sandbox = await testSandbox();
    const keys = await uploadScan(sandbox, LIVE_FRAMES, { audio: true });
    const word = challengeWordFor(42, 'org_demo', SESSION);
    const response = await analyze(sandbox, keys, { challengeWord: word });
    expect(response.status, response.text).toBe(200);
    const body = AnalyzeResponseSchema.parse(response.body);
    expect(body).toMatchObject({
      success: true,
      passed: true,
      verdict: 'LIVE',
      trustVerdict: 'PASS',
      failureReasons: [],
      challengeWord: word,
      timestamp: FROZEN_AT,
    });
    expect(body.riskScore).toBeLessThan(35);
    expect(body.trustScore).toBeGreaterThanOrEqual(70);
    expect(body.details.degradedModules).toEqual([]);
    expect(Object.keys(body.details.layers).sort()).toEqual(['audio', 'challenge', 'consistency', 'metadata', 'motion', 'vision']);
    expect(response.headers.get('x-sandbox-explain')).toContain('deepfake LIVE');
    const balance = (await sandbox.call('GET', '/__sandbox/organizations', { key: null })).body.organizations.find(
      (org: { id: string }) => org.id === 'org_demo',
    ).balance;
    expect(balance).toBe(999);
  });

  it('lists challenge and audio as degraded when neither was sent', async () => {
    const sandbox = await testSandbox();
    const body = AnalyzeResponseSchema.parse((await analyze(sandbox, await uploadScan(sandbox, LIVE_FRAMES))).body);
    expect(body.verdict).toBe('LIVE');
    expect(body.details.degradedModules).toEqual(['challenge', 'audio']);
    expect(body).not.toHaveProperty('challengeWord');
  });

  it('calls one picture replayed in every frame a DEEPFAKE (STATIC_REPLAY)', async () => {
    const sandbox = await testSandbox();
    const body = AnalyzeResponseSchema.parse((await analyze(sandbox, await uploadScan(sandbox, Array(6).fill('face.jpg')))).body);
    expect(body).toMatchObject({ verdict: 'DEEPFAKE', trustVerdict: 'REJECT', passed: false });
    expect(body.failureReasons).toEqual(['STATIC_REPLAY']);
    expect(body.riskScore).toBeGreaterThanOrEqual(70);
  });

  it('calls another face in one frame a DEEPFAKE (IDENTITY_SWITCH)', async () => {
    const sandbox = await testSandbox();
    const frames = [...LIVE_FRAMES.slice(0, 5), 'different-face.jpg'];
    const body = AnalyzeResponseSchema.parse((await analyze(sandbox, await uploadScan(sandbox, frames))).body);
    expect(body.verdict).toBe('DEEPFAKE');
    expect(body.failureReasons).toContain('IDENTITY_SWITCH');
    expect(body.details.layers.consistency?.passed).toBe(false);
  });

  it('calls the wrong challenge words a DEEPFAKE (CHALLENGE_MISMATCH)', async () => {
    const sandbox = await testSandbox();
    const body = AnalyzeResponseSchema.parse((await analyze(sandbox, await uploadScan(sandbox, LIVE_FRAMES), { challengeWord: 'not the words' })).body);
    expect(body.verdict).toBe('DEEPFAKE');
    expect(body.failureReasons).toEqual(['CHALLENGE_MISMATCH']);
  });

  it('is INCONCLUSIVE with a blank frame, and with one action that does not fit its pose', async () => {
    const sandbox = await testSandbox();
    const blank = [...LIVE_FRAMES.slice(0, 5), 'blank.png'];
    const meta = GOOD_META.map((frame, index) => (index === 5 ? { ...frame, faceDetected: false } : frame));
    const noFace = AnalyzeResponseSchema.parse((await analyze(sandbox, await uploadScan(sandbox, blank), { frameMeta: meta })).body);
    expect(noFace).toMatchObject({ verdict: 'INCONCLUSIVE', trustVerdict: 'REVIEW', passed: false });
    expect(noFace.failureReasons).toEqual(['NO_FACE_IN_FRAMES']);

    const eyesOpen = GOOD_META.map((frame) => (frame.action === 'blink' ? { ...frame, leftEyeOpenness: 0.9, rightEyeOpenness: 0.9 } : frame));
    const mismatch = AnalyzeResponseSchema.parse((await analyze(sandbox, await uploadScan(sandbox, LIVE_FRAMES), { frameMeta: eyesOpen })).body);
    expect(mismatch.verdict).toBe('INCONCLUSIVE');
    expect(mismatch.failureReasons).toEqual(['ACTION_MISMATCH']);
    expect(mismatch.details.layers.metadata?.detail).toContain('blink with eyes open');
  });

  it('calls three frames whose pose contradicts the action a DEEPFAKE', async () => {
    const sandbox = await testSandbox();
    const wrong = GOOD_META.map((frame) =>
      frame.action.startsWith('turn') || frame.action === 'blink' ? { ...frame, yaw: 0, leftEyeOpenness: 0.9, rightEyeOpenness: 0.9 } : frame,
    );
    const body = AnalyzeResponseSchema.parse((await analyze(sandbox, await uploadScan(sandbox, LIVE_FRAMES), { frameMeta: wrong })).body);
    expect(body.verdict).toBe('DEEPFAKE');
    expect(body.failureReasons).toEqual(['ACTION_MISMATCH']);
  });

  it.each([
    ['sandbox live', 'LIVE', 'PASS', true],
    ['sandbox deepfake', 'DEEPFAKE', 'REJECT', false],
    ['Sandbox  Inconclusive', 'INCONCLUSIVE', 'REVIEW', false],
  ] as const)('magic challengeWord "%s" forces %s whatever the frames show', async (word, verdict, trustVerdict, passed) => {
    const sandbox = await testSandbox();
    const response = await analyze(sandbox, await uploadScan(sandbox, Array(6).fill('face.jpg')), { challengeWord: word });
    const body = AnalyzeResponseSchema.parse(response.body);
    expect(body).toMatchObject({ verdict, trustVerdict, passed });
    expect(response.headers.get('x-sandbox-explain')).toContain('magic value');
  });

  it('refuses five frames of metadata, keys of another organization, frames never uploaded, and an empty balance', async () => {
    const sandbox = await testSandbox();
    const keys = await uploadScan(sandbox, LIVE_FRAMES);
    const short = await analyze(sandbox, keys, { frameMeta: GOOD_META.slice(0, 5) });
    expect(short.status).toBe(400);
    expect(short.body.error).toContain('exactly 6 frames');
    const foreign = await analyze(sandbox, keys, {}, KEYS.other);
    expect(foreign.status).toBe(403);
    const empty = await uploadUrls(sandbox);
    const notUploaded = await analyze(sandbox, empty.uploadKeys);
    expect(notUploaded.status).toBe(403);
    expect(notUploaded.body.error).toContain('frame_0');
    expect(notUploaded.body.hints.join(' ')).toContain('Nothing was uploaded');
    const broke = await analyze(sandbox, keys, {}, KEYS.broke);
    expect(broke.status).toBe(402);
    const { frame_5: _omitted, ...fiveFrames } = keys;
    const missingFrame = await analyze(sandbox, fiveFrames);
    expect(missingFrame.status).toBe(400);
    expect(missingFrame.body.error).toContain('frame_5');
  });

  it('is deterministic: the same scan in a fresh sandbox gives a byte-identical answer', async () => {
    const run = async () => {
      const sandbox = await testSandbox();
      return (await analyze(sandbox, await uploadScan(sandbox, LIVE_FRAMES))).text;
    };
    expect(await run()).toBe(await run());
  });
});

describe('deepfake listing', () => {
  it('marks the three operations as the real client’s in /openapi.json and the catalog', async () => {
    const sandbox = await testSandbox();
    const document = (await sandbox.call('GET', '/openapi.json', { key: null })).body;
    for (const [path, method, clientMethod] of [
      ['/v1/deepfake/challenge/{sessionId}', 'get', 'deepfake.getChallenge'],
      ['/v1/deepfake/upload-urls', 'post', 'deepfake.createUploadUrls'],
      ['/v1/deepfake/analyze', 'post', 'deepfake.analyze'],
    ] as const) {
      const operation = document.paths[path][method];
      expect(operation['x-source']).toBe('real-client');
      expect(operation['x-client-method']).toBe(clientMethod);
      expect(operation.description).toContain('Not in the API spec');
    }
    const catalog = (await sandbox.call('GET', '/__sandbox/catalog', { key: null })).body;
    expect(
      catalog.clientOperations.filter((entry: { input: string }) => entry.input.startsWith('deepfake.')).map((entry: { endpoint: string }) => entry.endpoint),
    ).toEqual(['GET /v1/deepfake/challenge/{sessionId}', 'POST /v1/deepfake/upload-urls', 'POST /v1/deepfake/analyze']);
  });
});
