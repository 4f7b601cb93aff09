/**
 * The iGaming analyses of the real client (real-client-facts §6.12; not in the spec): camera-injection
 * analysis from the client's capture signals, VPN detection and IP jurisdiction from the address tables
 * of ip-ranges.ts, and anti-cheat analyze, which offers the selfie to the shared face registry (the one
 * the self-exclusion area reads) and reports what it found.
 *
 * Rules (the catalog lists them; docs/reference.md's magic-value table is generated from it):
 * - Injection: a signal fails when `pass` is false or its score is below INJECTION_PASS_SCORE. Any failing
 *   signal → HIT (block), confidence 100 minus the lowest failing score; all sent signals passing →
 *   CLEAR (allow), confidence the lowest score; no signal sent → UNAVAILABLE (manual-review), confidence
 *   null. HIT and UNAVAILABLE escalate to a liveness retry.
 * - VPN detection and IP jurisdiction: see ip-ranges.ts. HIT → block and UNAVAILABLE → manual-review,
 *   both with an escalation to address verification; CLEAR → allow, no escalation. An IPv4-mapped IPv6
 *   address (::ffff:a.b.c.d) is looked up as its IPv4 address.
 * - Anti-cheat: no face in the selfie → UNAVAILABLE (flag, nothing enrolled); the face resolves to a
 *   self-excluded enrolment → SELF_EXCLUSION (block); it matched another session's enrolment →
 *   DUPLICATE (manual-review); else it was enrolled → UNIQUE (allow). Analyzing a session again returns
 *   its first registration, with the exclusion as it stands now.
 *
 * LIMITATIONS:
 * - Session ids are not checked against the sessions area: operators may send their own gaming
 *   session references, as the real client allows any string.
 * - Not billed: the real client's documentation prices none of these operations.
 */
import { ApiError } from '../platform/errors/api-error.ts';
import type { World } from '../platform/namespaces/world.ts';
import type { AnalysedImage } from '../images/image-analysis.ts';
import { registerAnalysedFace } from '../face-registry/face-registry.ts';
import type { Explained } from '../platform/http/explained.ts';
import { INJECTION_SIGNALS, type AntiCheatResponse, type InjectionBody, type InjectionResponse, type IpCheckResponse } from './igaming.schemas.ts';
import { firstRange, ipFamily, isNonPublic, JURISDICTION_RANGES, ordinaryCountry, RESTRICTED_JURISDICTIONS, VPN_RANGES, type IpFamily } from './ip-ranges.ts';
import { round } from '../platform/numbers.ts';

/** A capture signal scoring below this fails, even when its `pass` says true. */
export const INJECTION_PASS_SCORE = 50;

export const INJECTION_ESCALATION_TYPE = 'liveness-retry';
export const ADDRESS_ESCALATION_TYPE = 'address-verification';

const ACTIONS = { HIT: 'block', CLEAR: 'allow', UNAVAILABLE: 'manual-review' } as const;

// ─── POST /v1/igaming/injection ─────────────────────────────────────────────────────────────────────

export function analyzeInjection(body: InjectionBody): Explained<InjectionResponse> {
  const sent = INJECTION_SIGNALS.flatMap((name) => (body[name] === undefined ? [] : [{ name, ...body[name] }]));
  if (sent.length === 0) {
    return {
      value: {
        verdict: 'UNAVAILABLE',
        action: ACTIONS.UNAVAILABLE,
        confidence: null,
        escalation: { type: INJECTION_ESCALATION_TYPE, check: 'injection-detection' },
      },
      explanations: ['no capture signal sent (device_integrity, media_source, frame_timing) -> UNAVAILABLE'],
    };
  }
  const failing = sent.filter((s) => !s.pass || s.score < INJECTION_PASS_SCORE);
  if (failing.length > 0) {
    const lowest = Math.min(...failing.map((s) => s.score));
    return {
      value: {
        verdict: 'HIT',
        action: ACTIONS.HIT,
        confidence: round(100 - lowest, 2),
        escalation: { type: INJECTION_ESCALATION_TYPE, check: 'injection-detection' },
      },
      explanations: [`failing signal(s) ${failing.map((s) => `${s.name} (pass ${s.pass}, score ${s.score})`).join(', ')} -> HIT`],
    };
  }
  const lowest = Math.min(...sent.map((s) => s.score));
  return {
    value: { verdict: 'CLEAR', action: ACTIONS.CLEAR, confidence: lowest, escalation: null },
    explanations: [`all ${sent.length} signal(s) pass with score >= ${INJECTION_PASS_SCORE} -> CLEAR`],
  };
}

// ─── VPN detection and IP jurisdiction ──────────────────────────────────────────────────────────────

interface LookedUpAddress {
  address: string;
  family: IpFamily;
}

function lookUpAddress(raw: string): LookedUpAddress {
  const family = ipFamily(raw);
  if (family === undefined) {
    throw new ApiError(
      400,
      `Invalid request: body field "ip_address" must be an IPv4 or IPv6 address such as 203.0.113.7 or 2001:db8:1::7; got ${JSON.stringify(raw.slice(0, 64))}.`,
    );
  }
  const mapped = family === 'ipv6' ? /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(raw)?.[1] : undefined;
  return mapped === undefined ? { address: raw, family } : { address: mapped, family: 'ipv4' };
}

function addressEscalation(reason: string) {
  return { decision: 'ESCALATE' as const, type: ADDRESS_ESCALATION_TYPE, reason };
}

