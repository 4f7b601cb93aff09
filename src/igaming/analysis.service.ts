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
 * - Anti-cheat fails soft (the service's documented behaviour): its one hard failure is 404 for a session
 *   that is unknown or another organization's. An image that cannot be decoded or shows no face, a
 *   terminal session, a session whose workflow does not run the anti-cheat check, or an internal fault:
 *   200 UNAVAILABLE (allow), nothing enrolled. Otherwise the face resolves to a self-excluded enrolment →
 *   SELF_EXCLUSION (block); it matched another session's enrolment → DUPLICATE (manual-review); else it
 *   was enrolled → UNIQUE (allow). Analyzing a session again returns its first registration, with the
 *   exclusion as it stands now. The body never reveals the matched session, the similarity or the face
 *   id: X-Sandbox-Explain and the journal say them.
 * - Which checks a session's workflow runs (IGAMING_CHECKS): a session without a workflow, or whose
 *   workflow lists none of the iGaming checks, runs them all; a workflow that lists some (record form
 *   anti-cheat, vpn-detection, ip-jurisdiction) runs only those. VPN detection and IP jurisdiction on a
 *   session whose workflow lacks the check answer UNAVAILABLE (allow) with evidence.reason
 *   step-not-configured; an unknown session_id there is the operator's own reference and is checked.
 *
 * LIMITATIONS:
 * - Not billed: the real client's documentation prices none of these operations.
 */
import { codedError } from '../platform/errors/error-codes.ts';
import { IGAMING_ERROR_CODES } from './igaming.errors.ts';
import type { World } from '../platform/namespaces/world.ts';
import type { AnalysedImage } from '../images/image-analysis.ts';
import { registerAnalysedFace } from '../face-registry/face-registry.ts';
import { sessionById, isTerminal } from '../sessions/api.ts';
import { workflowById } from '../workflows/api.ts';
import type { Explained } from '../platform/explained.ts';
import { ipRangeFact, NON_PUBLIC, ORDINARY } from './ip-coverage.ts';
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

// ─── Which checks a session runs ────────────────────────────────────────────────────────────────────

/** The iGaming checks a workflow can list (the workflow record's step-id form). */
export const IGAMING_CHECKS = ['anti-cheat', 'vpn-detection', 'ip-jurisdiction'] as const;
export type IgamingCheck = (typeof IGAMING_CHECKS)[number];

/** The organization's session, if it exists (undefined for an unknown id or another organization's). */
function ownSession(world: World, organizationId: string, sessionId: string) {
  const stored = sessionById(world, sessionId);
  return stored?.record.organization_id === organizationId ? stored : undefined;
}

/** Whether the session's workflow runs `check` (see the header); true for a session without a workflow. */
function checkConfigured(world: World, organizationId: string, workflowId: string | undefined, check: IgamingCheck): boolean {
  const workflow = workflowId === undefined ? undefined : workflowById(world, organizationId, workflowId);
  if (workflow === undefined) return true;
  const listed = workflow.steps.map((step) => step.id).filter((id): id is IgamingCheck => (IGAMING_CHECKS as readonly string[]).includes(id));
  return listed.length === 0 || listed.includes(check);
}

const notConfigured = (check: IgamingCheck, sessionId: string): Explained<IpCheckResponse> => ({
  value: { verdict: 'UNAVAILABLE', action: 'allow', evidence: { reason: 'step-not-configured' }, escalation: null },
  explanations: [`the workflow of session ${sessionId} does not run ${check} -> UNAVAILABLE (step-not-configured)`],
});

/** Runs an IP check unless the session's workflow does not configure it. */
export function ipCheckFor(
  world: World,
  organizationId: string,
  body: { session_id: string; ip_address: string },
  check: 'vpn-detection' | 'ip-jurisdiction',
): Explained<IpCheckResponse> {
  const session = ownSession(world, organizationId, body.session_id);
  if (session !== undefined && !checkConfigured(world, organizationId, session.record.workflow_id, check)) return notConfigured(check, body.session_id);
  return check === 'vpn-detection' ? detectVpn(body.ip_address) : checkIpJurisdiction(body.ip_address);
}

// ─── VPN detection and IP jurisdiction ──────────────────────────────────────────────────────────────

interface LookedUpAddress {
  address: string;
  family: IpFamily;
}

function lookUpAddress(raw: string): LookedUpAddress {
  const family = ipFamily(raw);
  if (family === undefined) {
    throw codedError(IGAMING_ERROR_CODES, 'IP_ADDRESS_MALFORMED', { raw });
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
      facts: [ipRangeFact('vpn-detection', NON_PUBLIC)],
    };
  }
  const range = firstRange(VPN_RANGES, address, family);
  if (range === undefined || range.verdict === 'CLEAR') {
    return {
      value: { verdict: 'CLEAR', action: ACTIONS.CLEAR, evidence: { ...evidence, vpn: false, proxy: false, connection_type: 'residential' }, escalation: null },
      explanations: [range === undefined ? `${address}: ordinary public address -> CLEAR` : `magic range ${range.cidr} (${range.label}) -> CLEAR`],
      facts: [ipRangeFact('vpn-detection', range ?? ORDINARY)],
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
      facts: [ipRangeFact('vpn-detection', range)],
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
    facts: [ipRangeFact('vpn-detection', range)],
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
      facts: [ipRangeFact('ip-jurisdiction', range ?? NON_PUBLIC)],
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
      facts: [ipRangeFact('ip-jurisdiction', range ?? ORDINARY)],
    };
  }
  return {
    value: { verdict: 'CLEAR', action: ACTIONS.CLEAR, evidence: { ...evidence, country, restricted: false }, escalation: null },
    explanations: [`${source}: ${country} is permitted -> CLEAR`],
    facts: [ipRangeFact('ip-jurisdiction', range ?? ORDINARY)],
  };
}

