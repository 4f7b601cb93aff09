/**
 * Adverse media screening: the result an adverse-media job ends with, derived from the person (first
 * name, last name and date of birth, normalized) so the same person always gets the same findings.
 * The route queues the job; the job engine calls `computeAdverseMediaResult` when the job completes.
 *
 * Distribution for names that are not magic: 90% LOW with no findings, 7% MEDIUM, 3% HIGH. CRITICAL
 * and failed jobs come only from magic names (magic-values.ts), so a random test person never looks
 * like a terrorist.
 *
 * Consistency rules (checked by `checkAdverseMediaConsistency`, which the tests run):
 * - riskLevel = the highest finding severity, LOW when there are none;
 * - riskScore lies in the band of riskLevel: LOW 0-29, MEDIUM 30-59, HIGH 60-84, CRITICAL 85-100;
 * - totalHits = findings.length; exposuresByCategory has all nine keys, each `hits` = the findings of
 *   that category, and one article per finding per corroborating source (confirmedBy).
 *
 * LIMITATIONS:
 * - Country and e-mail do not influence the result; articles are dated 2012-2025 whatever the clock.
 * - Headlines come from a small set of templates per category.
 */
import type { JobKind } from '../platform/jobs/jobs.ts';
import { rngFrom, uuidFrom, type Rng } from '../platform/random/random.ts';
import type { AdverseMediaArticle, AdverseMediaFinding, AdverseMediaResult, ExposuresByCategory, RiskLevel } from './adverse-media.schemas.ts';
import {
  type ExposureCategory,
  type FindingSeverity,
  type SourceKind,
  CATEGORIES_BY_SEVERITY,
  CATEGORY_LABELS,
  EXPOSURE_CATEGORIES,
  FINDING_SEVERITIES,
  FINDING_TEMPLATES,
  PLACES,
  SOURCE_KINDS,
  SOURCES,
  type FindingTemplate,
} from './adverse-media.content.ts';
import { asciiExplanation } from './explain.ts';
import { ADVERSE_MEDIA_MAGIC_NAMES, type AdverseMediaMagicName } from './magic-values.ts';
import { normalizeName } from './name-similarity.ts';
import { round } from '../platform/numbers.ts';

export interface AdverseMediaPerson {
  firstName: string;
  lastName: string;
  /** YYYY-MM-DD. */
  dateOfBirth: string;
  country?: string | undefined;
}

export type AdverseMediaOutcome =
  | { status: 'ready'; result: AdverseMediaResult; explanation: string; billable: true }
  | { status: 'failed'; error: string; explanation: string; billable: false };

export const RISK_SCORE_BANDS: Readonly<Record<RiskLevel, { min: number; max: number }>> = {
  LOW: { min: 0, max: 29 },
  MEDIUM: { min: 30, max: 59 },
  HIGH: { min: 60, max: 84 },
  CRITICAL: { min: 85, max: 100 },
};

export function riskLevelForScore(score: number): RiskLevel {
  if (score >= RISK_SCORE_BANDS.CRITICAL.min) return 'CRITICAL';
  if (score >= RISK_SCORE_BANDS.HIGH.min) return 'HIGH';
  if (score >= RISK_SCORE_BANDS.MEDIUM.min) return 'MEDIUM';
  return 'LOW';
}

const SEVERITY_RANK: Readonly<Record<FindingSeverity, number>> = { MEDIUM: 1, HIGH: 2, CRITICAL: 3 };

/** The risk level a set of findings implies: its highest severity, or LOW. */
export function riskLevelForFindings(findings: readonly Pick<AdverseMediaFinding, 'severity'>[]): RiskLevel {
  let level: RiskLevel = 'LOW';
  for (const finding of findings) {
    if (level === 'LOW' || SEVERITY_RANK[finding.severity] > SEVERITY_RANK[level as FindingSeverity]) level = finding.severity;
  }
  return level;
}

export function findAdverseMediaMagicName(firstName: string, lastName: string): AdverseMediaMagicName | undefined {
  const first = normalizeName(firstName);
  const last = normalizeName(lastName);
  return ADVERSE_MEDIA_MAGIC_NAMES.find((row) => normalizeName(row.firstName) === first && normalizeName(row.lastName) === last);
}

export function computeAdverseMediaResult(person: AdverseMediaPerson): AdverseMediaOutcome {
  const displayName = `${person.firstName.trim()} ${person.lastName.trim()}`;
  const magic = findAdverseMediaMagicName(person.firstName, person.lastName);
  if (magic?.effect.kind === 'job-failed') {
    return {
      status: 'failed',
      error: magic.effect.error,
      explanation: asciiExplanation(`magic value: name '${displayName}' -> adverse media job failed (${magic.effect.error})`),
      billable: false,
    };
  }
  const rng = rngFrom('adverse-media', normalizeName(person.firstName), normalizeName(person.lastName), person.dateOfBirth);
  const draw = rng.next();
  const riskLevel: RiskLevel = magic?.effect.kind === 'risk-level' ? magic.effect.riskLevel : draw < 0.9 ? 'LOW' : draw < 0.97 ? 'MEDIUM' : 'HIGH';
  const result = buildResult(person, displayName, riskLevel, rng);
  const why = magic ? `magic value: name '${displayName}'` : `derived from name and date of birth`;
  return {
    status: 'ready',
    result,
    explanation: asciiExplanation(`${why} -> adverse media ${result.riskLevel} (score ${result.riskScore}, ${result.totalHits} findings)`),
    billable: true,
  };
}

