/**
 * DESIGN.md 'Determinism': same seed, same fixtures, same requests, frozen clock (and the secret pinned)
 * ⇒ byte-identical responses, ids included — across every area at once.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { testSandbox } from '../helpers/sandbox.ts';

const face = readFileSync(new URL('../../fixtures/images/face.jpg', import.meta.url)).toString('base64');
const passport = readFileSync(new URL('../../fixtures/images/passport.jpg', import.meta.url)).toString('base64');
const JANE = { firstName: 'Jane', lastName: 'Doe', email: 'jane.doe@example.com', phone: '+447700900001' };

async function transcript(seed: number): Promise<string> {
  // Signatures and page tokens come from the private secret, random per process unless pinned (DESIGN.md).
  const sandbox = await testSandbox({ seed, secret: 'determinism-test-secret', rateLimit: false });
  const out: string[] = [];
  const call = async (method: string, path: string, body?: unknown, headers?: Record<string, string>) => {
    const response = await sandbox.call(method, path, { body, headers });
    out.push(`${method} ${path} -> ${response.status} ${response.headers.get('x-sandbox-explain') ?? ''}\n${response.text}`);
    return response.body;
  };
  const session = await call('POST', '/v1/sessions', { ...JANE, redirect_url: 'https://example.com/done' });
  await call('POST', `/__sandbox/sessions/${session.id}/outcome`, { outcome: 'SUBMITTED' });
  await call('GET', `/v1/sessions/${session.id}`);
  await call('GET', '/v1/sessions?limit=5');
  await call('POST', '/v1/credit-check/hard', { ...JANE, uat: true });
  await call('POST', '/v1/financial', JANE);
  const job = await call('POST', '/v1/screening/adverse-media', { ...JANE, dateOfBirth: '1990-04-01' }, { 'idempotency-key': 'k-1' });
  sandbox.clock.advance(3000);
  await call('GET', `/v1/async-jobs/${job.jobId}`);
  await call('POST', '/v1/screening/pep-sanctions', { ...JANE, dateOfBirth: '1990-04-01' });
  await call('POST', '/v1/screening/phone-ownership', { ...JANE, sessionId: session.id });
  await call('POST', '/v1/screening/phone-trust', { phone: '+447700900003' });
  await call('POST', '/v1/upload/presign', { files: [{ contentType: 'image/jpeg', byteLength: 1000 }] });
  await call('POST', '/v1/face/compare', { source: face, target: passport });
  await call('POST', '/v1/document/scan', { image: passport, documentType: 'passport' });
  return out.join('\n\n');
}

describe('determinism across the whole API', () => {
  it('answers byte-identical transcripts for the same seed, and different ids for another seed', async () => {
    const first = await transcript(11);
    // Every step succeeded, so the comparison covers real answers, not error bodies.
    expect(first.match(/^\S+ \S+ -> \d{3}/gm)?.filter((line) => !/-> 20[0-9]$/.test(line))).toEqual([]);
    expect(await transcript(11)).toBe(first);
    const other = await transcript(12);
    expect(other).not.toBe(first);
  });
});
