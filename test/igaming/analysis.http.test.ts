/**
 * The real client's iGaming analyses over HTTP: injection signals, VPN detection and IP jurisdiction on
 * every magic range (IPv4 and IPv6), and anti-cheat verdicts from the shared face registry.
 */
import { describe, expect, it } from 'vitest';
import { AntiCheatResponseSchema, InjectionResponseSchema, IpCheckResponseSchema } from '../../src/igaming/igaming.schemas.ts';
import { JURISDICTION_RANGES, VPN_RANGES } from '../../src/igaming/ip-ranges.ts';
import { KEYS, testSandbox } from '../helpers/sandbox.ts';
import { FIXTURE_WORKFLOW_IDS } from '../../src/workflows/workflows.store.ts';
import { antiCheat, playerSession, SELFIES } from './helpers.ts';

const signal = (pass: boolean, score: number, signals: string[] = []) => ({ pass, score, signals });

describe('injection analysis', () => {
  it('HIT when a signal fails (pass false or score < 50), CLEAR when all pass, UNAVAILABLE without signals', async () => {
    const sandbox = await testSandbox();
    const cases: [Record<string, unknown>, unknown][] = [
      [
        { device_integrity: signal(true, 90), media_source: signal(false, 8, ['virtual_camera']) },
        { verdict: 'HIT', action: 'block', confidence: 92, escalation: { type: 'liveness-retry', check: 'injection-detection' } },
      ],
      [
        { frame_timing: signal(true, 30) },
        { verdict: 'HIT', action: 'block', confidence: 70, escalation: { type: 'liveness-retry', check: 'injection-detection' } },
      ],
      [
        { device_integrity: signal(true, 97), media_source: signal(true, 88), frame_timing: signal(true, 75) },
        { verdict: 'CLEAR', action: 'allow', confidence: 75, escalation: null },
      ],
      [{}, { verdict: 'UNAVAILABLE', action: 'manual-review', confidence: null, escalation: { type: 'liveness-retry', check: 'injection-detection' } }],
    ];
    for (const [signals, expected] of cases) {
      const answer = await sandbox.call('POST', '/v1/igaming/injection', { body: { session_id: 'sess-1', ...signals } });
      expect(answer.status).toBe(200);
      expect(InjectionResponseSchema.parse(answer.body)).toEqual(expected);
    }
  });

  it.each([
    [{}, 'session_id'],
    [{ session_id: 'a', media_source: { pass: 'yes', score: 5 } }, 'media_source.pass'],
    [{ session_id: 'a', frame_timing: { pass: true, score: 101 } }, 'frame_timing.score'],
    [{ session_id: 'a', deviceIntegrity: signal(true, 90) }, 'send device_integrity'],
  ])('refuses %j with a 400 naming %s', async (body, field) => {
    const sandbox = await testSandbox();
    const answer = await sandbox.call('POST', '/v1/igaming/injection', { body });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toContain(field);
  });
});

/** An address inside a CIDR range (the network address plus one). */
function inside(cidr: string): string {
  const network = cidr.split('/')[0] as string;
  // IPv6 networks here end in "::".
  return network.includes(':') ? `${network}7` : network.replace(/\.(\d+)$/, (_, last: string) => `.${Number(last) + 7}`);
}

