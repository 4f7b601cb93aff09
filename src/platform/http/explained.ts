/** A service answer with the reasons the route adds to X-Sandbox-Explain. */
import { explain, noteOutcome, type AppContext } from './context.ts';

export interface Explained<T> {
  value: T;
  explanations: string[];
  /** What the answer was, for the coverage recorder (`noteOutcome`): a range an address fell in, a session's move. */
  facts?: string[];
}

/** Adds the answer's reasons to X-Sandbox-Explain, notes its facts, and returns its value. */
export function explained<T>(c: AppContext, answer: Explained<T>): T {
  for (const reason of answer.explanations) if (reason !== '') explain(c, reason);
  if (answer.facts) for (const fact of answer.facts) noteOutcome(c, fact);
  return answer.value;
}
