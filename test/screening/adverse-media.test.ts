import { describe, expect, it } from 'vitest';
import {
  checkAdverseMediaConsistency,
  computeAdverseMediaResult,
  findAdverseMediaMagicName,
  riskLevelForFindings,
  riskLevelForScore,
  type AdverseMediaOutcome,
} from '../../src/screening/adverse-media.service.ts';
import { EXPOSURE_CATEGORIES, SOURCE_KINDS } from '../../src/screening/adverse-media.content.ts';
import { AdverseMediaResultSchema, type AdverseMediaResult } from '../../src/screening/adverse-media.schemas.ts';

function ready(outcome: AdverseMediaOutcome): AdverseMediaResult {
  if (outcome.status !== 'ready') throw new Error(`expected ready, got ${outcome.status}`);
  expect(AdverseMediaResultSchema.parse(outcome.result)).toEqual(outcome.result);
  return outcome.result;
}

const people = Array.from({ length: 400 }, (_, i) => ({
  firstName: `Person${i}`,
  lastName: 'Testcase',
  dateOfBirth: `19${50 + (i % 50)}-0${1 + (i % 9)}-1${i % 10}`,
}));

describe('risk level rules', () => {
  it('maps scores to bands LOW 0-29, MEDIUM 30-59, HIGH 60-84, CRITICAL 85-100', () => {
    expect([0, 29, 30, 59, 60, 84, 85, 100].map(riskLevelForScore)).toEqual(['LOW', 'LOW', 'MEDIUM', 'MEDIUM', 'HIGH', 'HIGH', 'CRITICAL', 'CRITICAL']);
  });

  it('takes the highest finding severity as the level, LOW without findings', () => {
    expect(riskLevelForFindings([])).toBe('LOW');
    expect(riskLevelForFindings([{ severity: 'MEDIUM' }, { severity: 'HIGH' }, { severity: 'MEDIUM' }])).toBe('HIGH');
    expect(riskLevelForFindings([{ severity: 'HIGH' }, { severity: 'CRITICAL' }])).toBe('CRITICAL');
  });

  it('flags an inconsistent result', () => {
    const result = ready(computeAdverseMediaResult({ firstName: 'Harper', lastName: 'High', dateOfBirth: '1980-01-01' }));
    expect(checkAdverseMediaConsistency({ ...result, totalHits: result.totalHits + 1, riskScore: 10 })).toEqual([
      `totalHits ${result.totalHits + 1} != findings ${result.totalHits}`,
      'riskScore 10 is outside the HIGH band',
    ]);
  });
});

describe('computeAdverseMediaResult', () => {
  it('gives the same result for the same person every time', () => {
    const person = { firstName: 'Cyrus', lastName: 'Critical', dateOfBirth: '1970-05-05' };
    expect(computeAdverseMediaResult(person)).toEqual(computeAdverseMediaResult({ ...person }));
  });

  it('derives from name and date of birth only: another date gives other findings, e-mail and country change nothing', () => {
    const a = ready(computeAdverseMediaResult({ firstName: 'Harper', lastName: 'High', dateOfBirth: '1970-05-05', country: 'GB' }));
    const b = ready(computeAdverseMediaResult({ firstName: 'HARPER', lastName: 'high', dateOfBirth: '1970-05-05', country: 'US' }));
    const c = ready(computeAdverseMediaResult({ firstName: 'Harper', lastName: 'High', dateOfBirth: '1971-05-05' }));
    expect(b.findings.map((f) => f.findingId)).toEqual(a.findings.map((f) => f.findingId));
    expect(c.findings.map((f) => f.findingId)).not.toEqual(a.findings.map((f) => f.findingId));
  });

  it('keeps every result of 400 people consistent and schema-valid', () => {
    for (const person of people) {
      const result = ready(computeAdverseMediaResult(person));
      expect(checkAdverseMediaConsistency(result), JSON.stringify(person)).toEqual([]);
      expect(Object.keys(result.exposuresByCategory).sort()).toEqual([...EXPOSURE_CATEGORIES].sort());
    }
  });

  it('leaves most people clean: LOW with no findings for at least 80%, never CRITICAL or failed without a magic name', () => {
    const outcomes = people.map(computeAdverseMediaResult);
    const levels = outcomes.map((o) => (o.status === 'ready' ? o.result.riskLevel : 'failed'));
    expect(levels.filter((level) => level === 'LOW').length / people.length).toBeGreaterThan(0.8);
    expect(levels).not.toContain('CRITICAL');
    expect(levels).not.toContain('failed');
    for (const outcome of outcomes) if (outcome.status === 'ready' && outcome.result.riskLevel === 'LOW') expect(outcome.result.totalHits).toBe(0);
  });

  it('fills findings with every member and articles from all three source kinds', () => {
    const result = ready(computeAdverseMediaResult({ firstName: 'Cyrus', lastName: 'Critical', dateOfBirth: '1970-05-05' }));
    expect(result.findings.length).toBeGreaterThanOrEqual(3);
    for (const finding of result.findings) {
      expect(Object.keys(finding).sort()).toEqual([
        'articleDate',
        'category',
        'confidence',
        'confirmedBy',
        'detail',
        'findingId',
        'severity',
        'sourceName',
        'sourceUrl',
        'title',
      ]);
      expect(finding.confirmedBy.length).toBeGreaterThan(0);
      expect(finding.title).toContain('Cyrus Critical');
    }
    const sources = new Set<string>();
    for (let i = 0; i < 10; i++) {
      const other = ready(computeAdverseMediaResult({ firstName: 'Cyrus', lastName: 'Critical', dateOfBirth: `19${60 + i}-01-01` }));
      for (const bucket of Object.values(other.exposuresByCategory)) for (const article of bucket.articles) sources.add(article.source);
    }
    expect([...sources].sort()).toEqual([...SOURCE_KINDS].sort());
  });

  it('writes a summary naming the person and the level', () => {
    expect(ready(computeAdverseMediaResult({ firstName: 'Clara', lastName: 'Clean', dateOfBirth: '1990-01-01' })).summary).toBe(
      'No adverse media found for Clara Clean in news, court records or watchlist databases.',
    );
    expect(ready(computeAdverseMediaResult({ firstName: 'Morgan', lastName: 'Medium', dateOfBirth: '1990-01-01' })).summary).toMatch(
      /^\d adverse media findings? for Morgan Medium \(MEDIUM risk\): /,
    );
  });

  it('recognises magic names whatever their case or accents', () => {
    expect(findAdverseMediaMagicName('  fay ', 'FAILURE')?.effect).toEqual({ kind: 'job-failed', error: 'upstream timeout' });
    expect(findAdverseMediaMagicName('Cýrus', 'Crítical')?.effect).toEqual({ kind: 'risk-level', riskLevel: 'CRITICAL' });
    expect(findAdverseMediaMagicName('Cyrus', 'Criticalx')).toBeUndefined();
  });
});
