/**
 * The one contract of a service verb that explains itself. A leaf of the platform's layers: it imports
 * only the error class, so any service (the job engine included, which platform.ts gathers) and any area
 * can return it.
 */
import { ApiError } from './errors/api-error.ts';

/**
 * What a service verb answers: its value and the reasons for it (X-Sandbox-Explain), the one shape every
 * verb that explains returns; the HTTP layer adapts it once (`explained(c, …)` in http/explained.ts).
 */
export interface Explained<T> {
  value: T;
  explanations: string[];
  /** What the answer was, for the coverage recorder (`noteOutcome`): a range an address fell in, a session's move. */
  facts?: string[];
}

/**
 * Runs a verb that gives its reasons as it goes (`because`): its value with them, or its refusal (an
 * ApiError) carrying the reasons given before it, so X-Sandbox-Explain says why either way.
 */
export function explaining<T>(verb: (because: (reason: string) => void) => T): Explained<T> {
  const explanations: string[] = [];
  try {
    return { value: verb((reason) => explanations.push(reason)), explanations };
  } catch (error) {
    if (error instanceof ApiError) error.explanations.unshift(...explanations);
    throw error;
  }
}