describe('VPN detection', () => {
  it.each(VPN_RANGES.map((range) => [range.cidr, range.verdict, inside(range.cidr)] as const))(
    'magic range %s answers %s (%s)',
    async (_cidr, verdict, address) => {
      const sandbox = await testSandbox();
      const answer = await sandbox.call('POST', '/v1/igaming/vpn-detection', { body: { session_id: 'sess-1', ip_address: address } });
      expect(answer.status).toBe(200);
      const body = IpCheckResponseSchema.parse(answer.body);
      expect(body.verdict).toBe(verdict);
      expect(body.action).toBe({ HIT: 'block', CLEAR: 'allow', UNAVAILABLE: 'manual-review' }[verdict]);
      if (verdict === 'CLEAR') expect(body.escalation).toBeNull();
      else expect(body.escalation).toMatchObject({ decision: 'ESCALATE', type: 'address-verification' });
      expect(body.evidence).toMatchObject({ ip_address: address, ip_version: address.includes(':') ? 'ipv6' : 'ipv4' });
    },
  );

  it('a VPN exit is HIT with its evidence; private and loopback addresses are UNAVAILABLE; an ordinary address CLEAR; IPv4-mapped IPv6 is read as IPv4', async () => {
    const sandbox = await testSandbox();
    const vpn = await sandbox.call('POST', '/v1/igaming/vpn-detection', { body: { session_id: 's', ip_address: '198.51.100.7' } });
    expect(vpn.body).toEqual({
      verdict: 'HIT',
      action: 'block',
      evidence: { ip_address: '198.51.100.7', ip_version: 'ipv4', vpn: true, proxy: false, hosting: false, connection_type: 'vpn', provider: 'Sandbox VPN' },
      escalation: { decision: 'ESCALATE', type: 'address-verification', reason: expect.stringContaining('commercial VPN exit node') },
    });
    for (const address of ['10.1.2.3', '127.0.0.1', '::1', 'fd00::1', '192.168.0.10']) {
      expect((await sandbox.call('POST', '/v1/igaming/vpn-detection', { body: { session_id: 's', ip_address: address } })).body.verdict).toBe('UNAVAILABLE');
    }
    expect((await sandbox.call('POST', '/v1/igaming/vpn-detection', { body: { session_id: 's', ip_address: '8.8.8.8' } })).body.verdict).toBe('CLEAR');
    expect((await sandbox.call('POST', '/v1/igaming/vpn-detection', { body: { session_id: 's', ip_address: '::ffff:198.51.100.7' } })).body).toMatchObject({
      verdict: 'HIT',
      evidence: { ip_address: '198.51.100.7', ip_version: 'ipv4' },
    });
  });

  it.each(['999.1.1.1', 'not-an-ip', '', '2001:db8::zz'])('refuses ip_address %j with a 400', async (address) => {
    const sandbox = await testSandbox();
    const answer = await sandbox.call('POST', '/v1/igaming/vpn-detection', { body: { session_id: 's', ip_address: address } });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toContain('ip_address');
  });
});

describe('IP jurisdiction', () => {
  it.each(JURISDICTION_RANGES.map((range) => [range.cidr, range.country, inside(range.cidr)] as const))(
    'magic range %s (country %s)',
    async (_cidr, country, address) => {
      const sandbox = await testSandbox();
      const answer = await sandbox.call('POST', '/v1/igaming/ip-jurisdiction', { body: { session_id: 's', ip_address: address } });
      const body = IpCheckResponseSchema.parse(answer.body);
      const verdict = country === null ? 'UNAVAILABLE' : ['US', 'FR', 'AU'].includes(country) ? 'HIT' : 'CLEAR';
      expect(body.verdict).toBe(verdict);
      expect(body.evidence.country).toBe(country);
      expect(body.escalation === null).toBe(verdict === 'CLEAR');
    },
  );

  it('CLEAR for GB with evidence { country: GB }, HIT for the US over IPv6, and the same country for the same ordinary address', async () => {
    const sandbox = await testSandbox();
    expect((await sandbox.call('POST', '/v1/igaming/ip-jurisdiction', { body: { session_id: 's', ip_address: '203.0.113.5' } })).body).toEqual({
      verdict: 'CLEAR',
      action: 'allow',
      evidence: { ip_address: '203.0.113.5', ip_version: 'ipv4', country: 'GB', restricted: false },
      escalation: null,
    });
    expect((await sandbox.call('POST', '/v1/igaming/ip-jurisdiction', { body: { session_id: 's', ip_address: '2001:db8:2::42' } })).body).toMatchObject({
      verdict: 'HIT',
      action: 'block',
      escalation: { decision: 'ESCALATE', type: 'address-verification', reason: expect.stringContaining('US') },
    });
    const first = await sandbox.call('POST', '/v1/igaming/ip-jurisdiction', { body: { session_id: 's', ip_address: '81.2.69.160' } });
    const second = await sandbox.call('POST', '/v1/igaming/ip-jurisdiction', { body: { session_id: 'other', ip_address: '81.2.69.160' } });
    expect(first.body.verdict).toBe('CLEAR');
    expect(second.body).toEqual(first.body);
  });
});

