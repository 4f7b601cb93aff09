/**
 * What a session that names a workflow needs of other areas, evaluated on first need: the workflows area's
 * run verbs (they import its step engine and schemas) and the financial area's bank-statement request. A
 * read of a session (the first request after a start, often) and a session without a workflow need none
 * of them. The route awaits them before creating such a session.
 */
import { hostedSessionRuns, type HostedSessionRuns } from '../workflows/api.ts';

export type SessionWorkflows = HostedSessionRuns & typeof import('./session-bank-statements.ts');

let loaded: Promise<SessionWorkflows> | undefined;

export function sessionWorkflows(): Promise<SessionWorkflows> {
  loaded ??= Promise.all([hostedSessionRuns(), import('./session-bank-statements.ts')]).then(([runs, statements]) => ({
    ...runs,
    ...statements,
  }));
  return loaded;
}
