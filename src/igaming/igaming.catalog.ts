/** The iGaming magic values for GET /__sandbox/catalog (and docs/reference.md), built from the tables the code reads. */
import type { CatalogEntry } from '../platform/catalog/catalog.ts';
import { INJECTION_PASS_SCORE } from './analysis.service.ts';
import { JURISDICTION_RANGES, RESTRICTED_JURISDICTIONS, VPN_RANGES } from './ip-ranges.ts';
import { DOCUMENT_NUMBER_RULE } from './igaming.schemas.ts';

const VPN = 'POST /v1/igaming/vpn-detection';
const JURISDICTION = 'POST /v1/igaming/ip-jurisdiction';
const INJECTION = 'POST /v1/igaming/injection';
const ANTI_CHEAT = 'POST /v1/igaming/anti-cheat';

export const IGAMING_MAGIC_VALUES: readonly CatalogEntry[] = [
  ...VPN_RANGES.map((range) => ({ endpoint: VPN, input: `ip_address in ${range.cidr}`, outcome: range.verdict, description: range.label })),
  { endpoint: VPN, input: 'ip_address private, loopback, link-local or reserved', outcome: 'UNAVAILABLE', description: 'not a public address' },
  { endpoint: VPN, input: 'any other public ip_address', outcome: 'CLEAR', description: 'residential connection' },
  ...JURISDICTION_RANGES.map((range) => ({
    endpoint: JURISDICTION,
    input: `ip_address in ${range.cidr}`,
    outcome: range.country === null ? 'UNAVAILABLE' : (RESTRICTED_JURISDICTIONS as readonly string[]).includes(range.country) ? 'HIT' : 'CLEAR',
    description: range.country === null ? range.label : `country ${range.country}: ${range.label}`,
  })),
  { endpoint: JURISDICTION, input: 'ip_address private, loopback, link-local or reserved', outcome: 'UNAVAILABLE', description: 'not a public address' },
  { endpoint: JURISDICTION, input: 'any other public ip_address', outcome: 'CLEAR', description: 'a permitted country fixed by a hash of the address' },
  {
    endpoint: INJECTION,
    input: `a signal with pass false or score < ${INJECTION_PASS_SCORE}`,
    outcome: 'HIT',
    description: 'action block, confidence 100 minus the lowest failing score',
  },
  {
    endpoint: INJECTION,
    input: `every sent signal passes with score >= ${INJECTION_PASS_SCORE}`,
    outcome: 'CLEAR',
    description: 'action allow, confidence the lowest score',
  },
  {
    endpoint: INJECTION,
    input: 'no device_integrity, media_source or frame_timing',
    outcome: 'UNAVAILABLE',
    description: 'action manual-review, confidence null',
  },
  {
    endpoint: ANTI_CHEAT,
    input: 'a selfie with no face (e.g. a flat colour), or an image that cannot be decoded',
    outcome: 'UNAVAILABLE',
    description: 'action allow (fail-soft); nothing enrolled',
  },
  {
    endpoint: ANTI_CHEAT,
    input: 'a terminal session, or one whose workflow lists iGaming checks but not anti-cheat',
    outcome: 'UNAVAILABLE',
    description: 'action allow (fail-soft); nothing enrolled',
  },
  {
    endpoint: ANTI_CHEAT,
    input: 'a session_id that is unknown or another organization’s',
    outcome: '404 Session not found',
    description: 'the one hard failure; nothing enrolled',
  },
  {
    endpoint: `${VPN} and ${JURISDICTION}`,
    input: 'the session_id of a session whose workflow lists iGaming checks but not this one (fixture workflow 9f4b2c7e-… runs vpn-detection only)',
    outcome: 'UNAVAILABLE',
    description: 'action allow, evidence {reason: step-not-configured}',
  },
  { endpoint: ANTI_CHEAT, input: 'a selfie matching no enrolled face', outcome: 'UNIQUE', description: 'action allow; the face is enrolled' },
  {
    endpoint: ANTI_CHEAT,
    input: "a selfie matching another session's enrolled face",
    outcome: 'DUPLICATE',
    description: 'action manual-review; same similarity and threshold as POST /v1/face/compare',
  },
  { endpoint: ANTI_CHEAT, input: 'a selfie matching a self-excluded face', outcome: 'SELF_EXCLUSION', description: 'action block' },
  {
    endpoint: 'POST /v1/igaming/self-exclusion/identity',
    input: 'a document number that is empty after trimming',
    outcome: 'status invalid',
    description: `not stored (valid: ${DOCUMENT_NUMBER_RULE})`,
  },
];
