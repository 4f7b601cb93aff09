/** A service answer with the reasons the route adds to X-Sandbox-Explain. */
import { explain, type AppContext } from './context.ts';

export interface Explained<T> {
  value: T;
  explanations: string[];
}

/** Adds the answer's reasons to X-Sandbox-Explain and returns its value. */
export function explained<T>(c: AppContext, answer: Explained<T>): T {
  for (const reason of answer.explanations) if (reason !== '') explain(c, reason);
  return answer.value;
}
