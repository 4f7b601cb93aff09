/**
 * Attempt scripts: QA decides a workflow session's attempts in advance, whatever the uploaded content.
 *
 * A script is one line of text, the same everywhere it is given (the session's `external_id` at creation,
 * PUT /__sandbox/sessions/{id}/attempt-script, the console):
 *
 *   ID_VERIFICATION=ID_TEXT_NOT_READABLE@PRIMARY,SELFIE_ID_FACE_MISMATCH,pass;FACE_LIVENESS=LIVENESS_FAILED
 *   exhaust
 *
 * Per step, the n-th entry decides the step's n-th decided submission (passes and failures; a liveness
 * `start` decides nothing): `pass` passes it, a failure code of WORKFLOW_FAILURES fails it (`@SLOT` names
 * the document, PRIMARY by default). Submissions past the list, and steps the script does not name, follow
 * the content. `exhaust` fails every decided submission of every step with the step's first failure code,
 * so the run ends ATTEMPTS_EXHAUSTED at the workflow's limit.
 *
 * At creation the script rides in `external_id`, after the prefix `sandbox-attempts:` (the real service
 * stores external_id as your reference; the sandbox reads it), e.g.
 * `external_id: "sandbox-attempts:ID_VERIFICATION=ID_TEXT_NOT_READABLE,pass"`.
 */
import { FAILURE_SLOTS, type FailureSlot } from './session-results.ts';
import { workflowError } from './workflow-errors.ts';
import { STEP_CODES, STEP_MODULES, type StepCode } from './steps/index.ts';
import type { StepFailure } from './steps/step-module.ts';

export const ATTEMPT_SCRIPT_PREFIX = 'sandbox-attempts:';
export const EXHAUST = 'exhaust';

export type ScriptedAttempt = { outcome: 'pass' } | { outcome: 'fail'; code: string; slot: FailureSlot };

export interface AttemptScript {
  /** The script as given (what the explanations and the control plane show). */
  text: string;
  exhaust: boolean;
  steps: Partial<Record<StepCode, ScriptedAttempt[]>>;
}

/** Parses a script; a string error names the part to fix. */
export function parseAttemptScript(text: string): AttemptScript | string {
  const trimmed = text.trim();
  if (trimmed.toLowerCase() === EXHAUST) return { text: trimmed, exhaust: true, steps: {} };
  const steps: Partial<Record<StepCode, ScriptedAttempt[]>> = {};
  for (const part of trimmed.split(';').filter((piece) => piece.trim() !== '')) {
    const [rawStep, rawAttempts] = part.split('=', 2).map((piece) => piece.trim());
    const step = (rawStep ?? '').toUpperCase().replace(/-/g, '_') as StepCode;
    if (!(STEP_CODES as readonly string[]).includes(step)) return `"${rawStep}" is not a step id: use one of ${STEP_CODES.join(', ')}`;
    if (rawAttempts === undefined || rawAttempts === '') return `${step} has no attempts: write ${step}=<code or pass>,<code or pass>,...`;
    // The step's own codes: a code of another step would never be what this step answers.
    const codes = Object.keys(STEP_MODULES[step].failures);
    const attempts: ScriptedAttempt[] = [];
    for (const entry of rawAttempts.split(',').map((piece) => piece.trim())) {
      if (entry.toLowerCase() === 'pass') {
        attempts.push({ outcome: 'pass' });
        continue;
      }
      const [code, slot = 'PRIMARY'] = entry.split('@', 2).map((piece) => piece.trim().toUpperCase());
      if (!codes.includes(code ?? '')) {
        return codes.length === 0
          ? `"${entry}" (${step}): this step has no failure code, use pass`
          : `"${entry}" is not a failure code of ${step}: use pass or one of ${codes.join(', ')}`;
      }
      if (!(FAILURE_SLOTS as readonly string[]).includes(slot)) return `"${entry}" (${step}) names slot ${slot}: use one of ${FAILURE_SLOTS.join(', ')}`;
      attempts.push({ outcome: 'fail', code: code as string, slot: slot as FailureSlot });
    }
    steps[step] = attempts;
  }
  if (Object.keys(steps).length === 0) return `the script is empty: write "${EXHAUST}" or STEP=<code or pass>,...;STEP=...`;
  return { text: trimmed, exhaust: false, steps };
}

/** The script carried by an external_id (undefined when it has no prefix); a string error when it does not parse. */
export function scriptFromExternalId(externalId: string | undefined): AttemptScript | string | undefined {
  if (externalId === undefined || !externalId.startsWith(ATTEMPT_SCRIPT_PREFIX)) return undefined;
  return parseAttemptScript(externalId.slice(ATTEMPT_SCRIPT_PREFIX.length));
}

/** The attempt script an external_id carries; 400 naming the part to fix when it does not parse. */
export function requireScriptOf(externalId: string | undefined): AttemptScript | undefined {
  const script = scriptFromExternalId(externalId);
  if (typeof script === 'string')
    throw workflowError('VALIDATION_ERROR', `Invalid request: external_id carries an attempt script that does not parse: ${script}.`);
  return script;
}

/**
 * What the script decides for a step's n-th decided submission (0-based `decided`): a failure, a pass
 * (null), or undefined when the content decides.
 */
export function scriptedVerdict(
  script: AttemptScript | undefined,
  step: StepCode,
  decided: number,
  stepFailures: readonly string[],
): { failure: StepFailure | null; said: string } | undefined {
  if (script === undefined) return undefined;
  if (script.exhaust) {
    const code = stepFailures[0] ?? 'UNKNOWN';
    return {
      failure: { code, slot: 'PRIMARY', detail: `(attempt script: ${EXHAUST})` },
      said: `attempt script "${script.text}": ${step} attempt ${decided + 1} fails ${code}`,
    };
  }
  const attempt = script.steps[step]?.[decided];
  if (attempt === undefined) return undefined;
  if (attempt.outcome === 'pass') return { failure: null, said: `attempt script "${script.text}": ${step} attempt ${decided + 1} passes` };
  return {
    failure: { code: attempt.code, slot: attempt.slot, detail: `(attempt script: attempt ${decided + 1})` },
    said: `attempt script "${script.text}": ${step} attempt ${decided + 1} fails ${attempt.code} on ${attempt.slot}`,
  };
}
