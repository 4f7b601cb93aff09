import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { generateWatchlists, serializeWatchlist, WATCHLIST_PATH } from '../../scripts/generate-watchlists.ts';
import { confidenceFor, dateOfBirthAgreement, MATCH_THRESHOLD, screenPepSanctions, scoreEntry } from '../../src/screening/pep-sanctions.service.ts';
import { defaultWatchlist } from '../../src/screening/pep-sanctions.watchlist.ts';
import { PepSanctionsResponseSchema, type Watchlist, WatchlistSchema, type WatchlistEntry } from '../../src/screening/pep-sanctions.schemas.ts';
import watchlistJson from '../../fixtures/watchlists.json' with { type: 'json' };
import { normalizeName } from '../../src/screening/name-similarity.ts';

const watchlist = defaultWatchlist();

function entry(partial: Partial<WatchlistEntry> & Pick<WatchlistEntry, 'id' | 'dataset' | 'name'>): WatchlistEntry {
  return { aliases: [], country: null, dateOfBirth: null, remarks: '', ...partial };
}

/** A small hand-made list so each matching rule can be seen in isolation. */
function tinyList(entries: WatchlistEntry[]): Watchlist {
  return {
    version: 1,
    generatedBy: 'test',
    seed: 0,
    datasets: [
      { id: 'pep-a', title: 'PEP A', kind: 'pep', description: '' },
      { id: 'san-b', title: 'Sanctions B', kind: 'sanctions', description: '' },
      { id: 'san-c', title: 'Sanctions C', kind: 'sanctions', description: '' },
    ],
    entries,
  };
}

describe('the watchlist fixture', () => {
  it('is exactly what scripts/generate-watchlists.ts produces', () => {
    expect(readFileSync(WATCHLIST_PATH, 'utf8')).toBe(serializeWatchlist(generateWatchlists()));
  });

  it('passes its schema unchanged, so screening reads it as it is, never parsing it again', () => {
    expect(WatchlistSchema.parse(watchlist)).toEqual(watchlist);
    expect(defaultWatchlist()).toBe(watchlistJson);
  });

  it('holds a few hundred entries across two PEP and four sanctions datasets', () => {
    expect(watchlist.datasets.map((d) => `${d.id}:${d.kind}`)).toEqual([
      'sandbox-pep-global:pep',
      'sandbox-pep-relatives-associates:pep',
      'sandbox-ofac-like-sdn:sanctions',
      'sandbox-eu-consolidated:sanctions',
      'sandbox-un-security-council:sanctions',
      'sandbox-uk-hmt:sanctions',
    ]);
    expect(watchlist.entries.length).toBeGreaterThanOrEqual(300);
    expect(watchlist.entries.length).toBeLessThanOrEqual(600);
    for (const dataset of watchlist.datasets) expect(watchlist.entries.filter((e) => e.dataset === dataset.id).length).toBeGreaterThanOrEqual(25);
  });

  it('has names with diacritics, many nationalities, unknown dates of birth and persons on both kinds of list', () => {
    expect(watchlist.entries.filter((e) => /[^\x00-\x7f]/.test(e.name)).length).toBeGreaterThan(50);
    expect(new Set(watchlist.entries.map((e) => e.country)).size).toBeGreaterThan(20);
    expect(watchlist.entries.filter((e) => e.dateOfBirth === null).length).toBeGreaterThan(30);
    const kindsByName = new Map<string, Set<string>>();
    const kindOf = new Map(watchlist.datasets.map((d) => [d.id, d.kind]));
    for (const e of watchlist.entries) {
      const key = normalizeName(e.name);
      kindsByName.set(key, (kindsByName.get(key) ?? new Set()).add(kindOf.get(e.dataset) ?? ''));
    }
    expect([...kindsByName.values()].filter((kinds) => kinds.size === 2).length).toBeGreaterThanOrEqual(20);
  });

  it('prints names in ASCII on the US- and UN-style lists', () => {
    const asciiLists = watchlist.entries.filter((e) => e.dataset === 'sandbox-ofac-like-sdn' || e.dataset === 'sandbox-un-security-council');
    expect(asciiLists.every((e) => /^[\x00-\x7f]+$/.test(e.name))).toBe(true);
  });
});

