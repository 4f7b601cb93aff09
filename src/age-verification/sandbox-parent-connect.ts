/**
 * What a sandbox key reads under /v1/age-verification: fixed Parent Connect records, one per status, built
 * from the table below (the catalog lists it). `pc_123` is the PARENT_INVITED request of the real client's
 * examples (age band 13-17, contact e-mail); `pc_consent_given` carries the example boundaries
 * `{ chat: false, dailyMinutes: 60 }` at revision 2, readable by its child attestation `att_child_123`.
 *
 * Any other id reads as synthetic data derived from the id, as sessions do (spec, Authentication 4 and 5):
 * a Parent Connect request gets the status of the table's row the id hashes to, under its own id; a child
 * attestation id gets the consent-given record's boundaries under that id.
 *
 * LIMITATIONS:
 * - Sandbox records are snapshots: they do not move on the clock and cannot be driven.
 */
import { hashParts } from '../platform/random/random.ts';
import type { ParentConnectStatus } from './age-verification.machine.ts';
import type { BoundariesResponse, ParentConnectRequest, PlatformRestriction } from './age-verification.schemas.ts';
import { toBoundariesJson, type StoredParentConnect } from './parent-connect-record.ts';

const SNAPSHOT_AT = Date.parse('2026-01-10T12:00:00.000Z');
const RESTRICTIONS: PlatformRestriction[] = [
  { key: 'chat', label: 'In-game chat', type: 'toggle', category: 'feature', default: false },
  { key: 'dailyMinutes', label: 'Daily play time', type: 'minutes', category: 'feature', default: 60, min: 0, max: 240 },
];

export const SANDBOX_PARENT_CONNECT = [
  { id: 'pc_123', status: 'PARENT_INVITED', outcome: 'PARENT_INVITED: parent invited by e-mail, invitation open', child: 'att_child_pc_123' },
  { id: 'pc_pending', status: 'PENDING', outcome: 'PENDING: nobody invited yet', child: 'att_child_pending' },
  {
    id: 'pc_parent_verified',
    status: 'PARENT_VERIFIED',
    outcome: 'PARENT_VERIFIED: parent identity verified, no consent yet',
    child: 'att_child_parent_verified',
  },
  {
    id: 'pc_consent_given',
    status: 'CONSENT_GIVEN',
    outcome: 'CONSENT_GIVEN: boundaries {chat: false, dailyMinutes: 60}, revision 2, EULA accepted',
    child: 'att_child_123',
  },
  { id: 'pc_expired', status: 'EXPIRED', outcome: 'EXPIRED: the invitation lapsed', child: 'att_child_expired' },
  { id: 'pc_declined', status: 'DECLINED', outcome: 'DECLINED: the parent declined', child: 'att_child_declined' },
] as const satisfies readonly { id: string; status: ParentConnectStatus; outcome: string; child: string }[];

const iso = (ms: number) => new Date(ms).toISOString();
const DAY = 86_400_000;

function build(entry: (typeof SANDBOX_PARENT_CONNECT)[number], index: number, organizationId: string): StoredParentConnect {
  const created = SNAPSHOT_AT - (index + 1) * DAY;
  const invited = entry.status !== 'PENDING';
  const verified = entry.status === 'PARENT_VERIFIED' || entry.status === 'CONSENT_GIVEN';
  const consent = entry.status === 'CONSENT_GIVEN';
  return {
    id: entry.id,
    organizationId,
    child_session_id: `age_${entry.id.slice(3)}`,
    parent_session_id: verified ? `parent_${entry.id.slice(3)}` : null,
    status: entry.status,
    age_band: '13-17',
    contact_method: invited ? 'email' : null,
    platform_restrictions: RESTRICTIONS,
    boundaries: consent ? { chat: false, dailyMinutes: 60 } : null,
    eula_url: 'https://example.com/eula',
    eula_accepted: consent,
    child_attestation_id: entry.child,
    parent_attestation_id: verified ? `att_parent_${entry.id.slice(3)}` : null,
    boundaries_revision: consent ? 2 : null,
    consent_given_at: consent ? iso(created + 2 * 3_600_000) : null,
    consent_expires_at: consent ? iso(created + 365 * DAY) : null,
    reconsent_due_at: consent ? iso(created + 335 * DAY) : null,
    invite_expires_at: invited ? iso(entry.status === 'EXPIRED' ? created + 3_600_000 : created + 7 * DAY) : null,
    declined_at: entry.status === 'DECLINED' ? iso(created + 3_600_000) : null,
    created_at: iso(created),
    updated_at: iso(created + 2 * 3_600_000),
  };
}

/** Every sandbox record, for the caller's organization. */
export function sandboxParentConnectRequests(organizationId: string): StoredParentConnect[] {
  return SANDBOX_PARENT_CONNECT.map((entry, index) => build(entry, index, organizationId));
}

const wire = (stored: StoredParentConnect): ParentConnectRequest => {
  const { organizationId: _organization, ...record } = stored;
  return record;
};

/** The table row an unknown id stands for (fixed by the id). */
function rowFor(id: string): number {
  return hashParts('sandbox-parent-connect', id).readUInt32LE(0) % SANDBOX_PARENT_CONNECT.length;
}

/** A sandbox key's GET of one request: the table's record, or one synthesised from the id. */
export function sandboxParentConnectRequest(id: string): ParentConnectRequest {
  const found = sandboxParentConnectRequests('org').find((record) => record.id === id);
  if (found) return wire(found);
  const index = rowFor(id);
  const entry = SANDBOX_PARENT_CONNECT[index] as (typeof SANDBOX_PARENT_CONNECT)[number];
  return wire({ ...build(entry, index, 'org'), id, child_attestation_id: `att_child_${id}` });
}

/** A sandbox key's boundaries of a child attestation: the table's record, or the consent-given one under this id. */
export function sandboxBoundaries(childAttestationId: string): BoundariesResponse {
  const records = sandboxParentConnectRequests('org');
  const found = records.find((record) => record.child_attestation_id === childAttestationId);
  if (found) return toBoundariesJson(wire(found), SNAPSHOT_AT);
  const consent = records.find((record) => record.status === 'CONSENT_GIVEN') as StoredParentConnect;
  return toBoundariesJson(wire({ ...consent, id: `pc_${childAttestationId}`, child_attestation_id: childAttestationId }), SNAPSHOT_AT);
}
