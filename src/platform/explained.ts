/**
 * The one contract of a service verb that explains itself. A leaf of the platform's layers: it imports
 * nothing, so any service (the job engine included, which platform.ts gathers) and any area can return it.
 */

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