export const ADVERSE_MEDIA_JOB_KIND = 'adverse-media';

/**
 * The job kind of POST /v1/screening/adverse-media and of the ADVERSE_MEDIA and BACKGROUND_CHECK steps:
 * the result is computed from the person when the job completes. Declared in src/modules.ts, so every
 * platform has it from the start, whichever area's request creates or reads a job first.
 */
export const adverseMediaJobKind: JobKind = {
  name: ADVERSE_MEDIA_JOB_KIND,
  run(input) {
    const outcome = computeAdverseMediaResult(input as AdverseMediaPerson);
    return outcome.status === 'ready'
      ? { result: outcome.result, explanation: outcome.explanation }
      : { error: outcome.error, explanation: outcome.explanation };
  },
};

const pad = (n: number) => String(n).padStart(2, '0');

function severitiesFor(level: RiskLevel, rng: Rng): FindingSeverity[] {
  switch (level) {
    case 'LOW':
      return [];
    case 'MEDIUM':
      return Array.from({ length: rng.int(1, 2) }, () => 'MEDIUM' as const);
    case 'HIGH':
      return ['HIGH', ...Array.from({ length: rng.int(1, 3) }, () => rng.pick(['MEDIUM', 'HIGH'] as const))];
    case 'CRITICAL':
      return ['CRITICAL', ...Array.from({ length: rng.int(2, 4) }, () => rng.pick(FINDING_SEVERITIES))];
  }
}

function primarySourceFor(category: ExposureCategory, rng: Rng): SourceKind {
  if (category === 'court_records' || category === 'criminal_legal') return rng.chance(0.7) ? 'court-records' : 'news';
  if (category === 'terrorism') return rng.chance(0.6) ? 'watchlist-database' : 'news';
  if (category === 'regulatory') return rng.chance(0.4) ? 'watchlist-database' : 'news';
  return 'news';
}

function slug(text: string): string {
  return normalizeName(text).split(' ').slice(0, 8).join('-');
}

interface Draft {
  finding: AdverseMediaFinding;
  articles: AdverseMediaArticle[];
}

/** A category and template not used yet in this result (so no two findings read the same). */
function pickTemplate(severity: FindingSeverity, used: Set<FindingTemplate>, rng: Rng): { category: ExposureCategory; template: FindingTemplate } {
  const options = CATEGORIES_BY_SEVERITY[severity].flatMap((category) =>
    FINDING_TEMPLATES[category].filter((template) => !used.has(template)).map((template) => ({ category, template })),
  );
  const choice = rng.pick(options);
  used.add(choice.template);
  return choice;
}

function buildFinding(person: AdverseMediaPerson, displayName: string, severity: FindingSeverity, index: number, used: Set<FindingTemplate>, rng: Rng): Draft {
  const { category, template } = pickTemplate(severity, used, rng);
  const place = rng.pick(PLACES);
  const fill = (text: string) => text.replaceAll('{name}', displayName).replaceAll('{place}', place);
  const title = fill(template.title);
  const primary = primarySourceFor(category, rng);
  const confirmedBy = SOURCE_KINDS.filter((kind) => kind === primary || rng.chance(0.35));

  const birthYear = Number(person.dateOfBirth.slice(0, 4));
  const maxYear = 2025;
  const minYear = Math.min(maxYear, Math.max(2012, birthYear + 18));
  const undated = primary === 'watchlist-database' && rng.chance(0.5);
  const articleDate = undated ? null : `${rng.int(minYear, maxYear)}-${pad(rng.int(1, 12))}-${pad(rng.int(1, 28))}`;
  const timestamp = articleDate === null ? null : `${articleDate}T${pad(rng.int(6, 21))}:${pad(rng.int(0, 59))}:00.000Z`;
  const findingId = uuidFrom('adverse-media-finding', normalizeName(person.firstName), normalizeName(person.lastName), person.dateOfBirth, index);

  const linkFor = (kind: SourceKind) => {
    const source = rng.pick(SOURCES[kind]);
    const year = articleDate?.slice(0, 4) ?? 'undated';
    return { name: source.name, url: source.urlBase === null ? null : `${source.urlBase}/${year}/${slug(title)}-${findingId.slice(0, 8)}` };
  };
  const links = new Map(confirmedBy.map((kind) => [kind, linkFor(kind)] as const));
  const primaryLink = links.get(primary) ?? { name: null, url: null };

  const finding: AdverseMediaFinding = {
    findingId,
    severity,
    category,
    title,
    detail: fill(template.detail),
    sourceUrl: primaryLink.url,
    sourceName: primaryLink.name,
    articleDate,
    confidence: round(rng.float(severity === 'MEDIUM' ? 0.55 : 0.7, 0.98), 2),
    confirmedBy: [...confirmedBy],
  };
  const articles = confirmedBy.map(
    (kind): AdverseMediaArticle => ({
      timestamp,
      headline: kind === primary ? title : `${title} (${kind === 'court-records' ? 'court filing' : kind === 'news' ? 'press report' : 'watchlist entry'})`,
      sourceLink: links.get(kind)?.url ?? null,
      source: kind,
    }),
  );
  return { finding, articles };
}

