/** A workflow step's code from its id (`phone-trust-check` → PHONE_TRUST_CHECK): how steps are matched to step types. */
export function stepCode(stepId: string): string {
  return stepId.trim().toUpperCase().replace(/-/g, '_');
}
