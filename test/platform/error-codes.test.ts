/**
 * The platform's error codes: each code's status comes from one map, and a message that states a limit
 * states the limit the sandbox was configured with, not the spec's default.
 */
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/platform/errors/api-error.ts';
import { codedError, defineErrorCodes } from '../../src/platform/errors/error-codes.ts';
import { SESSIONS_ERROR_CODES } from '../../src/sessions/sessions.errors.ts';
import { testSandbox } from '../helpers/sandbox.ts';

describe('429 messages read the configured limits', () => {
  it('states the configured daily quota', async () => {
    const sandbox = await testSandbox({ rateLimits: { dailyQuota: 2 } });
    for (let i = 0; i < 2; i++) expect((await sandbox.call('GET', '/v1/auth/verify')).status).toBe(200);
    const over = await sandbox.call('GET', '/v1/auth/verify');
    expect(over.status).toBe(429);
    expect(over.body.error).toBe(`Daily request quota exceeded (2 per key, reset at 00:00 UTC). Retry after ${over.headers.get('retry-after')} s.`);
  });

  it('states the configured rate and burst', async () => {
    const sandbox = await testSandbox({ rateLimits: { perSecond: 1, burst: 2 } });
    for (let i = 0; i < 2; i++) expect((await sandbox.call('GET', '/v1/auth/verify')).status).toBe(200);
    const over = await sandbox.call('GET', '/v1/auth/verify');
    expect(over.status).toBe(429);
    expect(over.body.error).toBe('Rate limit exceeded: 1 request per second per key (burst 2). Retry after 1 s.');
  });

  it("states each configured limit and the spec's default for the others", async () => {
    const sandbox = await testSandbox({ rateLimits: { dailyQuota: 10_000, burst: 1 } });
    await sandbox.call('GET', '/v1/auth/verify');
    const over = await sandbox.call('GET', '/v1/auth/verify');
    expect(over.body.error).toBe('Rate limit exceeded: 25 requests per second per key (burst 1). Retry after 1 s.');
  });
});

describe('a row of the map shapes the body', () => {
  const CODES = defineErrorCodes({
    PLAIN: { status: 404, message: ({ id }: { id: string }) => `Thing ${id} was not found.` },
    NAMED: { status: 429, bodyCode: 'member', message: () => 'Quota exceeded.' },
    IN_ERROR: { status: 409, bodyCode: 'error', message: () => 'It expired: create a new one.' },
    TERSE: { status: 404, message: () => 'Session not found', detail: ({ id }: { id: string }) => `Session ${id} is not yours.` },
  });

  it('answers the sentence alone, the code as `code`, or the code as `error` with the sentence as `message`', () => {
    const plain = codedError(CODES, 'PLAIN', { id: 'x1' });
    expect([plain.status, plain.message, plain.extras]).toEqual([404, 'Thing x1 was not found.', {}]);
    // The code comes first, then what the call adds (AML's quota fields).
    const named = codedError(CODES, 'NAMED', {}, { used: 3 }, { 'Retry-After': '5' });
    expect([named.status, named.message, JSON.stringify(named.extras), named.headers]).toEqual([
      429,
      'Quota exceeded.',
      '{"code":"NAMED","used":3}',
      { 'Retry-After': '5' },
    ]);
    const inError = codedError(CODES, 'IN_ERROR', {});
    expect([inError.status, inError.message, JSON.stringify(inError.extras)]).toEqual([
      409,
      'IN_ERROR',
      '{"message":"It expired: create a new one.","code":"IN_ERROR"}',
    ]);
    expect(codedError(CODES, 'TERSE', { id: 's9' }).extras).toEqual({ detail: 'Session s9 is not yours.' });
  });

  it('says the same error about a field: status, extras, headers and reasons kept, the sentence prefixed', () => {
    const original = new ApiError(403, 'The storage key is not readable.', { hint: 'presign' }, { 'X-A': '1' });
    original.explanations.push('looked for the key');
    const about = original.aboutField('s3Keys.audio_clip', { hints: [] });
    expect([about.status, about.message, about.extras, about.headers, about.explanations]).toEqual([
      403,
      's3Keys.audio_clip: The storage key is not readable.',
      { hint: 'presign', hints: [] },
      { 'X-A': '1' },
      ['looked for the key'],
    ]);
  });

  it('states the hosted page upload limit from the limit it is given', () => {
    const message = SESSIONS_ERROR_CODES.HOSTED_FILE_TOO_LARGE.message({ label: 'your file a.jpg', bytes: 3_000_000, maxBytes: 2 * 1_048_576 });
    expect(message).toBe('your file a.jpg has 3000000 bytes: a file may have at most 2097152 (2 MB).');
  });
});
