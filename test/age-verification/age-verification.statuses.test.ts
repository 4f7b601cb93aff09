/**
 * The refusals of the Parent Connect reads that no other test reaches: another organization's child
 * attestation (403, as for its Parent Connect request) and an id over 255 characters (400).
 */
import { describe, expect, it } from 'vitest';
import { CreateAgeVerificationResponseSchema, ParentConnectRequestSchema } from '../../src/age-verification/age-verification.schemas.ts';
import { KEYS, testSandbox, type TestSandbox } from '../helpers/sandbox.ts';

async function parentConnectRequest(sandbox: TestSandbox) {
  const created = await sandbox.call('POST', '/v1/age-verification', {
    body: { email: 'kid@example.com', firstName: 'Sam', lastName: 'Lee', phone: '+14155550123', method: 'parent-connect', ageBand: '13-17' },
  });
  expect(created.status, created.text).toBe(200);
  const link = CreateAgeVerificationResponseSchema.parse(created.body).links.find((entry) => entry.rel === 'parent_connect');
  const id = new URL(link?.href ?? '').pathname.split('/').at(-1) as string;
  return ParentConnectRequestSchema.parse((await sandbox.call('GET', `/v1/age-verification/parent-connect/${id}`)).body);
}

describe('Parent Connect reads: statuses', () => {
  it('answers 403 for the boundaries of another organization’s child attestation, and 200 to its own', async () => {
    const sandbox = await testSandbox();
    const request = await parentConnectRequest(sandbox);
    const path = `/v1/age-verification/boundaries/${request.child_attestation_id}`;

    const foreign = await sandbox.call('GET', path, { key: KEYS.other });
    expect(foreign.status).toBe(403);
    expect(foreign.body).toEqual({
      error: `The child attestation ${request.child_attestation_id} belongs to another organization's Parent Connect request: use an API key of the organization that created it.`,
    });

    const own = await sandbox.call('GET', path);
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({ child_attestation_id: request.child_attestation_id, parent_connect_id: request.id, parental_consent: false });
  });

  it('answers 400 naming the id for a Parent Connect id or child_session_id over 255 characters, and 404 for an id of 255', async () => {
    const sandbox = await testSandbox();
    const tooLong = await sandbox.call('GET', `/v1/age-verification/parent-connect/${'p'.repeat(256)}`);
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.error).toBe('Invalid request: path parameter id must be at most 255 characters long; got 256 characters.');
    expect((await sandbox.call('GET', `/v1/age-verification/parent-connect/${'p'.repeat(255)}`)).status).toBe(404);
    const longChild = await sandbox.call('GET', `/v1/age-verification/parent-connect?child_session_id=${'c'.repeat(256)}`);
    expect(longChild.status).toBe(400);
    expect(longChild.body.error).toBe('Invalid request: query parameter child_session_id must be at most 255 characters long; got 256 characters.');
  });
});
