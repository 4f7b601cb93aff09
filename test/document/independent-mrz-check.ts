// An ICAO 9303 checker written for the tests, independently of src/document/mrz.ts.

/**
 * Independent ICAO 9303 check digit, written from the standard (part 3, 4.9), not from the code
 * under test: character values by position in this alphabet, '<' = 0, weights 7 3 1.
 */
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';
export function checkDigit(text: string): number {
  let total = 0;
  [...text].forEach((char, i) => {
    const value = char === '<' ? 0 : ALPHABET.indexOf(char);
    if (value < 0) throw new Error(`bad MRZ char ${char}`);
    total += value * [7, 3, 1][i % 3]!;
  });
  return total % 10;
}

/** Verifies every check digit of a TD3 MRZ; returns the list of failures (empty when valid). */
export function td3Failures([line1, line2]: readonly string[]): string[] {
  const failures: string[] = [];
  if (line1?.length !== 44 || line2?.length !== 44) return ['lengths'];
  if (!/^[A-Z0-9<]{44}$/.test(line1) || !/^[A-Z0-9<]{44}$/.test(line2)) failures.push('charset');
  const digit = (at: number) => Number(line2[at]);
  if (checkDigit(line2.slice(0, 9)) !== digit(9)) failures.push('document number');
  if (checkDigit(line2.slice(13, 19)) !== digit(19)) failures.push('birth date');
  if (checkDigit(line2.slice(21, 27)) !== digit(27)) failures.push('expiry');
  if (checkDigit(line2.slice(28, 42)) !== digit(42)) failures.push('optional data');
  if (checkDigit(line2.slice(0, 10) + line2.slice(13, 20) + line2.slice(21, 43)) !== digit(43)) failures.push('composite');
  return failures;
}

/** Verifies every check digit of a TD1 MRZ. */
export function td1Failures([line1, line2, line3]: readonly string[]): string[] {
  const failures: string[] = [];
  if (line1?.length !== 30 || line2?.length !== 30 || line3?.length !== 30) return ['lengths'];
  if (![line1, line2, line3].every((line) => /^[A-Z0-9<]{30}$/.test(line))) failures.push('charset');
  if (checkDigit(line1.slice(5, 14)) !== Number(line1[14])) failures.push('document number');
  if (checkDigit(line2.slice(0, 6)) !== Number(line2[6])) failures.push('birth date');
  if (checkDigit(line2.slice(8, 14)) !== Number(line2[14])) failures.push('expiry');
  if (checkDigit(line1.slice(5, 30) + line2.slice(0, 7) + line2.slice(8, 15) + line2.slice(18, 29)) !== Number(line2[29])) failures.push('composite');
  return failures;
}
