/**
 * The real client's iGaming and AML modules (real-client-facts §6.12, §6.13), from that page ONLY: the
 * response schemas it validates and the wire bodies it sends, on top of RealClient's transport. Nothing
 * here is imported from src/. Semantics as in ./schemas.ts (strip objects; "opt" = optional without
 * null; "nullable" = key required).
 */
import { z } from 'zod';
import type { RealClient } from './client.ts';

const str = z.string();
const verdict = z.enum(['HIT', 'CLEAR', 'UNAVAILABLE']);

// ─── §6.12 iGaming ──────────────────────────────────────────────────────────────────────────────────

export const InjectionResponseSchema = z.object({
  verdict,
  action: str,
  confidence: z.number().nullable(),
  escalation: z.object({ type: str, check: z.literal('injection-detection') }).nullable(),
});

export const IpCheckResponseSchema = z.object({
  verdict,
  action: str,
  evidence: z.record(z.string(), z.unknown()),
  escalation: z.object({ decision: z.literal('ESCALATE'), type: str, reason: str }).nullable(),
});

export const AntiCheatResponseSchema = z.object({
  verdict: z.enum(['DUPLICATE', 'UNIQUE', 'UNAVAILABLE', 'SELF_EXCLUSION']),
  action: z.enum(['allow', 'flag', 'manual-review', 'block']),
});

export const PurgeResponseSchema = z.object({ deleted: z.boolean(), face_id: str.nullable() });

const IdentityEntrySchema = z.object({
  type: z.literal('identity'),
  document_number: str,
  reason: str.nullable(),
  added_by: str.nullable(),
  added_at: str.nullable(),
  first_name: str.optional(),
  last_name: str.optional(),
});
const FaceEntrySchema = z.object({ type: z.literal('face'), session_id: str, reason: str.nullable(), excluded_at: str.nullable() });

export const RegistryListResponseSchema = z.object({
  entries: z.array(z.discriminatedUnion('type', [IdentityEntrySchema, FaceEntrySchema])),
  truncated: z.boolean(),
});

export const AddIdentityResponseSchema = z.object({
  excluded: z.array(z.object({ document_number: str, status: z.enum(['added', 'already_excluded', 'invalid']) })),
});

export const RemoveIdentityResponseSchema = z.object({ removed: z.boolean(), face_unexcluded: z.boolean() });

export const AddFaceResponseSchema = z.object({
  excluded: z.boolean(),
  session_id: str.optional(),
  reason: str.optional(),
  matched_session_id: str.optional(),
});

export const RemoveFaceResponseSchema = z.object({ unexcluded: z.boolean(), matched_session_id: str.optional() });

export const AddApplicantResponseSchema = z.object({
  face_attached: z.boolean(),
  document_number: str.nullable(),
  identity_status: z.enum(['added', 'already_excluded']).optional(),
  matched_session_id: str.optional(),
  message: str.optional(),
});

// ─── §6.13 AML ──────────────────────────────────────────────────────────────────────────────────────

export const SaveTransactionsResponseSchema = z.object({
  accepted: z.number().int(),
  warned: z.number().int(),
  rejected: z.number().int(),
  results: z.array(
    z.object({
      index: z.number().int(),
      client_txn_id: str.nullable(),
      status: z.enum(['accepted', 'warned', 'rejected']),
      warnings: z.array(str).optional(),
      errors: z.array(z.object({ code: str, field: str.nullable(), message: str })).optional(),
    }),
  ),
});

/** The SDK's helper schema for the 429 body of saveTransactions. */
export const QuotaExceededBodySchema = z.object({
  error: str,
  code: z.literal('QUOTA_EXCEEDED'),
  quota: z.number().int(),
  used: z.number().int(),
  remaining: z.number().int(),
  month: str,
  resets_at: str,
});

export const MonitoredUserResponseSchema = z.object({
  org_id: str,
  bot_id: str,
  subject_user_id: str,
  subject_user_name: str.nullable(),
  subject_country: str,
  status: str,
  cadence_days: z.number(),
  next_check_at: str,
  last_checked_at: str.nullable(),
  added_at: str,
  added_by: str.nullable(),
  updated_at: str,
});

type Signal = { pass: boolean; score: number; signals?: string[] };

/** The SDK fills `signals: []` when absent. */
const withSignals = (signal: Signal | undefined) => (signal === undefined ? undefined : { ...signal, signals: signal.signals ?? [] });

