/**
 * Save transactions (spec: referenced 'Save transactions (auto-enrols monitored subjects on first
 * sight)'; shape from real-client-facts §6.13): 1-500 records, each validated on its own and answered
 * accepted, warned or rejected with field-level errors, HTTP 200 even when some are rejected. Accepted
 * and warned records are stored; their subjects seen for the first time are enrolled under the bot.
 *
 * Choices where the spec is silent:
 * - Required per record: subject_user_id, timestamp (ISO 8601 with a time), direction, amount {value > 0,
 *   currency ISO 4217}, type. Optional keys are checked when present (enums, country codes, numbers).
 * - Warnings: NORMALIZED_AMOUNT_MISSING (a non-USD amount without normalized_amount: USD is the sandbox
 *   organizations' reporting currency), CRYPTO_DETAILS_MISSING (type crypto without a crypto object),
 *   DUPLICATE_CLIENT_TXN_ID (the client_txn_id was already saved, or repeats in the batch: not stored
 *   twice), CLIENT_TXN_ID_MISSING (no client_txn_id: retries cannot be de-duplicated).
 * - Bot: bot_id when sent (404 unknown, 400 BOT_CADENCE_INVALID); otherwise the organization's first bot
 *   with a usable interval; none: nothing is enrolled.
 * - Quota: a monthly count of records per organization (UTC month of the virtual clock), reserved per
 *   attempt for every record sent, default 100,000 (control plane: PUT
 *   /__sandbox/organizations/{id}/aml/transaction-quota). A batch that does not fit is refused whole: 429
 *   QUOTA_EXCEEDED with the quota fields and Retry-After until the next month.
 */
import { AML_ERROR_CODES } from './aml.errors.ts';
import { codedError } from '../platform/errors/error-codes.ts';
import type { AmlBot, Principal } from '../platform/auth/organizations.ts';
import type { World } from '../platform/namespaces/world.ts';
import type { QuotaStatus, SaveTransactionsBody, SaveTransactionsResponse, TransactionError, TransactionResult } from './aml.schemas.ts';
import type { Explained } from '../platform/explained.ts';
import { enrolSeenSubjects, hasUsableCadence, requireUsableBot } from './monitored-users.service.ts';

export const DEFAULT_MONTHLY_TRANSACTION_QUOTA = 100_000;

export const TRANSACTION_ENUMS = {
  direction: ['inbound', 'outbound', 'internal'],
  type: ['card', 'wire', 'eft', 'ach', 'crypto', 'cash', 'internal_transfer', 'other'],
  status: ['pending', 'completed', 'failed', 'reversed'],
  channel: ['web', 'mobile', 'api', 'branch', 'atm', 'pos'],
} as const;

const CURRENCY = /^[A-Z]{3}$/;
const COUNTRY = /^[A-Z]{2}$/;
const ISO_DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

interface StoredTransaction {
  /** transactionKey(org, index) or (org, client_txn_id). */
  id: string;
  organizationId: string;
  botId: string | null;
  clientTxnId: string | null;
  subjectUserId: string;
  record: Record<string, unknown>;
  savedAt: string;
}

interface QuotaSetting {
  /** The organization id. */
  id: string;
  quota: number;
}

interface QuotaUsage {
  /** `${organizationId}\0${month}`. */
  id: string;
  used: number;
}

const transactions = (world: World) => world.data.collection<StoredTransaction>('amlTransactions');
const quotaSettings = (world: World) => world.data.collection<QuotaSetting>('amlQuotaSettings');
const quotaUsage = (world: World) => world.data.collection<QuotaUsage>('amlQuotaUsage');

// ─── Per-record validation ──────────────────────────────────────────────────────────────────────────

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

class RecordCheck {
  readonly errors: TransactionError[] = [];
  readonly warnings: string[] = [];
  constructor(readonly record: Record<string, unknown>) {}

  required(field: string, value: unknown): boolean {
    if (value !== undefined && value !== null) return true;
    this.errors.push({ code: 'FIELD_REQUIRED', field, message: `${field} is required` });
    return false;
  }

  invalid(field: string, message: string): void {
    this.errors.push({ code: 'FIELD_INVALID', field, message: `${field} ${message}` });
  }

  string(field: string, value: unknown, max = 255): void {
    if (typeof value !== 'string' || value.trim() === '' || value.length > max) this.invalid(field, `must be a non-empty string of at most ${max} characters`);
  }

