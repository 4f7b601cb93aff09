/**
 * What sandbox keys see on the session endpoints (Authentication 4-5): pre-built synthetic sessions in
 * the production response shape. The documented test identifiers (test_verified, test_rejected, …) are
 * readable JSON files under fixtures/sandbox/sessions/; any other id gets a scenario chosen and filled
 * from a hash of the id, so the same id always answers the same bytes. GET /v1/sessions answers five
 * sessions, one per status VERIFIED, REJECTED, PENDING, SUBMITTED, VOIDED, with next_token null.
 *
 * The fixture files carry placeholders that are filled per request: `{organization_id}` becomes the
 * caller's organization, `{base_url}`, `{verify_url}` and `{console_url}` the sandbox's public URLs.
 * Everything else in them is fixed. All sandbox sessions share one fixed sandbox sender user.
 *
 * LIMITATIONS:
 * - Sandbox sessions are not stored: update-status, uploads and the hosted page do not apply to them
 *   (sandbox keys cannot write anyway).
 * - Timestamps are fixed instants in early 2026 (or derived from the id), not the virtual clock's now.
 */
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { shareJson } from '../platform/http/fast-paths.ts';
import { keptAnswers } from '../platform/kept-answers.ts';
import { fakerFrom, rngFrom, uuidFrom, type Rng } from '../platform/random/random.ts';
import { buildAnalysisData } from './analysis-data.ts';
import { APPLICANT_COUNTRY, buildApplicantSubmission, buildDeclinedData, buildFailureData } from './meta-data.ts';
import {
  buildApplicantUser,
  toSingleSessionResponse,
  buildSenderUser,
  emptyUploads,
  fictionalUsPhone,
  toListItem,
  type SessionUrls,
} from './session-record.ts';
import {
  SingleSessionResponseSchema,
  type AnalysisData,
  type SessionListResponse,
  type SessionRecord,
  type SessionStatus,
  type SingleSessionResponse,
  type Uploads,
} from './sessions.schemas.ts';

export type SandboxScenario = Extract<SessionStatus, 'VERIFIED' | 'REJECTED' | 'SUBMITTED' | 'PENDING' | 'VOIDED' | 'FAILED'>;

export const SANDBOX_SCENARIOS: readonly SandboxScenario[] = ['VERIFIED', 'REJECTED', 'SUBMITTED', 'PENDING', 'VOIDED', 'FAILED'];

/** Shaped like the platform catalog's entries ({ endpoint, input, outcome, description }). */
export interface SandboxTestIdentifier {
  endpoint: string;
  input: string;
  outcome: string;
  description: string;
}

/** The test identifiers of Authentication 5. The catalog and docs/reference.md are generated from this table. */
export const SANDBOX_SESSION_TEST_IDENTIFIERS: readonly SandboxTestIdentifier[] = [
  {
    endpoint: 'GET /v1/sessions/{id}',
    input: 'test_verified',
    outcome: 'VERIFIED',
    description: 'full VERIFIED record: every field populated, analysis of three documents, passing face match, liveness and screening',
  },
  {
    endpoint: 'GET /v1/sessions/{id}',
    input: 'test_rejected',
    outcome: 'REJECTED',
    description:
      'REJECTED by AI auto-decline: face_match_confidence 42.3, id_matches_selfie false, expiry_date_pass false, valid_state_pass false, declinedData LOW_FACE_MATCH / PRIMARY / CRITICAL',
  },
  {
    endpoint: 'GET /v1/sessions/{id}',
    input: 'test_submitted',
    outcome: 'SUBMITTED',
    description: 'SUBMITTED and awaiting review, with passing scores',
  },
  {
    endpoint: 'GET /v1/sessions/{id}',
    input: 'test_pending',
    outcome: 'PENDING',
    description: 'PENDING: invitation sent, nothing done yet; no analysis_data, session_progress PENDING',
  },
  {
    endpoint: 'GET /v1/sessions/{id}',
    input: 'test_voided',
    outcome: 'VOIDED',
    description: 'VOIDED before the applicant finished; no analysis_data',
  },
  {
    endpoint: 'GET /v1/sessions/{id}',
    input: 'test_failed',
    outcome: 'FAILED',
    description: 'FAILED after 3 failed attempts: session_progress COMPLETED, meta_data.failureData with 3 attempts',
  },
  {
    endpoint: 'GET /v1/sessions/{id}',
    input: 'any other id',
    outcome: 'a scenario chosen from a hash of the id',
    description:
      'a scenario (VERIFIED, REJECTED, SUBMITTED, PENDING, VOIDED or FAILED) chosen and filled from a hash of the id: the same id always returns the same body',
  },
  {
    endpoint: 'GET /v1/sessions',
    input: 'any query',
    outcome: 'five sessions, next_token null',
    description:
      'five sessions, one each of VERIFIED, REJECTED, PENDING, SUBMITTED, VOIDED (test_verified, test_rejected, test_pending, test_submitted, test_voided), next_token null',
  },
];

