/**
 * 2xx stubs: a scenario rule may answer a success in place of the endpoint, so its body must be one the
 * service's clients can parse. It is checked against the response every matching /v1 operation declares
 * for that status (the zod schema /openapi.json documents and --strict-responses applies), when the
 * scenario is loaded, reloaded or added; a stub that fits no operation, or not all it matches, is refused.
 */
import { type DeclaredOperation, type DeclaredOperations, responseMismatch } from '../operations/declared-operations.ts';
import type { Scenario, ScenarioRule } from './scenario.schema.ts';

/** One segment of a rule's path glob as a RegExp (`*` within the segment; `**` alone is handled by the caller). */
const segmentPattern = (glob: string) =>
  new RegExp(
    `^${glob
      .split(/\*+/)
      .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('[^/]*')}$`,
  );

/**
 * Whether some concrete path matches both the rule's glob and the operation's path template: a template
 * parameter (`{id}`) takes any one segment, so `/v1/sessions/abc` and `/v1/sessions/*` both reach
 * `/v1/sessions/{id}`.
 */
export function globReachesTemplate(glob: string, template: string): boolean {
  const globs = glob.split('/');
  const segments = template.split('/');
  const reaches = (g: number, t: number): boolean => {
    if (g === globs.length) return t === segments.length;
    if (globs[g] === '**') return reaches(g + 1, t) || (t < segments.length && reaches(g, t + 1));
    if (t === segments.length) return false;
    const segment = segments[t] as string;
    const fits = /^{.+}$/.test(segment) ? globs[g] !== '' : segmentPattern(globs[g] as string).test(segment);
    return fits && reaches(g + 1, t + 1);
  };
  return reaches(0, 0);
}

/** The /v1 operations a rule acts on. */
export function operationsOf(rule: ScenarioRule, operations: DeclaredOperations): DeclaredOperation[] {
  return operations
    .all()
    .filter(
      (operation) =>
        operation.apiKey &&
        (rule.match.methods === undefined || rule.match.methods.includes(operation.method as never)) &&
        globReachesTemplate(rule.match.path, operation.path),
    );
}

/**
 * What is wrong with the scenario's 2xx stubs, as a sentence naming the field from the top of the
 * scenario (`rules.0.respond.body.session_record.status`), or undefined when every one fits.
 */
export function stubProblem(scenario: Scenario, operations: DeclaredOperations): string | undefined {
  for (const [index, rule] of scenario.rules.entries()) {
    const respond = rule.respond;
    if (!respond || respond.status >= 300) continue;
    const where = `rules.${index}`;
    const reached = operationsOf(rule, operations);
    if (reached.length === 0) {
      return `${where}.match matches no /v1 operation, so its ${respond.status} answer has no response to be checked against: give the path of an operation (and its method in "methods")`;
    }
    for (const operation of reached) {
      const problem = responseMismatch(operation, respond.status, 'application/json', respond.body, `${where}.respond.body.`);
      if (problem) {
        return `${where}.respond: ${problem} (${operation.name}, ${operation.operationId}, answers ${respond.status} with a body its clients parse${reached.length > 1 ? `; the rule matches ${reached.length} operations: narrow "match" to the one you mean` : ''})`;
      }
    }
  }
  return undefined;
}

/** Loads the areas of the operations the 2xx stubs of these scenarios answer for (their declared responses). */
export function loadStubbedOperations(scenarios: readonly Scenario[], operations: DeclaredOperations): Promise<void> {
  const rules = scenarios.flatMap((scenario) => scenario.rules).filter((rule) => rule.respond !== undefined && rule.respond.status < 300);
  return operations.load(rules.flatMap((rule) => operationsOf(rule, operations)));
}

/** Start-up (and reload) check of file scenarios: the first stub that does not fit stops it. */
export function refuseUnparseableStubs(scenarios: readonly Scenario[], operations: DeclaredOperations): void {
  for (const scenario of scenarios) {
    const problem = stubProblem(scenario, operations);
    if (problem) throw new Error(`Scenario "${scenario.name}" is invalid at ${problem}.`);
  }
}