function emptyExposures(): ExposuresByCategory {
  return Object.fromEntries(EXPOSURE_CATEGORIES.map((category) => [category, { hits: 0, articles: [] }])) as unknown as ExposuresByCategory;
}

function buildResult(person: AdverseMediaPerson, displayName: string, riskLevel: RiskLevel, rng: Rng): AdverseMediaResult {
  const severities = severitiesFor(riskLevel, rng).sort((a, b) => SEVERITY_RANK[b] - SEVERITY_RANK[a]);
  const used = new Set<FindingTemplate>();
  const drafts = severities.map((severity, index) => buildFinding(person, displayName, severity, index, used, rng));
  const exposuresByCategory = emptyExposures();
  for (const draft of drafts) {
    const bucket = exposuresByCategory[draft.finding.category as ExposureCategory];
    bucket.hits += 1;
    bucket.articles.push(...draft.articles);
  }
  const band = RISK_SCORE_BANDS[riskLevel];
  const riskScore = riskLevel === 'LOW' ? rng.int(0, 12) : Math.min(band.max, band.min + rng.int(0, band.max - band.min - 6) + 2 * (drafts.length - 1));
  const findings = drafts.map((draft) => draft.finding);
  return {
    totalHits: findings.length,
    riskLevel,
    riskScore,
    summary: summaryFor(displayName, riskLevel, findings),
    findings,
    exposuresByCategory,
  };
}

function summaryFor(displayName: string, riskLevel: RiskLevel, findings: readonly AdverseMediaFinding[]): string {
  if (findings.length === 0) return `No adverse media found for ${displayName} in news, court records or watchlist databases.`;
  const categories = [...new Set(findings.map((finding) => CATEGORY_LABELS[finding.category as ExposureCategory]))];
  const noun = findings.length === 1 ? 'finding' : 'findings';
  return `${findings.length} adverse media ${noun} for ${displayName} (${riskLevel} risk): ${categories.join(', ')}.`;
}

/** Every consistency rule of the module comment; returns the broken ones (empty when consistent). */
export function checkAdverseMediaConsistency(result: AdverseMediaResult): string[] {
  const problems: string[] = [];
  if (result.totalHits !== result.findings.length) problems.push(`totalHits ${result.totalHits} != findings ${result.findings.length}`);
  if (riskLevelForScore(result.riskScore) !== result.riskLevel) problems.push(`riskScore ${result.riskScore} is outside the ${result.riskLevel} band`);
  if (riskLevelForFindings(result.findings) !== result.riskLevel) problems.push(`riskLevel ${result.riskLevel} != highest finding severity`);
  for (const category of EXPOSURE_CATEGORIES) {
    const bucket = result.exposuresByCategory[category];
    const inCategory = result.findings.filter((finding) => finding.category === category);
    if (bucket.hits !== inCategory.length) problems.push(`${category}.hits ${bucket.hits} != ${inCategory.length} findings`);
    const expectedArticles = inCategory.reduce((sum, finding) => sum + finding.confirmedBy.length, 0);
    if (bucket.articles.length !== expectedArticles) problems.push(`${category} has ${bucket.articles.length} articles, expected ${expectedArticles}`);
  }
  const ids = new Set(result.findings.map((finding) => finding.findingId));
  if (ids.size !== result.findings.length) problems.push('findingIds are not unique');
  return problems;
}

/** The session record's analysis_data.adverse_media_data member. */
export interface AdverseMediaData {
  total_hits: number;
  news_exposures: Record<ExposureCategory, { hits: number; articles: { timestamp: string; headline: string; source_link: string; body: string }[] }>;
}

/**
 * A result as a session records it (analysis_data.adverse_media_data: total_hits and news_exposures, every
 * category present). An article's body is its finding's detail; an undated watchlist entry or a source
 * without a link gives an empty string, since the session shape has no nulls there.
 */
export function toAdverseMediaData(result: AdverseMediaResult): AdverseMediaData {
  const detailOf = (headline: string) => result.findings.find((finding) => headline.startsWith(finding.title))?.detail ?? headline;
  const news_exposures = Object.fromEntries(
    EXPOSURE_CATEGORIES.map((category) => {
      const bucket = result.exposuresByCategory[category];
      const articles = bucket.articles.map((article) => ({
        timestamp: article.timestamp ?? '',
        headline: article.headline,
        source_link: article.sourceLink ?? '',
        body: detailOf(article.headline),
      }));
      return [category, { hits: bucket.hits, articles }];
    }),
  ) as AdverseMediaData['news_exposures'];
  return { total_hits: result.totalHits, news_exposures };
}