/** The identifiers that have a fixture file. */
export const SANDBOX_FIXTURE_IDS = ['test_verified', 'test_rejected', 'test_submitted', 'test_pending', 'test_voided', 'test_failed'] as const;
export type SandboxFixtureId = (typeof SANDBOX_FIXTURE_IDS)[number];

/** GET /v1/sessions with a sandbox key: these, in this order. */
export const SANDBOX_LIST_IDS: readonly SandboxFixtureId[] = ['test_verified', 'test_rejected', 'test_pending', 'test_submitted', 'test_voided'];

export const PLACEHOLDERS = {
  organizationId: '{organization_id}',
  urls: { base: '{base_url}', verify: '{verify_url}', console: '{console_url}' } satisfies SessionUrls,
} as const;

/** The organization whose sender user sends every sandbox session. */
const SANDBOX_SENDER_ORGANIZATION = 'sandbox';

export function isSandboxFixtureId(id: string): id is SandboxFixtureId {
  return (SANDBOX_FIXTURE_IDS as readonly string[]).includes(id);
}

// ─── Building a scenario ────────────────────────────────────────────────────────────────────────────

export interface SandboxBuildOptions {
  /** When the session was created. */
  createdAtIso: string;
  /** Every optional field present (test_verified); otherwise the id's hash decides. */
  complete?: boolean;
  /** ID documents in the analysis (default: drawn from the id). */
  documents?: 1 | 2 | 3;
  /** test_rejected's documented values. */
  analysisOverrides?: Parameters<typeof buildAnalysisData>[3]['overrides'];
  failedAttempts?: number;
  /** A PENDING session's progress (default: drawn from the id). */
  sessionProgress?: 'PENDING' | 'STARTED';
}

const MINUTE = 60_000;
const iso = (ms: number): string => new Date(ms).toISOString();

function uploadsFor(analysis: AnalysisData | undefined, rng: Rng, complete: boolean): Uploads {
  const uploads = emptyUploads();
  if (analysis === undefined) return uploads;
  const types = analysis.selected_document_types;
  const slots = [
    ['id_front', 'id_back', types?.primary],
    ['secondary_id_front', 'secondary_id_back', types?.secondary],
    ['tertiary_id_front', 'tertiary_id_back', types?.tertiary],
  ] as const;
  for (const [front, back, kind] of slots) {
    if (kind === undefined) continue;
    uploads[front] = true;
    uploads[back] = kind !== 'passport-us'; // passports are front-only
  }
  uploads.selfie_front = true;
  uploads.selfie_right = complete || rng.chance(0.5);
  uploads.selfie_left = uploads.selfie_right;
  uploads.hold_up_3_fingers = complete || rng.chance(0.3);
  return uploads;
}

/**
 * One sandbox session in the given scenario, as the full single-session response, with the
 * organization and public URLs left as placeholders (see fillPlaceholders).
 */
