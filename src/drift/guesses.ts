/**
 * The documented guesses: the parts of the service the API reference marks "not shown", where the
 * sandbox had to choose a shape. A difference that falls on one is flagged in the report with the
 * reference's own words, so a reader tells a wrong guess from a sandbox that broke its contract.
 * The operations the reference does not describe at all (made with `clientRoute`, from the real client)
 * come from the catalog's `clientOperations`: every difference of theirs is on a guess.
 */
import { CLIENT_SOURCE_NOTE } from '../platform/catalog/client-operations.ts';
import type { DifferenceKind } from './compare.ts';

interface DocumentedGuess {
  /** `METHOD /template`, or every operation when absent. */
  operation?: string;
  /** The report paths it covers (`status`, `header …`, `$.a.b`, array positions as `[*]`). */
  path: RegExp;
  /** Only these kinds of difference, when the reference shows the shape but not the values. */
  kinds?: readonly DifferenceKind[];
  /** The reference's words. */
  spec: string;
}

const OBSERVED_CONFIG_GROUPS = 'age_restriction_settings|expiry_date_settings|face_scan_settings|id_scan_face_settings|id_scan_settings';

export const DOCUMENTED_GUESSES: readonly DocumentedGuess[] = [
  {
    path: /\.analysis_data(\.|\[|$)/,
    spec: 'The complete field reference of the session record and of each analysis_data sub-object is not shown.',
  },
  {
    operation: 'GET /v1/sessions/{id}',
    path: /^(status$|\$\.(?!(session_record|user|sender_user|resource_links)(\.|\[|$)))/,
    spec: 'Retrieve a session by id: parameters and full response not shown beyond the record described in resources.',
  },
  {
    operation: 'GET /v1/sessions/{id}',
    path: /^\$\.session_record\.status$/,
    kinds: ['value'],
    spec: 'Transitions between session statuses other than these two are not shown.',
  },
  { operation: 'GET /v1/sessions/{session_id}/workflow', path: /./, spec: 'Get workflow state: not shown.' },
  { operation: 'GET /v1/workflows/{workflow_id}', path: /./, spec: 'Retrieve workflow: not shown.' },
  { operation: 'POST /v1/sessions/{id}/uploads', path: /./, spec: 'Create session uploads (presigned upload URLs, file keys): not shown.' },
  {
    operation: 'POST /v1/identity/verify',
    path: /^(status$|\$(?!\.overallConfidence$))/,
    spec: 'Compound identity verify: request and response fields not shown beyond overallConfidence.',
  },
  {
    operation: 'POST /v1/sessions/{session_id}/steps/{step_id}',
    path: /^(status$|\$(?!\.step_id$))/,
    spec: 'Response fields other than step_id, and the shape of the liveness object, are not shown. Error statuses for this operation are not shown.',
  },
  {
    path: new RegExp(`\\.steps\\[\\*\\]\\.config\\.(?!(${OBSERVED_CONFIG_GROUPS})(\\.|$))`),
    spec: "The remaining resolved settings and the other steps' resolved config are not shown.",
  },
  {
    path: /\.steps\[\*\]\.status$/,
    kinds: ['value'],
    spec: 'Moves caused by a submission are not shown.',
  },
  { operation: 'GET /v1/financial/{id}', path: /^\$\.status$/, kinds: ['value'], spec: 'Bank statement status: transitions not shown.' },
  {
    operation: 'GET /v1/async-jobs/{jobId}',
    path: /^status$/,
    spec: 'Async jobs expire after a retention period whose duration is not shown; an expired job id returns 404.',
  },
];

/**
 * The documented guess a difference of an operation falls on (the reference's words), if any.
 * `clientOperations` are the catalog's `METHOD /template` rows of operations the reference does not describe.
 */
export function documentedGuess(clientOperations: ReadonlySet<string>, operation: string, kind: DifferenceKind, path: string): string | undefined {
  if (clientOperations.has(operation)) return CLIENT_SOURCE_NOTE;
  const anyIndexPath = path.replace(/\[\d+\]/g, '[*]');
  return DOCUMENTED_GUESSES.find(
    (guess) => (guess.operation === undefined || guess.operation === operation) && (guess.kinds?.includes(kind) ?? true) && guess.path.test(anyIndexPath),
  )?.spec;
}
