/**
 * Name normalization and string similarity shared by the screening checks: watchlist matching
 * (PEP and sanctions) and the carrier name score of phone ownership.
 *
 * - `normalizeName` folds diacritics, case and punctuation so 'Émile Vautrin-Lacoste',
 *   'EMILE VAUTRIN LACOSTE' and 'emile vautrin lacoste' are the same string.
 * - `nameSimilarity` compares two token lists independent of order, accepts initials ('J.' for
 *   'John') and scores each token pair with Jaro-Winkler (talisman), which is forgiving of typos and
 *   transliteration variants at the start-weighted end of names.
 * - `editSimilarity` is a normalized Levenshtein similarity, the measure behind the phone ownership
 *   scores: 'Jon' vs 'John' is 0.75, 'Smyth' vs 'Smith' is 0.8, unrelated names are near 0.
 *
 * LIMITATIONS:
 * - No nickname dictionary ('Bill' does not match 'William') and no phonetic keys.
 * - Only Latin-script folding; Cyrillic, Arabic or CJK names are compared as written.
 */
import jaroWinkler from 'talisman/metrics/jaro-winkler.js';
import levenshtein from 'talisman/metrics/levenshtein.js';

/** Letters that Unicode decomposition does not reduce to a base letter plus a mark. */
const SPECIAL_LETTERS: Readonly<Record<string, string>> = {
  ß: 'ss',
  ẞ: 'SS',
  ø: 'o',
  Ø: 'O',
  ł: 'l',
  Ł: 'L',
  đ: 'd',
  Đ: 'D',
  ð: 'd',
  Ð: 'D',
  æ: 'ae',
  Æ: 'AE',
  œ: 'oe',
  Œ: 'OE',
  þ: 'th',
  Þ: 'TH',
  ı: 'i',
  ħ: 'h',
  Ħ: 'H',
  ŧ: 't',
  Ŧ: 'T',
  ə: 'e',
  Ə: 'E',
  ŋ: 'ng',
  Ŋ: 'NG',
};

/** Removes diacritics ('Émile' -> 'Emile', 'Łukasz' -> 'Lukasz', 'Weiß' -> 'Weiss'); keeps case. */
export function foldToAscii(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .replace(/[ßẞøØłŁđĐðÐæÆœŒþÞıħĦŧŦəƏŋŊ]/g, (ch) => SPECIAL_LETTERS[ch] ?? ch);
}

/**
 * Lower-case ASCII words separated by single spaces. Apostrophes join ("O'Brien" -> 'obrien');
 * every other punctuation mark separates ('Vautrin-Lacoste' -> 'vautrin lacoste', 'J.' -> 'j').
 */
export function normalizeName(text: string): string {
  return foldToAscii(text)
    .toLowerCase()
    .replace(/['\u2019`\u00b4]/g, '')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

export function nameTokens(text: string): string[] {
  const normalized = normalizeName(text);
  return normalized === '' ? [] : normalized.split(' ');
}

/** Similarity of an initial with the word it abbreviates: strong, but below an exact word. */
export const INITIAL_SIMILARITY = 0.9;
/** Each token of one name with no counterpart in the other (a middle name, a second surname). */
export const UNMATCHED_TOKEN_FACTOR = 0.95;

/** Similarity of two normalized tokens in [0, 1]. */
export function tokenSimilarity(a: string, b: string): number {
  if (a === b) return 1;
  if (a.length === 1 || b.length === 1) {
    const [initial, word] = a.length === 1 ? [a, b] : [b, a];
    return word.length > 1 && word.startsWith(initial) ? INITIAL_SIMILARITY : 0;
  }
  return jaroWinkler(a, b);
}

export interface TokenPair {
  query: string;
  candidate: string;
  similarity: number;
}

export interface NameSimilarity {
  /** 0..1: geometric mean of the paired tokens, discounted per unpaired token. */
  score: number;
  pairs: TokenPair[];
}

/**
 * Order-independent name similarity. Tokens are paired greedily, best pair first; the score is the
 * geometric mean of the pair similarities (one bad token drags the score down far more than with an
 * arithmetic mean, so 'John Smith' vs 'Maria Smith' stays low), times UNMATCHED_TOKEN_FACTOR per
 * token left without a partner. Initials alone never make a match: at least one pair must be two
 * whole words.
 */
export function nameSimilarity(query: readonly string[], candidate: readonly string[]): NameSimilarity {
  if (query.length === 0 || candidate.length === 0) return { score: 0, pairs: [] };
  const all: { i: number; j: number; similarity: number }[] = [];
  query.forEach((q, i) => candidate.forEach((c, j) => all.push({ i, j, similarity: tokenSimilarity(q, c) })));
  // Best first; ties resolved by position so the pairing is deterministic.
  all.sort((x, y) => y.similarity - x.similarity || x.i - y.i || x.j - y.j);
  const usedQuery = new Set<number>();
  const usedCandidate = new Set<number>();
  const pairs: TokenPair[] = [];
  for (const pair of all) {
    if (usedQuery.has(pair.i) || usedCandidate.has(pair.j)) continue;
    usedQuery.add(pair.i);
    usedCandidate.add(pair.j);
    pairs.push({ query: query[pair.i] as string, candidate: candidate[pair.j] as string, similarity: pair.similarity });
  }
  const wholeWordPair = pairs.some((p) => p.query.length > 1 && p.candidate.length > 1 && p.similarity > 0);
  if (!wholeWordPair) return { score: 0, pairs };
  const product = pairs.reduce((acc, p) => acc * p.similarity, 1);
  const geometricMean = Math.pow(product, 1 / pairs.length);
  const unpaired = query.length + candidate.length - 2 * pairs.length;
  return { score: geometricMean * Math.pow(UNMATCHED_TOKEN_FACTOR, unpaired), pairs };
}

/** Normalized Levenshtein similarity of two strings after name normalization, in [0, 1]. */
export function editSimilarity(a: string, b: string): number {
  const x = normalizeName(a).replace(/ /g, '');
  const y = normalizeName(b).replace(/ /g, '');
  if (x === y) return 1;
  const longest = Math.max(x.length, y.length);
  if (longest === 0) return 1;
  return 1 - levenshtein(x, y) / longest;
}

/** Two tokens count as the same word in an address at this Jaro-Winkler similarity or above. */
const ADDRESS_TOKEN_MATCH = 0.9;

/**
 * Dice coefficient over the word sets of two free-text strings (addresses), where words within a
 * typo of each other count as shared: '10 Downing St, London' vs '10 Downing Street London' is high,
 * a different street in the same town is low.
 */
export function tokenSetSimilarity(a: string, b: string): number {
  const x = [...new Set(nameTokens(a))];
  const y = [...new Set(nameTokens(b))];
  if (x.length === 0 && y.length === 0) return 1;
  if (x.length === 0 || y.length === 0) return 0;
  const unused = new Set(y.map((_, index) => index));
  let shared = 0;
  for (const word of x) {
    let best = -1;
    let bestSimilarity = 0;
    for (const index of unused) {
      const other = y[index] as string;
      const similarity = word === other ? 1 : /\d/.test(word) || /\d/.test(other) ? 0 : jaroWinkler(word, other);
      if (similarity > bestSimilarity) [best, bestSimilarity] = [index, similarity];
    }
    if (best >= 0 && bestSimilarity >= ADDRESS_TOKEN_MATCH) {
      unused.delete(best);
      shared++;
    }
  }
  return (2 * shared) / (x.length + y.length);
}
