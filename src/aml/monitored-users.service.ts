/**
 * Ongoing AML monitoring enrolment (spec: POST /v1/aml/bots/{bot_id}/monitored-users and the 'Monitored
 * user' state table): a customer is enrolled once per bot; enrolling again answers 200 with the enrolment
 * unchanged; a removed enrolment is reactivated. Bots and known subjects come from the organization
 * (fixtures/organizations.json: amlBots, knownSubjects); the external_id of any of the organization's
 * sessions is a known subject too, and so is a subject first seen by Save transactions (which enrols it).
 *
 * Choices where the spec is silent:
 * - Order of checks: body (400) → bot (404) → bot interval (400 BOT_CADENCE_INVALID) → subject (404).
 * - Reactivation answers 201 (the subject was not enrolled), keeps added_at, and restarts the schedule
 *   from now with the bot's current cadence; added_by becomes the reactivating key.
 * - subject_user_name and subject_country: the fixture subject's, else the newest session with that
 *   external_id (applicant's name, submission country), else null and XX.
 * - Removing (control plane only: the real API has no such call yet) keeps the record with status removed.
 *
 * LIMITATIONS:
 * - No monitoring runs: next_check_at is scheduled but never reached, last_checked_at stays null.
 */
import { codedError } from '../platform/errors/error-codes.ts';
import { AML_ERROR_CODES } from './aml.errors.ts';
import type { AmlBot, OrganizationFixture, Principal } from '../platform/auth/organizations.ts';
import type { Explained } from '../platform/explained.ts';
import type { World } from '../platform/namespaces/world.ts';
import { sessionsByExternalId } from '../sessions/api.ts';
import type { MonitoredUser } from './aml.schemas.ts';

const DAY_MS = 86_400_000;

interface StoredMonitoredUser extends MonitoredUser {
  /** monitoredUserKey(org, bot, subject). */
  id: string;
}

const monitoredUserKey = (organizationId: string, botId: string, subjectUserId: string): string => `${organizationId}\u0000${botId}\u0000${subjectUserId}`;
const monitoredUsers = (world: World) => world.data.collection<StoredMonitoredUser>('amlMonitoredUsers').index('byOrganization', (m) => m.org_id);

function present({ id: _key, ...user }: StoredMonitoredUser): MonitoredUser {
  return user;
}

/** A usable interval: a finite number of days, 0 (real time) or more. */
export function hasUsableCadence(bot: AmlBot): bot is AmlBot & { cadenceDays: number } {
  return typeof bot.cadenceDays === 'number' && Number.isFinite(bot.cadenceDays) && bot.cadenceDays >= 0;
}

/** The organization's bot with a usable interval, or ApiError 404 / 400 BOT_CADENCE_INVALID. */
export function requireUsableBot(organization: OrganizationFixture, botId: string): AmlBot & { cadenceDays: number } {
  const bot = organization.amlBots.find((candidate) => candidate.id === botId);
  if (bot === undefined) throw codedError(AML_ERROR_CODES, 'BOT_NOT_FOUND', { botId, known: organization.amlBots.map((b) => b.id) });
  if (!hasUsableCadence(bot)) throw codedError(AML_ERROR_CODES, 'BOT_CADENCE_INVALID', { botId, cadenceDays: bot.cadenceDays });
  return bot;
}

interface SubjectFacts {
  name: string | null;
  country: string;
  source: string;
}

/** What the sandbox knows about a subject, or undefined when it is not known to the organization. */
function knownSubject(world: World, organization: OrganizationFixture, subjectUserId: string): SubjectFacts | undefined {
  const fixture = organization.knownSubjects.find((subject) => subject.id === subjectUserId);
  if (fixture !== undefined) return { name: fixture.name, country: fixture.country ?? 'XX', source: 'fixture subject' };
  const session = sessionsByExternalId(world, organization.id, subjectUserId).at(-1);
  if (session !== undefined) {
    const details = (session.record.meta_data as { applicantSubmissionLocationDetails?: { countryIsoCode?: unknown } } | undefined)
      ?.applicantSubmissionLocationDetails;
    const country = typeof details?.countryIsoCode === 'string' && /^[A-Z]{2}$/.test(details.countryIsoCode) ? details.countryIsoCode : 'XX';
    return { name: `${session.user.first_name} ${session.user.last_name}`, country, source: `external_id of session ${session.id}` };
  }
  const seen = monitoredUsers(world)
    .where('byOrganization', organization.id)
    .find((user) => user.subject_user_id === subjectUserId);
  if (seen !== undefined) return { name: seen.subject_user_name, country: seen.subject_country, source: 'subject seen by Save transactions' };
  return undefined;
}

function schedule(world: World, cadenceDays: number): string {
  return world.clock.iso(world.clock.now() + cadenceDays * DAY_MS);
}