/** `client.igaming` and `client.aml` of the real client, over a RealClient's transport. */
export function igamingAndAml(client: RealClient) {
  const enc = encodeURIComponent;
  return {
    igaming: {
      analyzeInjection: (input: { sessionId: string; deviceIntegrity?: Signal; mediaSource?: Signal; frameTiming?: Signal }) =>
        client.request({
          operation: 'igaming.analyzeInjection',
          method: 'POST',
          path: '/v1/igaming/injection',
          body: {
            session_id: input.sessionId,
            device_integrity: withSignals(input.deviceIntegrity),
            media_source: withSignals(input.mediaSource),
            frame_timing: withSignals(input.frameTiming),
          },
          schema: InjectionResponseSchema,
        }),
      detectVpn: (input: { sessionId: string; ipAddress: string }) =>
        client.request({
          operation: 'igaming.detectVpn',
          method: 'POST',
          path: '/v1/igaming/vpn-detection',
          body: { session_id: input.sessionId, ip_address: input.ipAddress },
          schema: IpCheckResponseSchema,
        }),
      checkIpJurisdiction: (input: { sessionId: string; ipAddress: string }) =>
        client.request({
          operation: 'igaming.checkIpJurisdiction',
          method: 'POST',
          path: '/v1/igaming/ip-jurisdiction',
          body: { session_id: input.sessionId, ip_address: input.ipAddress },
          schema: IpCheckResponseSchema,
        }),
      analyzeAntiCheat: (input: { sessionId: string; image: string; deviceFingerprint?: string }) =>
        client.request({
          operation: 'igaming.analyzeAntiCheat',
          method: 'POST',
          path: '/v1/igaming/anti-cheat',
          body: { session_id: input.sessionId, image: input.image, device_fingerprint: input.deviceFingerprint },
          schema: AntiCheatResponseSchema,
        }),
      purgeAntiCheatEnrollment: (sessionId: string) =>
        client.request({
          operation: 'igaming.purgeAntiCheatEnrollment',
          method: 'DELETE',
          path: `/v1/igaming/anti-cheat/${enc(sessionId)}`,
          schema: PurgeResponseSchema,
        }),
      selfExclusion: {
        list: (params: { limit?: number } = {}) =>
          client.request({
            operation: 'selfExclusion.list',
            method: 'GET',
            path: '/v1/igaming/self-exclusion',
            query: { limit: params.limit },
            schema: RegistryListResponseSchema,
          }),
        addIdentity: (input: { documentNumber?: string; documentNumbers?: string[]; reason?: string; firstName?: string; lastName?: string }) =>
          client.request({
            operation: 'selfExclusion.addIdentity',
            method: 'POST',
            path: '/v1/igaming/self-exclusion/identity',
            body: {
              document_number: input.documentNumber,
              document_numbers: input.documentNumbers,
              reason: input.reason,
              first_name: input.firstName,
              last_name: input.lastName,
            },
            schema: AddIdentityResponseSchema,
          }),
        removeIdentity: (documentNumber: string) =>
          client.request({
            operation: 'selfExclusion.removeIdentity',
            method: 'DELETE',
            path: `/v1/igaming/self-exclusion/identity/${enc(documentNumber)}`,
            schema: RemoveIdentityResponseSchema,
          }),
        addFace: (input: { sessionId: string; reason?: string }) =>
          client.request({
            operation: 'selfExclusion.addFace',
            method: 'POST',
            path: '/v1/igaming/self-exclusion/face',
            body: { session_id: input.sessionId, reason: input.reason },
            schema: AddFaceResponseSchema,
          }),
        removeFace: (sessionId: string) =>
          client.request({
            operation: 'selfExclusion.removeFace',
            method: 'DELETE',
            path: `/v1/igaming/self-exclusion/face/${enc(sessionId)}`,
            schema: RemoveFaceResponseSchema,
          }),
        addApplicant: (input: { sessionId: string; reason?: string }) =>
          client.request({
            operation: 'selfExclusion.addApplicant',
            method: 'POST',
            path: '/v1/igaming/self-exclusion/applicant',
            body: { session_id: input.sessionId, reason: input.reason },
            schema: AddApplicantResponseSchema,
          }),
      },
    },
    aml: {
      /** An array is sent as is; `{ botId?, transactions }` as `{ bot_id?, transactions }` (records already snake_case here). */
      saveTransactions: (input: Record<string, unknown>[] | { botId?: string; transactions: Record<string, unknown>[] }) =>
        client.request({
          operation: 'aml.saveTransactions',
          method: 'POST',
          path: '/v1/aml/transactions',
          body: Array.isArray(input) ? input : { bot_id: input.botId, transactions: input.transactions },
          schema: SaveTransactionsResponseSchema,
        }),
      addMonitoredUser: (botId: string, input: { subjectUserId: string }) =>
        client.request({
          operation: 'aml.addMonitoredUser',
          method: 'POST',
          path: `/v1/aml/bots/${enc(botId)}/monitored-users`,
          body: { subject_user_id: input.subjectUserId },
          schema: MonitoredUserResponseSchema,
        }),
    },
  };
}