  oneOf(field: string, value: unknown, allowed: readonly string[]): void {
    if (typeof value !== 'string' || !allowed.includes(value)) this.invalid(field, `must be one of ${allowed.join(', ')}`);
  }

  money(field: string, value: unknown, options: { fx?: boolean } = {}): void {
    if (!isObject(value)) return this.invalid(field, 'must be an object { value, currency }');
    if (this.required(`${field}.value`, value.value) && (typeof value.value !== 'number' || !Number.isFinite(value.value) || value.value <= 0)) {
      this.invalid(`${field}.value`, 'must be a number greater than 0');
    }
    if (this.required(`${field}.currency`, value.currency) && (typeof value.currency !== 'string' || !CURRENCY.test(value.currency))) {
      this.invalid(`${field}.currency`, 'must be an ISO 4217 code in capitals, e.g. USD');
    }
    if (options.fx && value.fx_rate !== undefined) this.positive(`${field}.fx_rate`, value.fx_rate);
  }

  positive(field: string, value: unknown): void {
    if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) this.invalid(field, 'must be a number greater than 0');
  }

  countries(field: string, value: unknown, keys: readonly string[]): void {
    if (!isObject(value)) return this.invalid(field, 'must be an object');
    for (const key of keys) {
      if (value[key] !== undefined && (typeof value[key] !== 'string' || !COUNTRY.test(value[key])))
        this.invalid(`${field}.${key}`, 'must be an ISO 3166-1 alpha-2 code in capitals, e.g. GB');
    }
  }
}

function checkRecord(record: Record<string, unknown>): RecordCheck {
  const check = new RecordCheck(record);
  if (check.required('subject_user_id', record.subject_user_id)) check.string('subject_user_id', record.subject_user_id);
  if (
    check.required('timestamp', record.timestamp) &&
    (typeof record.timestamp !== 'string' || !ISO_DATETIME.test(record.timestamp) || Number.isNaN(Date.parse(record.timestamp)))
  ) {
    check.invalid('timestamp', 'must be an ISO 8601 date-time such as 2026-08-01T09:00:00Z');
  }
  if (check.required('direction', record.direction)) check.oneOf('direction', record.direction, TRANSACTION_ENUMS.direction);
  if (check.required('amount', record.amount)) check.money('amount', record.amount);
  if (check.required('type', record.type)) check.oneOf('type', record.type, TRANSACTION_ENUMS.type);
  if (record.client_txn_id !== undefined) check.string('client_txn_id', record.client_txn_id, 128);
  if (record.status !== undefined) check.oneOf('status', record.status, TRANSACTION_ENUMS.status);
  if (record.channel !== undefined) check.oneOf('channel', record.channel, TRANSACTION_ENUMS.channel);
  if (record.normalized_amount !== undefined) check.money('normalized_amount', record.normalized_amount, { fx: true });
  if (record.fx_rate !== undefined) check.positive('fx_rate', record.fx_rate);
  if (record.counterparty !== undefined) check.countries('counterparty', record.counterparty, ['country']);
  if (record.geography !== undefined) check.countries('geography', record.geography, ['origin_country', 'destination_country', 'ip_country']);
  for (const key of ['crypto', 'subject', 'metadata'] as const) {
    if (record[key] !== undefined && !isObject(record[key])) check.invalid(key, 'must be an object');
  }
  if (check.errors.length > 0) return check;
  const currency = (record.amount as { currency: string }).currency;
  if (currency !== 'USD' && record.normalized_amount === undefined) check.warnings.push('NORMALIZED_AMOUNT_MISSING');
  if (record.type === 'crypto' && record.crypto === undefined) check.warnings.push('CRYPTO_DETAILS_MISSING');
  if (record.client_txn_id === undefined) check.warnings.push('CLIENT_TXN_ID_MISSING');
  return check;
}

// ─── Quota ──────────────────────────────────────────────────────────────────────────────────────────

function monthOf(world: World): { month: string; resetsAtMs: number } {
  const now = new Date(world.clock.now());
  return { month: now.toISOString().slice(0, 7), resetsAtMs: Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1) };
}

export function quotaStatus(world: World, organizationId: string): QuotaStatus {
  const { month, resetsAtMs } = monthOf(world);
  const quota = quotaSettings(world).get(organizationId)?.quota ?? DEFAULT_MONTHLY_TRANSACTION_QUOTA;
  const used = quotaUsage(world).get(`${organizationId}\u0000${month}`)?.used ?? 0;
  return { quota, used, remaining: Math.max(0, quota - used), month, resets_at: world.clock.iso(resetsAtMs) };
}

