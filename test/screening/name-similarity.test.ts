import { describe, expect, it } from 'vitest';
import {
  editSimilarity,
  foldToAscii,
  INITIAL_SIMILARITY,
  nameSimilarity,
  nameTokens,
  normalizeName,
  tokenSetSimilarity,
  tokenSimilarity,
} from '../../src/screening/name-similarity.ts';

describe('normalizeName', () => {
  it('folds diacritics, case and punctuation', () => {
    expect(normalizeName('Émile VAUTRIN-LACOSTE')).toBe('emile vautrin lacoste');
    expect(normalizeName("Seán O'Brien")).toBe('sean obrien');
    expect(normalizeName('  Łukasz   Wałęsa ')).toBe('lukasz walesa');
    expect(normalizeName('Jürgen Weiß')).toBe('jurgen weiss');
    expect(normalizeName('Søren Ærø')).toBe('soren aero');
    expect(normalizeName('Nihad VƏLIYEV')).toBe('nihad veliyev');
    expect(normalizeName('Như Trân ĐÀO')).toBe('nhu tran dao');
    expect(normalizeName('J. R. R. Tolkien')).toBe('j r r tolkien');
  });

  it('keeps case when only folding to ASCII', () => {
    expect(foldToAscii('Émile Ðurić')).toBe('Emile Duric');
  });

  it('splits into tokens and gives none for punctuation only', () => {
    expect(nameTokens('Vautrin-Lacoste, Émile')).toEqual(['vautrin', 'lacoste', 'emile']);
    expect(nameTokens(' .-, ')).toEqual([]);
  });
});

describe('nameSimilarity', () => {
  const score = (a: string, b: string) => nameSimilarity(nameTokens(a), nameTokens(b)).score;

  it('is 1 for the same name in any order, case or accenting', () => {
    expect(score('Emile Vautrin-Lacoste', 'Émile VAUTRIN-LACOSTE')).toBe(1);
    expect(score('Lacoste Vautrin Emile', 'Émile VAUTRIN-LACOSTE')).toBe(1);
  });

  it('pairs an initial with the word it abbreviates', () => {
    expect(tokenSimilarity('j', 'john')).toBe(INITIAL_SIMILARITY);
    expect(tokenSimilarity('k', 'john')).toBe(0);
    expect(score('J. Smith', 'John Smith')).toBeCloseTo(Math.sqrt(0.9), 10);
  });

  it('never matches on initials alone', () => {
    expect(score('J. S.', 'John Smith')).toBe(0);
  });

  it('discounts each unpaired token by 0.95', () => {
    expect(score('Emile Lacoste', 'Emile Vautrin Lacoste')).toBeCloseTo(0.95, 10);
  });

  it('keeps a shared surname with an unrelated given name low', () => {
    expect(score('Dorothea Brackenbury', 'Ottoline BRACKENBURY')).toBeLessThan(0.8);
    expect(score('John Smith', 'Maria Smith')).toBeLessThan(0.8);
  });

  it('stays high for a one-letter typo', () => {
    expect(score('Ottoline Brakenbury', 'Ottoline BRACKENBURY')).toBeGreaterThan(0.95);
  });
});

describe('editSimilarity and tokenSetSimilarity', () => {
  it('is one minus the Levenshtein distance over the longer length', () => {
    expect(editSimilarity('Jon', 'John')).toBe(0.75);
    expect(editSimilarity('Smyth', 'Smith')).toBe(0.8);
    expect(editSimilarity('ÉMILE', 'emile')).toBe(1);
    expect(editSimilarity('abc', 'xyz')).toBe(0);
  });

  it('compares addresses as word sets, forgiving word order and small typos', () => {
    expect(tokenSetSimilarity('10 Downing Street, London', 'london 10 downing street')).toBe(1);
    expect(tokenSetSimilarity('10 Downing Stret, London', '10 Downing Street, London')).toBe(1);
    expect(tokenSetSimilarity('11 Downing Street, London', '10 Downing Street, London')).toBe(0.75);
    expect(tokenSetSimilarity('1 Quay Road', '99 Elm Avenue')).toBe(0);
  });
});
