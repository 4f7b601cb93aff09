/** Adapts a service verb's answer (`Explained`, platform/explained.ts) at the edge: its reasons to X-Sandbox-Explain. */
import type { Explained } from '../explained.ts';
import { explain, noteOutcome, type AppContext } from './context.ts';

/** Adds the answer's reasons to X-Sandbox-Explain, notes its facts, and returns its value. */
export function explained<T>(c: AppContext, answer: Explained<T>): T {
  for (const reason of answer.explanations) if (reason !== '') explain(c, reason);
  if (answer.facts) for (const fact of answer.facts) noteOutcome(c, fact);
  return answer.value;
}
