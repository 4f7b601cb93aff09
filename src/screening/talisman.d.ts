// Minimal types for the two talisman metrics the screening area uses (the package ships no types).
// Kept beside their only user so the declaration cannot collide with another area's.
declare module 'talisman/metrics/jaro-winkler.js' {
  /** Jaro-Winkler similarity in [0, 1]; 1 means identical. */
  export default function jaroWinkler(a: string, b: string): number;
}

declare module 'talisman/metrics/levenshtein.js' {
  /** Levenshtein edit distance (insertions, deletions, substitutions). */
  export default function levenshtein(a: string, b: string): number;
}