export function buildSandboxSession(scenario: SandboxScenario, id: string, options: SandboxBuildOptions): SingleSessionResponse {
  const rng = rngFrom('sandbox-session', id);
  const faker = fakerFrom('en_US', 'sandbox-session', id);
  const complete = options.complete === true;
  const firstName = faker.person.firstName();
  const lastName = faker.person.lastName();
  const email = `${firstName}.${lastName}`.toLowerCase().replace(/[^a-z.]/g, '') + '@example.com';
  const phone = complete || rng.chance(0.7) ? fictionalUsPhone(rng) : undefined;
  const created = Date.parse(options.createdAtIso);
  const submittedMs = created + rng.int(8, 55) * MINUTE;
  const reviewedMs = submittedMs + rng.int(40, 26 * 60) * MINUTE;
  const seed = ['sandbox', id];
  const submitted = scenario === 'VERIFIED' || scenario === 'REJECTED' || scenario === 'SUBMITTED';

  const record: SessionRecord = {
    id,
    organization_id: PLACEHOLDERS.organizationId,
    user_id: uuidFrom('sandbox-user', id),
    sender_user_id: '',
    status: scenario,
    type: 'session',
    session_progress:
      submitted || scenario === 'FAILED'
        ? 'COMPLETED'
        : scenario === 'PENDING'
          ? (options.sessionProgress ?? (rng.chance(0.5) ? 'STARTED' : 'PENDING'))
          : 'PENDING',
    created_at: options.createdAtIso,
    updated_at: options.createdAtIso,
  };
  if (complete || rng.chance(0.7)) record.external_id = `cust_${rng.bytes(5).toString('hex')}`;
  if (submitted) record.location = { country: APPLICANT_COUNTRY };
  if (complete || rng.chance(0.5)) {
    record.workflow_id = uuidFrom('sandbox-workflow', complete ? 'complete' : rng.int(1, 3));
    if (complete || rng.chance(0.3)) record.bank_statement_request_id = uuidFrom('sandbox-bank-statement', id);
    record.workflow_steps = complete
      ? ['id-verification', 'face-liveness', 'pep-sanctions', 'adverse-media', 'title-search', 'custom-form', 'bank-statement-upload']
      : ['id-verification', 'face-liveness', 'pep-sanctions'];
  }

  let analysis: AnalysisData | undefined;
  const person = { firstName, lastName, ...(phone === undefined ? {} : { phone }) };
  const documents = options.documents ?? (complete ? 3 : rng.pick([1, 1, 2] as const));
  if (scenario === 'VERIFIED' || scenario === 'SUBMITTED') {
    analysis = buildAnalysisData('pass', person, seed, { atIso: iso(submittedMs), documents });
  } else if (scenario === 'REJECTED') {
    const overrides = options.analysisOverrides ?? { expiryDatePass: rng.chance(0.7), validStatePass: rng.chance(0.7) };
    analysis = buildAnalysisData('low_face_match', person, seed, { atIso: iso(submittedMs), documents, overrides });
  }

  const meta: NonNullable<SessionRecord['meta_data']> = {};
  if (submitted) Object.assign(meta, buildApplicantSubmission(seed, { createdAtIso: options.createdAtIso, submittedAtIso: iso(submittedMs) }));
  if (scenario === 'REJECTED') {
    const score = analysis?.compare_faces_data?.face_match_confidence ?? 0;
    meta.declinedData = buildDeclinedData({ score, declinedAtIso: iso(submittedMs + rng.int(5, 50) * 1000) });
  }
  let failedAtMs = 0;
  if (scenario === 'FAILED') {
    failedAtMs = created + rng.int(10, 40) * MINUTE;
    meta.failureData = buildFailureData({ count: options.failedAttempts ?? 3, lastFailedAtIso: iso(failedAtMs), createdAtIso: options.createdAtIso }, seed);
  }
  record.meta_data = meta;
  record.uploads = uploadsFor(analysis, rng, complete);
  if (scenario === 'FAILED') {
    record.uploads.id_front = true;
    record.uploads.selfie_front = true;
  }
  if (analysis !== undefined) record.analysis_data = analysis;
  if (complete || rng.chance(0.5)) record.redirect_url = 'https://example.com/verification/complete';
  if (scenario !== 'PENDING' && (complete || rng.chance(0.6))) record.expires_at = iso(created + 72 * 60 * MINUTE);
  if (submitted) record.submitted_at = iso(submittedMs);

  const updatedMs =
    scenario === 'VERIFIED'
      ? reviewedMs
      : scenario === 'REJECTED'
        ? Date.parse(meta.declinedData?.declinedAt ?? options.createdAtIso)
        : scenario === 'SUBMITTED'
          ? submittedMs
          : scenario === 'VOIDED'
            ? created + rng.int(60, 72 * 60) * MINUTE
            : scenario === 'FAILED'
              ? failedAtMs
              : created;
  record.updated_at = iso(updatedMs);

  const sender = buildSenderUser(SANDBOX_SENDER_ORGANIZATION, 'Sandbox');
  record.sender_user_id = sender.id;
  const user = buildApplicantUser({
    id: record.user_id,
    person: { firstName, lastName, email, ...(phone === undefined ? {} : { phone }) },
    nowIso: options.createdAtIso,
  });
  return toSingleSessionResponse(record, user, sender, PLACEHOLDERS.urls);
}

