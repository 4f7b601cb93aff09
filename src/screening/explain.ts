/**
 * Explanations travel in the X-Sandbox-Explain header, which must be plain ASCII: names with
 * diacritics are folded and anything else unprintable becomes '?'.
 */
import { foldToAscii } from './name-similarity.ts';

export function asciiExplanation(text: string): string {
  return foldToAscii(text)
    .replace(/[\u2192]/g, '->')
    .replace(/[^\x20-\x7e]/g, '?');
}