function newEnrolment(
  world: World,
  organizationId: string,
  bot: AmlBot & { cadenceDays: number },
  subjectUserId: string,
  subject: { name: string | null; country: string },
  addedBy: string | null,
): StoredMonitoredUser {
  const nowIso = world.clock.iso();
  return {
    id: monitoredUserKey(organizationId, bot.id, subjectUserId),
    org_id: organizationId,
    bot_id: bot.id,
    subject_user_id: subjectUserId,
    subject_user_name: subject.name,
    subject_country: subject.country,
    status: 'active',
    cadence_days: bot.cadenceDays,
    next_check_at: schedule(world, bot.cadenceDays),
    last_checked_at: null,
    added_at: nowIso,
    added_by: addedBy,
    updated_at: nowIso,
  };
}

export interface EnrolmentAnswer extends Explained<MonitoredUser> {
  created: boolean;
}

/**
 * POST /v1/aml/bots/{bot_id}/monitored-users. A sandbox key gets the full validation and a realistic
 * enrolment, and nothing is stored (spec).
 */
export function enrolMonitoredUser(world: World, principal: Principal, botId: string, subjectUserId: string): EnrolmentAnswer {
  const { organization } = principal;
  const bot = requireUsableBot(organization, botId);
  const subject = knownSubject(world, organization, subjectUserId);
  if (subject === undefined) throw codedError(AML_ERROR_CODES, 'SUBJECT_NOT_KNOWN', { subjectUserId });
  const cadence = bot.cadenceDays === 0 ? 'real time' : `every ${bot.cadenceDays} day(s)`;
  const existing = monitoredUsers(world).get(monitoredUserKey(organization.id, bot.id, subjectUserId));
  if (principal.kind === 'sandbox') {
    return {
      value: present(newEnrolment(world, organization.id, bot, subjectUserId, subject, principal.keyId)),
      created: true,
      explanations: [`sandbox key: validated (${subject.source}) and answered as a new enrolment; nothing stored`],
    };
  }
  if (existing?.status === 'active') {
    return {
      value: present(existing),
      created: false,
      explanations: [`${subjectUserId} already monitored by ${bot.id} since ${existing.added_at}: unchanged, schedule not reset`],
    };
  }
  if (existing !== undefined) {
    const nowIso = world.clock.iso();
    const reactivated = monitoredUsers(world).put({
      ...existing,
      status: 'active',
      cadence_days: bot.cadenceDays,
      next_check_at: schedule(world, bot.cadenceDays),
      added_by: principal.keyId,
      updated_at: nowIso,
    });
    return { value: present(reactivated), created: true, explanations: [`removed enrolment of ${subjectUserId} reactivated under ${bot.id} (${cadence})`] };
  }
  const created = monitoredUsers(world).put(newEnrolment(world, organization.id, bot, subjectUserId, subject, principal.keyId));
  return { value: present(created), created: true, explanations: [`${subjectUserId} (${subject.source}) enrolled under ${bot.id}, checked ${cadence}`] };
}

/**
 * Enrols subjects seen for the first time by Save transactions (no known-subject check: seeing them makes
 * them known). A removed enrolment stays removed. Returns the subjects enrolled.
 */
export function enrolSeenSubjects(
  world: World,
  principal: Principal,
  bot: AmlBot & { cadenceDays: number },
  subjects: readonly { id: string; name: string | null; country: string | null }[],
): string[] {
  const { organization } = principal;
  const enrolled: string[] = [];
  for (const seen of subjects) {
    if (monitoredUsers(world).has(monitoredUserKey(organization.id, bot.id, seen.id))) continue;
    const facts = knownSubject(world, organization, seen.id) ?? { name: seen.name, country: seen.country ?? 'XX' };
    monitoredUsers(world).put(newEnrolment(world, organization.id, bot, seen.id, facts, principal.keyId));
    enrolled.push(seen.id);
  }
  return enrolled;
}

// ─── Control plane ──────────────────────────────────────────────────────────────────────────────────

export function listMonitoredUsers(world: World, organizationId: string, filter: { bot_id?: string; status?: MonitoredUser['status'] }): MonitoredUser[] {
  return monitoredUsers(world)
    .where('byOrganization', organizationId)
    .filter((user) => (filter.bot_id === undefined || user.bot_id === filter.bot_id) && (filter.status === undefined || user.status === filter.status))
    .map(present);
}

/** Marks an enrolment removed (idempotent); ApiError 404 when there is none. */
export function removeMonitoredUser(
  world: World,
  organizationId: string,
  botId: string,
  subjectUserId: string,
): { removed: boolean; monitored_user: MonitoredUser } {
  const existing = monitoredUsers(world).get(monitoredUserKey(organizationId, botId, subjectUserId));
  if (existing === undefined) throw codedError(AML_ERROR_CODES, 'ENROLMENT_NOT_FOUND', { botId, subjectUserId, organizationId });
  if (existing.status === 'removed') return { removed: false, monitored_user: present(existing) };
  const removed = monitoredUsers(world).put({ ...existing, status: 'removed', updated_at: world.clock.iso() });
  return { removed: true, monitored_user: present(removed) };
}
