/**
 * The six state machines share one shape (defineMachine): states, initial and final ones, event moves and
 * timed moves, checked once when declared. Each machine's table passes the checks, and the lookups callers
 * use answer from the table.
 */
import { describe, expect, it } from 'vitest';
import { PARENT_CONNECT_MACHINE } from '../../src/age-verification/age-verification.machine.ts';
import { CREDIT_TERMS_MACHINE } from '../../src/credit-terms/credit-terms.machine.ts';
import { BANK_STATEMENT_MACHINE } from '../../src/financial/financial.machine.ts';
import { defineMachine } from '../../src/platform/machines/define-machine.ts';
import { RE_VERIFICATION_MACHINE, REFUSALS, RE_VERIFICATION_STATES } from '../../src/re-verifications/re-verifications.machine.ts';
import { SESSION_MACHINE } from '../../src/sessions/session.machine.ts';
import { STEP_MACHINE } from '../../src/workflows/workflow-step.machine.ts';

describe('defineMachine', () => {
  it('refuses a table that names a state the machine does not have', () => {
    expect(() => defineMachine({ states: ['A', 'B'], initial: 'A', final: ['B'], transitions: [{ event: 'go', from: ['A'], to: ['C' as 'B'] }] })).toThrow(
      'the machine names states it does not have: C',
    );
  });

  it('refuses a move out of a final state, and allows a final self-loop', () => {
    expect(() => defineMachine({ states: ['A', 'B'], initial: 'A', final: ['B'], transitions: [{ event: 'back', from: ['B'], to: ['A'] }] })).toThrow(
      'a move leaves the final state B',
    );
    const replay = defineMachine({ states: ['A', 'B'], initial: 'A', final: ['B'], transitions: [{ event: 'again', from: ['B'], to: ['B'] }] });
    expect(replay.moveFrom('B', 'again')?.to).toEqual(['B']);
    expect(replay.moveFrom('A', 'again')).toBeUndefined();
  });

  it('gives the six machines one shape', () => {
    const machines: { states: readonly string[]; initial: string; final: readonly string[]; isFinal(state: never): boolean }[] = [
      SESSION_MACHINE,
      STEP_MACHINE,
      PARENT_CONNECT_MACHINE,
      CREDIT_TERMS_MACHINE,
      BANK_STATEMENT_MACHINE,
      RE_VERIFICATION_MACHINE,
    ];
    for (const machine of machines) {
      expect(machine.states).toContain(machine.initial);
      for (const state of machine.states) expect(machine.isFinal(state as never)).toBe(machine.final.includes(state));
    }
  });

  it('takes the session moves from the table, one declared target per row', () => {
    expect(SESSION_MACHINE.moveFrom('SUBMITTED', 'verify')?.to).toEqual(['VERIFIED']);
    expect(SESSION_MACHINE.moveFrom('VERIFIED', 'verify')).toBeUndefined();
    expect(SESSION_MACHINE.moveOf('attempt_failed').to).toEqual(['PENDING', 'FAILED']);
  });

  it('refuses a re-verification operation exactly where its machine has no move', () => {
    for (const state of RE_VERIFICATION_STATES) {
      for (const operation of ['start', 'upload-url', 'complete'] as const) {
        expect(REFUSALS[state][operation] === undefined, `${state} ${operation}`).toBe(RE_VERIFICATION_MACHINE.moveFrom(state, operation) !== undefined);
      }
    }
  });
});