describe('anti-cheat analyze', () => {
  it('UNIQUE, then DUPLICATE for the same face, UNAVAILABLE without a face, SELF_EXCLUSION once excluded; a repeat keeps the first registration; the body names no match', async () => {
    const sandbox = await testSandbox();
    const first = await antiCheat(sandbox, 'sess-1', SELFIES.personA);
    expect(first.status).toBe(200);
    expect(AntiCheatResponseSchema.parse(first.body)).toEqual({ verdict: 'UNIQUE', action: 'allow' });
    expect((await antiCheat(sandbox, 'sess-2', SELFIES.personB)).body).toMatchObject({ verdict: 'UNIQUE' });
    const duplicate = await antiCheat(sandbox, 'sess-3', SELFIES.personAWebp);
    expect(duplicate.body).toEqual({ verdict: 'DUPLICATE', action: 'manual-review' });
    const sess1 = await playerSession(sandbox, 'sess-1');
    expect(duplicate.headers.get('x-sandbox-explain')).toContain(`to the enrolment of session ${sess1}`);
    expect((await antiCheat(sandbox, 'sess-4', SELFIES.noFace)).body).toEqual({ verdict: 'UNAVAILABLE', action: 'allow' });
    expect((await antiCheat(sandbox, 'sess-1', SELFIES.personB)).body).toEqual(first.body);

    await sandbox.call('POST', '/v1/igaming/self-exclusion/face', { body: { session_id: sess1 } });
    expect((await antiCheat(sandbox, 'sess-1', SELFIES.personA)).body).toEqual({ verdict: 'SELF_EXCLUSION', action: 'block' });
    const excluded = await antiCheat(sandbox, 'sess-5', SELFIES.personAPng);
    expect(excluded.body).toEqual({ verdict: 'SELF_EXCLUSION', action: 'block' });
    expect(excluded.headers.get('x-sandbox-explain')).toContain(`the face of session ${sess1} is self-excluded`);
  });

  it('uses the face-compare threshold: what face compare calls a match, the registry calls a duplicate', async () => {
    const sandbox = await testSandbox();
    const compare = await sandbox.call('POST', '/v1/face/compare', { body: { source: SELFIES.personA, target: SELFIES.personAWebp } });
    const other = await sandbox.call('POST', '/v1/face/compare', { body: { source: SELFIES.personA, target: SELFIES.personB } });
    expect([compare.body.isMatch, other.body.isMatch]).toEqual([true, false]);
    await antiCheat(sandbox, 'a', SELFIES.personA);
    const matched = await antiCheat(sandbox, 'b', SELFIES.personAWebp);
    expect(matched.body.verdict).toBe('DUPLICATE');
    expect(matched.headers.get('x-sandbox-explain')).toContain(`similarity ${compare.body.confidence} to the enrolment`);
    expect((await antiCheat(sandbox, 'c', SELFIES.personB)).body.verdict).toBe('UNIQUE');
  });

  it('fails soft: an undecodable image, a terminal session and a workflow without anti-cheat answer 200 UNAVAILABLE allow and enrol nothing', async () => {
    const sandbox = await testSandbox();
    const bad = await antiCheat(sandbox, 'bad-image', 'aGVsbG8gd29ybGQ=');
    expect(bad.status).toBe(200);
    expect(bad.body).toEqual({ verdict: 'UNAVAILABLE', action: 'allow' });
    const terminal = await playerSession(sandbox, 'terminal');
    await sandbox.call('POST', `/__sandbox/sessions/${terminal}/outcome`, { key: null, body: { outcome: 'VERIFIED' } });
    expect((await antiCheat(sandbox, terminal, SELFIES.personA)).body).toEqual({ verdict: 'UNAVAILABLE', action: 'allow' });
    const configured = await sandbox.call('POST', '/v1/sessions', {
      body: { first_name: 'Vpn', last_name: 'Only', email: 'vpn@example.com', workflow_id: FIXTURE_WORKFLOW_IDS.vpnCheckOnly },
    });
    expect(configured.status, configured.text).toBe(200);
    const unconfigured = await antiCheat(sandbox, configured.body.id, SELFIES.personA);
    expect(unconfigured.body).toEqual({ verdict: 'UNAVAILABLE', action: 'allow' });
    expect(unconfigured.headers.get('x-sandbox-explain')).toMatch(/does not run anti-cheat/);
    // Nothing was enrolled by any of them: person A is still new.
    expect((await antiCheat(sandbox, 'fresh', SELFIES.personAPng)).body.verdict).toBe('UNIQUE');
  });

  it('404 Session not found for an unknown session and another organization’s, enrolling nothing; 400 for a bad body; 403 for a sandbox key or a missing key', async () => {
    const sandbox = await testSandbox();
    const unknown = await sandbox.call('POST', '/v1/igaming/anti-cheat', { body: { session_id: 'no-such-session', image: SELFIES.personA } });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toBe('Session not found');
    const theirs = await playerSession(sandbox, 'theirs', KEYS.other);
    expect((await sandbox.call('POST', '/v1/igaming/anti-cheat', { body: { session_id: theirs, image: SELFIES.personA } })).status).toBe(404);
    expect((await antiCheat(sandbox, 'mine', SELFIES.personAPng)).body.verdict).toBe('UNIQUE');
    for (const body of [{ session_id: 's' }, { session_id: 's', image: '' }, { image: SELFIES.personA }]) {
      const answer = await sandbox.call('POST', '/v1/igaming/anti-cheat', { body });
      expect(answer.status, JSON.stringify(body).slice(0, 60)).toBe(400);
      expect(typeof answer.body.error).toBe('string');
    }
    const mine = await playerSession(sandbox, 'mine');
    for (const key of [KEYS.sandbox, null]) {
      expect((await sandbox.call('POST', '/v1/igaming/anti-cheat', { body: { session_id: mine, image: SELFIES.personA }, key })).status).toBe(403);
    }
    expect((await antiCheat(sandbox, 'theirs', SELFIES.personA, { key: KEYS.other })).body.verdict).toBe('UNIQUE');
  });
});

describe('VPN detection and IP jurisdiction on a session whose workflow does not run them', () => {
  it('answers UNAVAILABLE allow with evidence.reason step-not-configured; the configured check runs', async () => {
    const sandbox = await testSandbox();
    const session = await sandbox.call('POST', '/v1/sessions', {
      body: { first_name: 'Vpn', last_name: 'Only', email: 'vpn@example.com', workflow_id: FIXTURE_WORKFLOW_IDS.vpnCheckOnly },
    });
    const body = { session_id: session.body.id, ip_address: '203.0.113.7' };
    const jurisdiction = await sandbox.call('POST', '/v1/igaming/ip-jurisdiction', { body });
    expect(jurisdiction.status).toBe(200);
    expect(jurisdiction.body).toEqual({ verdict: 'UNAVAILABLE', action: 'allow', evidence: { reason: 'step-not-configured' }, escalation: null });
    const vpn = await sandbox.call('POST', '/v1/igaming/vpn-detection', { body });
    expect(vpn.body.evidence.reason).toBeUndefined();
    expect(vpn.body.verdict).not.toBe('UNAVAILABLE');
  });
});