/** How each fixture file was built (`npx tsx src/sessions/sandbox-fixtures.generate.ts` rewrites them). */
export const SANDBOX_FIXTURE_RECIPES: Record<SandboxFixtureId, { scenario: SandboxScenario; options: SandboxBuildOptions }> = {
  test_verified: { scenario: 'VERIFIED', options: { createdAtIso: '2026-01-05T14:03:11.000Z', complete: true, documents: 3 } },
  test_rejected: {
    scenario: 'REJECTED',
    options: {
      createdAtIso: '2026-01-06T09:12:40.000Z',
      documents: 1,
      analysisOverrides: { faceMatchConfidence: 42.3, expiryDatePass: false, validStatePass: false },
    },
  },
  test_submitted: { scenario: 'SUBMITTED', options: { createdAtIso: '2026-01-07T16:45:02.000Z', documents: 1 } },
  test_pending: { scenario: 'PENDING', options: { createdAtIso: '2026-01-08T11:20:33.000Z', sessionProgress: 'PENDING' } },
  test_voided: { scenario: 'VOIDED', options: { createdAtIso: '2026-01-04T10:05:19.000Z' } },
  test_failed: { scenario: 'FAILED', options: { createdAtIso: '2026-01-03T15:30:48.000Z', failedAttempts: 3 } },
};

/** The fixture body as it is written to its JSON file (placeholders readable, not percent-encoded). */
export function buildSandboxFixture(id: SandboxFixtureId): SingleSessionResponse {
  const recipe = SANDBOX_FIXTURE_RECIPES[id];
  const body = buildSandboxSession(recipe.scenario, id, recipe.options);
  return JSON.parse(JSON.stringify(body).replaceAll(encodeURIComponent(PLACEHOLDERS.organizationId), PLACEHOLDERS.organizationId)) as SingleSessionResponse;
}

// ─── Placeholders ───────────────────────────────────────────────────────────────────────────────────

const URL_PLACEHOLDERS = Object.values(PLACEHOLDERS.urls);

/**
 * Fills the placeholders of a sandbox body: inside URLs the organization id is percent-encoded (it is
 * a query parameter there), elsewhere it is inserted as is. Returns a new value.
 */