/** Control plane: sets the organization's monthly quota (in this namespace). */
export function setTransactionQuota(world: World, organizationId: string, quota: number): QuotaStatus {
  quotaSettings(world).put({ id: organizationId, quota });
  return quotaStatus(world, organizationId);
}

function reserveQuota(world: World, organizationId: string, count: number): QuotaStatus {
  const status = quotaStatus(world, organizationId);
  if (count > status.remaining) {
    const retryAfter = Math.max(1, Math.ceil((Date.parse(status.resets_at) - world.clock.now()) / 1000));
    throw codedError(AML_ERROR_CODES, 'QUOTA_EXCEEDED', { ...status, count }, { ...status }, { 'Retry-After': String(retryAfter) });
  }
  quotaUsage(world).put({ id: `${organizationId}\u0000${status.month}`, used: status.used + count });
  return { ...status, used: status.used + count, remaining: status.remaining - count };
}

// ─── POST /v1/aml/transactions ──────────────────────────────────────────────────────────────────────

function botFor(principal: Principal, botId: string | undefined): (AmlBot & { cadenceDays: number }) | undefined {
  if (botId !== undefined) return requireUsableBot(principal.organization, botId);
  return principal.organization.amlBots.find(hasUsableCadence);
}

export function saveTransactions(world: World, principal: Principal, body: SaveTransactionsBody): Explained<SaveTransactionsResponse> {
  const organizationId = principal.organization.id;
  const { transactions: records, bot_id: botId } = body;
  const bot = botFor(principal, botId);
  const quota = reserveQuota(world, organizationId, records.length);

  const nowIso = world.clock.iso();
  const seenInBatch = new Set<string>();
  const subjects = new Map<string, { id: string; name: string | null; country: string | null }>();
  const results: TransactionResult[] = records.map((record, index) => {
    const clientTxnId = typeof record.client_txn_id === 'string' ? record.client_txn_id : null;
    const check = checkRecord(record);
    if (check.errors.length > 0) return { index, client_txn_id: clientTxnId, status: 'rejected', errors: check.errors };
    const key = clientTxnId === null ? `${organizationId}\u0000#${transactions(world).size}` : `${organizationId}\u0000${clientTxnId}`;
    if (clientTxnId !== null && (seenInBatch.has(clientTxnId) || transactions(world).has(key))) {
      check.warnings.push('DUPLICATE_CLIENT_TXN_ID');
    } else {
      if (clientTxnId !== null) seenInBatch.add(clientTxnId);
      const subjectUserId = record.subject_user_id as string;
      transactions(world).put({ id: key, organizationId, botId: bot?.id ?? null, clientTxnId, subjectUserId, record, savedAt: nowIso });
      if (!subjects.has(subjectUserId)) {
        const person = isObject(record.subject) ? record.subject : {};
        const name = [person.first_name, person.last_name].filter((part) => typeof part === 'string' && part !== '').join(' ');
        const geography = isObject(record.geography) ? record.geography : {};
        const country = typeof geography.origin_country === 'string' && COUNTRY.test(geography.origin_country) ? geography.origin_country : null;
        subjects.set(subjectUserId, { id: subjectUserId, name: name === '' ? null : name, country });
      }
    }
    return check.warnings.length > 0
      ? { index, client_txn_id: clientTxnId, status: 'warned', warnings: check.warnings }
      : { index, client_txn_id: clientTxnId, status: 'accepted' };
  });
  const enrolled = bot === undefined ? [] : enrolSeenSubjects(world, principal, bot, [...subjects.values()]);
  const count = (status: TransactionResult['status']) => results.filter((result) => result.status === status).length;
  return {
    value: { accepted: count('accepted'), warned: count('warned'), rejected: count('rejected'), results },
    explanations: [
      `${records.length} record(s): quota ${quota.used}/${quota.quota} used in ${quota.month}`,
      bot === undefined
        ? 'no bot with a usable interval: no subject enrolled'
        : `${enrolled.length} subject(s) seen for the first time enrolled under ${bot.id}${enrolled.length > 0 ? ` (${enrolled.join(', ')})` : ''}`,
    ],
  };
}
