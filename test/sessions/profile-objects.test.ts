/**
 * `user` and `sender_user` of GET /v1/sessions/{id} are profile objects: the spec's seven members, every
 * one present, `phone` null when unknown (not an optional record key that disappears).
 */
import { describe, expect, it } from 'vitest';
import { KEYS, testSandbox } from '../helpers/sandbox.ts';
import { SingleSessionResponseSchema } from '../../src/sessions/sessions.schemas.ts';

const PROFILE_MEMBERS = ['created_at', 'email', 'first_name', 'id', 'last_name', 'phone', 'updated_at'];

function expectProfile(profile: Record<string, unknown>, where: string): void {
  expect(Object.keys(profile).sort(), where).toEqual(PROFILE_MEMBERS);
  expect(profile.phone === null || (typeof profile.phone === 'string' && /^\+[1-9]\d{9,14}$/.test(profile.phone)), `${where}.phone`).toBe(true);
}

describe('profile objects of a session', () => {
  it('has phone null for an applicant who gave none, and the number for one who did', async () => {
    const sandbox = await testSandbox();
    const without = await sandbox.call('POST', '/v1/sessions', { body: { email: 'jane.doe@example.com', firstName: 'Jane', lastName: 'Doe' } });
    const withPhone = await sandbox.call('POST', '/v1/sessions', {
      body: { email: 'john.roe@example.com', firstName: 'John', lastName: 'Roe', phone: '+447700900001' },
    });
    const first = await sandbox.call('GET', `/v1/sessions/${without.body.id}`);
    const second = await sandbox.call('GET', `/v1/sessions/${withPhone.body.id}`);
    expect(SingleSessionResponseSchema.parse(first.body)).toEqual(first.body);
    expect(first.body.user.phone).toBeNull();
    expect(second.body.user.phone).toBe('+447700900001');
    for (const answer of [first, second]) {
      expectProfile(answer.body.user, 'user');
      expectProfile(answer.body.sender_user, 'sender_user');
    }
  });

  it('has all seven members on every sandbox-key session, fixture and derived alike', async () => {
    const sandbox = await testSandbox({ rateLimit: false });
    const ids = [
      'test_verified',
      'test_rejected',
      'test_submitted',
      'test_pending',
      'test_voided',
      'test_failed',
      ...Array.from({ length: 40 }, (_, i) => `any-id-${i}`),
    ];
    let nullPhones = 0;
    for (const id of ids) {
      const answer = await sandbox.call('GET', `/v1/sessions/${id}`, { key: KEYS.sandbox });
      expect(answer.status, id).toBe(200);
      expectProfile(answer.body.user, `${id} user`);
      expectProfile(answer.body.sender_user, `${id} sender_user`);
      if (answer.body.user.phone === null) nullPhones += 1;
    }
    // Some synthetic applicants have no phone: the case the profile object must still show.
    expect(nullPhones).toBeGreaterThan(0);
  });

  it('documents phone as required and nullable in /openapi.json', async () => {
    const sandbox = await testSandbox();
    const profile = (await sandbox.call('GET', '/openapi.json', { key: null })).body.components.schemas.UserProfile;
    expect([...profile.required].sort()).toEqual(PROFILE_MEMBERS);
    expect(profile.properties.phone.type).toEqual(['string', 'null']);
  });
});