export function detectVpn(rawAddress: string): Explained<IpCheckResponse> {
  const { address, family } = lookUpAddress(rawAddress);
  const evidence = { ip_address: address, ip_version: family };
  if (isNonPublic(address, family)) {
    return {
      value: {
        verdict: 'UNAVAILABLE',
        action: ACTIONS.UNAVAILABLE,
        evidence: { ...evidence, connection_type: 'unknown' },
        escalation: addressEscalation(`${address} is not a public address: no VPN lookup is possible`),
      },
      explanations: [`${address} is not public (private, loopback, link-local or reserved) -> UNAVAILABLE`],
    };
  }
  const range = firstRange(VPN_RANGES, address, family);
  if (range === undefined || range.verdict === 'CLEAR') {
    return {
      value: { verdict: 'CLEAR', action: ACTIONS.CLEAR, evidence: { ...evidence, vpn: false, proxy: false, connection_type: 'residential' }, escalation: null },
      explanations: [range === undefined ? `${address}: ordinary public address -> CLEAR` : `magic range ${range.cidr} (${range.label}) -> CLEAR`],
    };
  }
  if (range.verdict === 'UNAVAILABLE') {
    return {
      value: {
        verdict: 'UNAVAILABLE',
        action: ACTIONS.UNAVAILABLE,
        evidence: { ...evidence, connection_type: 'unknown' },
        escalation: addressEscalation("The VPN intelligence provider did not answer: confirm the player's address another way"),
      },
      explanations: [`magic range ${range.cidr} (${range.label}) -> UNAVAILABLE`],
    };
  }
  return {
    value: {
      verdict: 'HIT',
      action: ACTIONS.HIT,
      evidence: {
        ...evidence,
        vpn: range.connection === 'vpn',
        proxy: false,
        hosting: range.connection === 'hosting',
        connection_type: range.connection,
        ...(range.provider === undefined ? {} : { provider: range.provider }),
      },
      escalation: addressEscalation(`${address} belongs to a ${range.label}: the player's location cannot be trusted`),
    },
    explanations: [`magic range ${range.cidr} (${range.label}) -> HIT`],
  };
}

export function checkIpJurisdiction(rawAddress: string): Explained<IpCheckResponse> {
  const { address, family } = lookUpAddress(rawAddress);
  const evidence = { ip_address: address, ip_version: family };
  const range = firstRange(JURISDICTION_RANGES, address, family);
  if (isNonPublic(address, family) || (range !== undefined && range.country === null)) {
    const why = range === undefined ? `${address} is not a public address` : 'the geolocation provider did not answer';
    return {
      value: {
        verdict: 'UNAVAILABLE',
        action: ACTIONS.UNAVAILABLE,
        evidence: { ...evidence, country: null },
        escalation: addressEscalation(`${why}: confirm the player's jurisdiction with a proof of address`),
      },
      explanations: [range === undefined ? `${address} is not public -> UNAVAILABLE` : `magic range ${range.cidr} (${range.label}) -> UNAVAILABLE`],
    };
  }
  const country = range?.country ?? ordinaryCountry(address);
  const source = range === undefined ? `ordinary public address, stable country ${country}` : `magic range ${range.cidr} (${range.label})`;
  if ((RESTRICTED_JURISDICTIONS as readonly string[]).includes(country)) {
    return {
      value: {
        verdict: 'HIT',
        action: ACTIONS.HIT,
        evidence: { ...evidence, country, restricted: true },
        escalation: addressEscalation(`${address} geolocates to ${country}, a jurisdiction the operator is not licensed in`),
      },
      explanations: [`${source}: ${country} is restricted (${RESTRICTED_JURISDICTIONS.join(', ')}) -> HIT`],
    };
  }
  return {
    value: { verdict: 'CLEAR', action: ACTIONS.CLEAR, evidence: { ...evidence, country, restricted: false }, escalation: null },
    explanations: [`${source}: ${country} is permitted -> CLEAR`],
  };
}

// ─── POST /v1/igaming/anti-cheat ────────────────────────────────────────────────────────────────────

export function analyzeAntiCheat(world: World, organizationId: string, sessionId: string, selfie: AnalysedImage): Explained<AntiCheatResponse> {
  const registration = registerAnalysedFace(world, { organizationId, sessionId, source: 'anti-cheat', analysis: selfie });
  if (registration === undefined) {
    return { value: { verdict: 'UNAVAILABLE', action: 'flag' }, explanations: [`no face in the selfie (${selfie.summary}): nothing enrolled -> UNAVAILABLE`] };
  }
  const again = registration.isNew ? '' : ' (session already registered: first outcome)';
  const matched = registration.duplicate ? { matched_session_id: registration.enrolledSessionId, confidence: registration.similarity as number } : {};
  const base = { face_id: registration.faceId, ...matched };
  if (registration.exclusion !== undefined) {
    return {
      value: { verdict: 'SELF_EXCLUSION', action: 'block', ...base },
      explanations: [`face ${registration.faceId} of session ${registration.enrolledSessionId} is self-excluded -> SELF_EXCLUSION${again}`],
    };
  }
  if (registration.duplicate) {
    return {
      value: { verdict: 'DUPLICATE', action: 'manual-review', ...base },
      explanations: [`face similarity ${registration.similarity} to the enrolment of session ${registration.enrolledSessionId} -> DUPLICATE${again}`],
    };
  }
  return {
    value: { verdict: 'UNIQUE', action: 'allow', ...base },
    explanations: [`no enrolled face matches: face ${registration.faceId} enrolled -> UNIQUE${again}`],
  };
}
