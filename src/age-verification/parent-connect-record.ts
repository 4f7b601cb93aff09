/**
 * A Parent Connect request as the store keeps it, and its boundaries as the wire shows them: what both the
 * service and the sandbox's fixed requests build on.
 */
import type { ParentConnectStatus } from './age-verification.machine.ts';
import type { BoundariesResponse, ParentConnectRequest } from './age-verification.schemas.ts';

/** What the store keeps: the wire record (status as stored) plus its organization. */
export interface StoredParentConnect extends ParentConnectRequest {
  id: string;
  organizationId: string;
  status: ParentConnectStatus;
  created_at: string;
}

export function toBoundariesJson(record: ParentConnectRequest, nowMs: number): BoundariesResponse {
  const consent = record.status === 'CONSENT_GIVEN';
  const current = consent && record.consent_expires_at !== null && nowMs < Date.parse(record.consent_expires_at);
  return {
    child_attestation_id: record.child_attestation_id,
    parent_attestation_id: record.parent_attestation_id,
    parent_connect_id: record.id,
    age_band: record.age_band,
    parental_consent: current,
    eula_accepted: record.eula_accepted,
    boundaries: record.boundaries ?? {},
    boundaries_revision: record.boundaries_revision ?? 0,
    boundaries_match_attestation: current,
    consent_expires_at: record.consent_expires_at,
    updated_at: record.updated_at,
  };
}