// ─── POST /v1/igaming/anti-cheat ────────────────────────────────────────────────────────────────────

const unavailable = (why: string): Explained<AntiCheatResponse> => ({
  value: { verdict: 'UNAVAILABLE', action: 'allow' },
  explanations: [`${why}: nothing enrolled -> UNAVAILABLE (fail-soft)`],
});

/**
 * POST /v1/igaming/anti-cheat: 404 for an unknown or foreign session, else a verdict (fail-soft). `loadSelfie`
 * decodes the image; its failure is an UNAVAILABLE, as is any fault of the registry.
 */
export async function analyzeAntiCheat(
  world: World,
  organizationId: string,
  sessionId: string,
  loadSelfie: () => Promise<AnalysedImage>,
): Promise<Explained<AntiCheatResponse>> {
  const session = ownSession(world, organizationId, sessionId);
  if (session === undefined) throw codedError(IGAMING_ERROR_CODES, 'ANTI_CHEAT_SESSION_NOT_FOUND', { sessionId });
  if (isTerminal(session.record.status)) return unavailable(`session ${sessionId} is ${session.record.status} (terminal)`);
  if (!checkConfigured(world, organizationId, session.record.workflow_id, 'anti-cheat')) {
    return unavailable(`the workflow of session ${sessionId} does not run anti-cheat`);
  }
  let selfie: AnalysedImage;
  try {
    selfie = await loadSelfie();
  } catch (error) {
    return unavailable(`the image could not be used (${error instanceof Error ? error.message : 'undecodable'})`);
  }
  let registration: ReturnType<typeof registerAnalysedFace>;
  try {
    registration = registerAnalysedFace(world, { organizationId, sessionId, source: 'anti-cheat', analysis: selfie });
  } catch (error) {
    return unavailable(`internal fault of the face registry (${error instanceof Error ? error.message : String(error)})`);
  }
  if (registration === undefined) return unavailable(`no face in the selfie (${selfie.summary})`);
  const again = registration.isNew ? '' : ' (session already registered: first outcome)';
  const found = `face ${registration.faceId}${registration.duplicate ? `, similarity ${registration.similarity} to the enrolment of session ${registration.enrolledSessionId}` : ''}`;
  if (registration.exclusion !== undefined) {
    return {
      value: { verdict: 'SELF_EXCLUSION', action: 'block' },
      explanations: [`${found}; the face of session ${registration.enrolledSessionId} is self-excluded -> SELF_EXCLUSION${again}`],
    };
  }
  if (registration.duplicate) {
    return { value: { verdict: 'DUPLICATE', action: 'manual-review' }, explanations: [`${found} -> DUPLICATE${again}`] };
  }
  return { value: { verdict: 'UNIQUE', action: 'allow' }, explanations: [`no enrolled face matches: ${found} enrolled -> UNIQUE${again}`] };
}