describe('confidence', () => {
  it('classifies date of birth agreement', () => {
    expect(dateOfBirthAgreement('1960-01-02', '1960-01-02')).toBe('same-date');
    expect(dateOfBirthAgreement('1960-01-02', null)).toBe('unknown');
    expect(dateOfBirthAgreement('1960-01-02', '1960-07-09')).toBe('same-year');
    expect(dateOfBirthAgreement('1960-01-02', '1961-01-02')).toBe('one-year-apart');
    expect(dateOfBirthAgreement('1960-01-02', '1970-01-02')).toBe('different');
  });

  it('raises confidence for the same date and lowers it for a different one', () => {
    expect(confidenceFor(0.9, 'same-date')).toBeCloseTo(0.95, 10);
    expect(confidenceFor(1, 'unknown')).toBeCloseTo(0.92, 10);
    expect(confidenceFor(1, 'same-year')).toBeCloseTo(0.9, 10);
    expect(confidenceFor(1, 'one-year-apart')).toBeCloseTo(0.8, 10);
    expect(confidenceFor(1, 'different')).toBeCloseTo(0.5, 10);
  });
});

describe('screenPepSanctions', () => {
  const list = tinyList([
    entry({ id: '1', dataset: 'pep-a', name: 'Jürgen WEBER', country: 'DE', dateOfBirth: '1961-03-04' }),
    entry({ id: '2', dataset: 'san-b', name: 'Jurgen WEBER', country: null, dateOfBirth: null }),
    entry({ id: '3', dataset: 'san-c', name: 'Jürgen WEBER', country: 'DE', dateOfBirth: '1961-03-04' }),
    entry({ id: '4', dataset: 'san-b', name: 'Jürgen WEBER', country: 'AT', dateOfBirth: '1990-10-10' }),
    entry({ id: '5', dataset: 'san-b', name: 'Anna Maria KOWALSKA', country: 'PL', dateOfBirth: null, aliases: ['Anna KOVALSKA'] }),
  ]);

  it('matches regardless of diacritics, case and order, and merges one person across lists', () => {
    const { value: response } = screenPepSanctions({ firstName: 'WEBER', lastName: 'jurgen', dateOfBirth: '1961-03-04' }, list);
    expect(PepSanctionsResponseSchema.parse(response)).toEqual(response);
    expect(response).toEqual({
      totalMatches: 1,
      peps: [],
      sanctions: [],
      both: [{ name: 'Jürgen WEBER', country: 'DE', dateOfBirth: '1961-03-04', confidence: 1, datasets: ['PEP A', 'Sanctions B', 'Sanctions C'] }],
      searchedSources: ['pep-a', 'san-b', 'san-c'],
    });
  });

  it('keeps a namesake with a different date of birth apart, below the threshold', () => {
    const scored = scoreEntry({ firstName: 'Jürgen', lastName: 'Weber', dateOfBirth: '1961-03-04' }, list.entries[3] as WatchlistEntry);
    expect(scored?.confidence).toBe(0.5);
    expect(scored?.confidence).toBeLessThan(MATCH_THRESHOLD);
  });

  it('reports the namesake instead when the date of birth is his', () => {
    const { value: response } = screenPepSanctions({ firstName: 'Jürgen', lastName: 'Weber', dateOfBirth: '1990-10-10' }, list);
    expect(response.totalMatches).toBe(1);
    expect(response.sanctions).toEqual([{ name: 'Jürgen WEBER', country: 'AT', dateOfBirth: '1990-10-10', confidence: 1, datasets: ['Sanctions B'] }]);
  });

  it('matches an initial for a first name, with a lower confidence', () => {
    const { value: response } = screenPepSanctions({ firstName: 'J.', lastName: 'Weber', dateOfBirth: '1961-03-04' }, list);
    expect(response.both).toHaveLength(1);
    expect(response.both[0]?.confidence).toBe(0.97);
  });

  it('matches through an alias, discounted for the unknown date of birth', () => {
    const { value: response } = screenPepSanctions({ firstName: 'Anna', lastName: 'Kovalska', dateOfBirth: '1970-01-01' }, list);
    expect(response.sanctions).toEqual([{ name: 'Anna Maria KOWALSKA', country: 'PL', dateOfBirth: null, confidence: 0.92, datasets: ['Sanctions B'] }]);
  });

  it('finds nobody for an unrelated name and still lists every searched source', () => {
    const { value: response, explanations } = screenPepSanctions({ firstName: 'Zebulon', lastName: 'Quarrington', dateOfBirth: '1970-01-01' }, list);
    expect(response).toEqual({ totalMatches: 0, peps: [], sanctions: [], both: [], searchedSources: ['pep-a', 'san-b', 'san-c'] });
    expect(explanations).toEqual(['no list entry reaches name similarity 0.8 and confidence 0.85 -> 0 matches']);
  });

  it('matches the fixture magic person on both kinds of list when typed without accents', () => {
    const { value: response } = screenPepSanctions({ firstName: 'emile', lastName: 'VAUTRIN LACOSTE', dateOfBirth: '1955-11-23' }, watchlist);
    expect(response.totalMatches).toBe(1);
    expect(response.both[0]).toEqual({
      name: 'Émile VAUTRIN-LACOSTE',
      country: 'FR',
      dateOfBirth: '1955-11-23',
      confidence: 1,
      datasets: ['Sandbox Global PEP List', 'Sandbox EU Consolidated Financial Sanctions List', 'Sandbox UN Security Council Consolidated List'],
    });
  });

  it('explains itself in ASCII, folding the listed spelling', () => {
    const [explanation] = screenPepSanctions({ firstName: 'Émile', lastName: 'Vautrin-Lacoste', dateOfBirth: '1955-11-23' }, watchlist).explanations;
    expect(explanation).toMatch(/^[\x20-\x7e]+$/);
    expect(explanation).toContain('Emile VAUTRIN-LACOSTE 1 (name 1.00, dob same-date, 3 lists)');
  });

  it('finds every generated entry by its own name and date of birth', () => {
    const kindOf = new Map(watchlist.datasets.map((d) => [d.id, d.kind]));
    for (const listed of watchlist.entries.filter((e) => e.dateOfBirth !== null).slice(0, 60)) {
      const [first, ...rest] = listed.name.split(' ');
      const { value: response } = screenPepSanctions(
        { firstName: first as string, lastName: rest.join(' '), dateOfBirth: listed.dateOfBirth as string },
        watchlist,
      );
      const all = [...response.peps, ...response.sanctions, ...response.both];
      const hit = all.find((m) => normalizeName(m.name) === normalizeName(listed.name));
      expect(hit?.confidence, listed.name).toBe(1);
      const title = watchlist.datasets.find((d) => d.id === listed.dataset)?.title;
      expect(hit?.datasets).toContain(title);
      const group = response.both.includes(hit as never) ? 'both' : kindOf.get(listed.dataset) === 'pep' ? 'peps' : 'sanctions';
      expect(response[group]).toContain(hit);
    }
  });
});

describe('screening cost', () => {
  it('normalizes the list’s names once per process: a later screening normalizes only its own query and matches', () => {
    const person = { firstName: 'Maria', lastName: 'Keller', dateOfBirth: '1975-06-01' };
    const first = screenPepSanctions(person, watchlist);
    const names = watchlist.entries.reduce((count, listed) => count + 1 + listed.aliases.length, 0);
    const normalize = vi.spyOn(String.prototype, 'normalize');
    try {
      expect(screenPepSanctions(person, watchlist)).toEqual(first);
      // The query, the explanation's query and magic names, each match's group key: a handful, never the list.
      expect(normalize.mock.calls.length).toBeLessThan(names / 10);
    } finally {
      normalize.mockRestore();
    }
  });
});