export function fillPlaceholders<T>(value: T, organizationId: string, urls: SessionUrls): T {
  const trim = (url: string): string => url.replace(/\/+$/, '');
  const fill = (node: unknown): unknown => {
    if (typeof node === 'string') {
      if (URL_PLACEHOLDERS.some((placeholder) => node.startsWith(placeholder))) {
        return node
          .replace(PLACEHOLDERS.urls.base, trim(urls.base))
          .replace(PLACEHOLDERS.urls.verify, trim(urls.verify))
          .replace(PLACEHOLDERS.urls.console, trim(urls.console))
          .replaceAll(PLACEHOLDERS.organizationId, encodeURIComponent(organizationId))
          .replaceAll(encodeURIComponent(PLACEHOLDERS.organizationId), encodeURIComponent(organizationId));
      }
      return node.replaceAll(PLACEHOLDERS.organizationId, organizationId);
    }
    if (Array.isArray(node)) return node.map(fill);
    if (typeof node === 'object' && node !== null) {
      return Object.fromEntries(Object.entries(node).map(([key, child]) => [key, fill(child)]));
    }
    return node;
  };
  return fill(value) as T;
}

/** A fixture's filled answers, and the last one given (a polled id is asked for with the same inputs again and again). */
interface FilledAnswers {
  kept: (key: string, fill: () => SingleSessionResponse) => SingleSessionResponse;
  last?: { organizationId: string; base: string; verify: string; console: string; answer: SingleSessionResponse };
}

const filledFixtures = new WeakMap<SingleSessionResponse, FilledAnswers>();
const FILLED_PER_FIXTURE = 64;

/**
 * A fixture filled for an organization and base URLs, kept (a few per fixture) so a synthetic read does not
 * walk the whole tree, nor serialize it, on every request. The answer is shared: callers send it, never change it.
 */
function filledFixture(fixture: SingleSessionResponse, organizationId: string, urls: SessionUrls): SingleSessionResponse {
  let filled = filledFixtures.get(fixture);
  if (filled === undefined) filledFixtures.set(fixture, (filled = { kept: keptAnswers(FILLED_PER_FIXTURE) }));
  const { last } = filled;
  if (last?.organizationId === organizationId && last.base === urls.base && last.verify === urls.verify && last.console === urls.console) {
    return last.answer;
  }
  // Organization ids and URLs hold no NUL: the parts cannot run into each other.
  const key = `${organizationId}\u0000${urls.base}\u0000${urls.verify}\u0000${urls.console}`;
  const answer = filled.kept(key, () => shareJson(fillPlaceholders(fixture, organizationId, urls)));
  filled.last = { organizationId, base: urls.base, verify: urls.verify, console: urls.console, answer };
  return answer;
}

// ─── Fixture files ──────────────────────────────────────────────────────────────────────────────────

export const DEFAULT_SANDBOX_FIXTURES_DIR = new URL('../../fixtures/sandbox/sessions/', import.meta.url);

const loaded = new Map<string, Map<SandboxFixtureId, SingleSessionResponse>>();
let defaultFixtures: Map<SandboxFixtureId, SingleSessionResponse> | undefined;

/**
 * Reads and validates the six fixture files (once per directory). A broken or foreign file stops with
 * a message naming the file and the problem.
 */
