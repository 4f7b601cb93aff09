/** The control plane's rows of the error-code map (platform/errors/error-codes.ts). */
import { defineErrorCodes } from '../platform/errors/error-codes.ts';

interface ScenarioFacts {
  name: string;
}

export const CONTROL_ERROR_CODES = defineErrorCodes({
  NOT_IN_SHADOW_MODE: {
    status: 404,
    message: () =>
      'No drift report: the sandbox is not running in shadow mode. Start it with --shadow-upstream <URL of the service> to compare each /v1 request, or run idv-sandbox check-recording on a recording.',
  },
  CLOCK_OUT_OF_RANGE: {
    status: 400,
    message: ({ target, problem }: { target: number; problem: string }) =>
      `Invalid clock change: it would move the clock to ${Number.isFinite(target) ? `${target} ms since the epoch` : 'a date no clock can hold'}, but ${problem}. Send a smaller "advance" or a "set" inside that range.`,
  },
  SCENARIO_UNKNOWN: {
    status: 404,
    message: (facts: ScenarioFacts & { known: readonly string[] }) => `Unknown scenario "${facts.name}". Known: ${facts.known.join(', ')}.`,
  },
  SCENARIO_INVALID: {
    status: 400,
    message: ({ problem }: { problem: string }) => `Invalid scenario: ${problem}. Nothing was added.`,
  },
  SCENARIO_NAME_TAKEN: {
    status: 409,
    message: ({ name }: ScenarioFacts) =>
      `A scenario named "${name}" exists in this namespace: choose another name, or DELETE /__sandbox/scenarios/${name} first if you added it.`,
  },
  SCENARIO_FROM_FILE: {
    status: 409,
    message: ({ name }: ScenarioFacts) =>
      `Scenario "${name}" comes from a file and cannot be removed; deactivate it with POST /__sandbox/scenarios/${name}/deactivate.`,
  },
  REQUESTS_NOT_AS_EXPECTED: {
    status: 409,
    message: (facts: { expected: string; expectedCount: number; pattern: string; namespace: string; count: number; nearest: string | undefined }) =>
      `Expected ${facts.expected} request${facts.expectedCount === 1 ? '' : 's'} matching ${facts.pattern} in namespace "${facts.namespace}", found ${facts.count}.` +
      (facts.nearest === undefined ? ' The journal holds no other request.' : ` Nearest other request: ${facts.nearest}.`),
  },
  REQUEST_NOT_IN_JOURNAL: {
    status: 404,
    message: ({ requestId, namespace }: { requestId: string; namespace: string }) =>
      `No request "${requestId}" in the journal of namespace "${namespace}": it may be older than the journal keeps, or in another namespace.`,
  },
  ORGANIZATION_UNKNOWN: {
    status: 404,
    message: ({ id, known }: { id: string; known: readonly string[] }) => `Unknown organization "${id}". Known: ${known.join(', ')}.`,
  },
});