export function loadSandboxSessionFixtures(dir: URL | string = DEFAULT_SANDBOX_FIXTURES_DIR): Map<SandboxFixtureId, SingleSessionResponse> {
  // Every synthetic read asks for the default directory: answered without building its URL's text again.
  if (dir === DEFAULT_SANDBOX_FIXTURES_DIR && defaultFixtures !== undefined) return defaultFixtures;
  const base = typeof dir === 'string' ? pathToFileURL(dir.endsWith('/') ? dir : `${dir}/`) : dir;
  const cached = loaded.get(base.href);
  if (cached) return cached;
  const fixtures = new Map<SandboxFixtureId, SingleSessionResponse>();
  for (const id of SANDBOX_FIXTURE_IDS) {
    const file = new URL(`${id}.json`, base);
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(file, 'utf8'));
    } catch (error) {
      throw new Error(`sandbox session fixture ${file.pathname} cannot be read as JSON: ${(error as Error).message}`);
    }
    // Read once per process: zod's eval-based fast path would compile a parser per object schema for one use.
    const parsed = SingleSessionResponseSchema.safeParse(raw, { jitless: true });
    if (!parsed.success) {
      const first = parsed.error.issues[0];
      throw new Error(`sandbox session fixture ${file.pathname} is not a single-session response: ${first?.path.join('.') ?? ''} ${first?.message ?? ''}`);
    }
    if (parsed.data.session_record.id !== id) {
      throw new Error(`sandbox session fixture ${file.pathname} has session_record.id "${parsed.data.session_record.id}"; expected "${id}"`);
    }
    // Keep the file's own bytes (parse strips nothing we write, but a user's extra keys stay visible).
    fixtures.set(id, raw as SingleSessionResponse);
  }
  loaded.set(base.href, fixtures);
  if (dir === DEFAULT_SANDBOX_FIXTURES_DIR) defaultFixtures = fixtures;
  return fixtures;
}

// ─── What the routes call ───────────────────────────────────────────────────────────────────────────

/** Which scenario an arbitrary id gets, from a hash of the id. */
export function scenarioForId(id: string): SandboxScenario {
  return rngFrom('sandbox-scenario', id).pick(SANDBOX_SCENARIOS);
}

export interface SandboxSessionAnswer {
  body: SingleSessionResponse;
  scenario: SandboxScenario;
  /** ASCII, for X-Sandbox-Explain. */
  explanation: string;
}

/** The explanation of each fixture's answer, made once (the same text object, so `explain` knows it again). */
const fixtureExplanations = new WeakMap<SingleSessionResponse, { id: string; text: string }>();

function fixtureExplanation(id: string, fixture: SingleSessionResponse): string {
  let explanation = fixtureExplanations.get(fixture);
  if (explanation?.id !== id) {
    explanation = { id, text: `sandbox test identifier ${id} -> ${fixture.session_record.status} (fixtures/sandbox/sessions/${id}.json)` };
    fixtureExplanations.set(fixture, explanation);
  }
  return explanation.text;
}

/**
 * GET /v1/sessions/{id} with a sandbox key. A test identifier answers its fixture; any other id a
 * scenario chosen and filled from the id's hash (same id, same bytes; the body carries the id asked for).
 */
export function sandboxSessionFor(id: string, organizationId: string, urls: SessionUrls, options: { fixturesDir?: URL | string } = {}): SandboxSessionAnswer {
  if (isSandboxFixtureId(id)) {
    const fixture = loadSandboxSessionFixtures(options.fixturesDir).get(id) as SingleSessionResponse;
    return {
      body: filledFixture(fixture, organizationId, urls),
      scenario: fixture.session_record.status as SandboxScenario,
      explanation: fixtureExplanation(id, fixture),
    };
  }
  const scenario = scenarioForId(id);
  const createdMs = Date.UTC(2026, 0, 20, 9) - rngFrom('sandbox-created', id).int(0, 120 * 86_400) * 1000;
  const body = buildSandboxSession(scenario, id, { createdAtIso: iso(createdMs) });
  return {
    body: fillPlaceholders(body, organizationId, urls),
    scenario,
    explanation: `sandbox: id ${JSON.stringify(id).replace(/[^\x20-\x7e]/g, '?')} is not a test identifier -> ${scenario} chosen from a hash of the id`,
  };
}

/** GET /v1/sessions with a sandbox key: five sessions, one per status, next_token null. */
export function sandboxSessionList(organizationId: string, options: { fixturesDir?: URL | string } = {}): SessionListResponse {
  const fixtures = loadSandboxSessionFixtures(options.fixturesDir);
  return {
    sessions: SANDBOX_LIST_IDS.map((id) =>
      toListItem(fillPlaceholders((fixtures.get(id) as SingleSessionResponse).session_record, organizationId, PLACEHOLDERS.urls)),
    ),
    next_token: null,
  };
}
