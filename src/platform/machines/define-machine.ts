/**
 * One shape for the sandbox's state machines: the states, the initial and final ones, the moves an event
 * makes (`transitions`) and the moves time makes (`timed`, evaluated when a record is read on the virtual
 * clock). `defineMachine` checks the table once, when it is declared (every state named is a state of the
 * machine; a final state has no way out but a self-loop), and gives the one lookup every caller uses to
 * decide whether a move is legal.
 */

/** A move an event makes: from any of `from` to one of `to` (more than one when the effect decides, e.g. a failed attempt that may end the run). */
export interface EventMove<S extends string, E extends string> {
  event: E;
  from: readonly S[];
  /** The target first; more than one when the effect decides. */
  to: readonly [S, ...S[]];
}

/** A move time makes: from any of `from` to `to` once the record's due instant for it has passed. */
export interface TimedMove<S extends string> {
  from: readonly S[];
  to: S;
}

export interface MachineTable<S extends string, E extends string, M extends EventMove<S, E>, T extends TimedMove<S>> {
  states: readonly S[];
  initial: S;
  final: readonly S[];
  transitions: readonly M[];
  timed?: readonly T[];
}

export interface Machine<S extends string, E extends string, M extends EventMove<S, E>, T extends TimedMove<S>> extends MachineTable<S, E, M, T> {
  timed: readonly T[];
  isFinal(state: S): boolean;
  /** The move `event` makes from `state`, or undefined when the event is not possible there. */
  moveFrom(state: S, event: E): M | undefined;
  /** The declared move of `event` (whatever the state): for the docs and for refusals that name where it is possible. */
  moveOf(event: E): M;
  /** The timed moves that can leave `state`. */
  timedFrom(state: S): T[];
}

export function defineMachine<S extends string, E extends string, M extends EventMove<S, E>, T extends TimedMove<S> = TimedMove<S>>(
  table: MachineTable<S, E, M, T>,
): Machine<S, E, M, T> {
  const timed = table.timed ?? [];
  const known = new Set<string>(table.states);
  const named = [
    table.initial,
    ...table.final,
    ...table.transitions.flatMap((move) => [...move.from, ...move.to]),
    ...timed.flatMap((move) => [...move.from, move.to]),
  ];
  const unknown = named.filter((state) => !known.has(state));
  if (unknown.length > 0) throw new Error(`the machine names states it does not have: ${[...new Set(unknown)].join(', ')}`);
  for (const move of [...table.transitions, ...timed]) {
    const to: readonly S[] = Array.isArray(move.to) ? move.to : [move.to as S];
    const leaving = move.from.filter((state) => table.final.includes(state) && to.some((target) => target !== state));
    if (leaving.length > 0) throw new Error(`a move leaves the final state ${leaving.join(', ')}`);
  }
  return {
    ...table,
    timed,
    isFinal: (state) => table.final.includes(state),
    moveFrom: (state, event) => table.transitions.find((move) => move.event === event && move.from.includes(state)),
    moveOf(event) {
      const move = table.transitions.find((candidate) => candidate.event === event);
      if (move === undefined) throw new Error(`no move declared for event ${event}`);
      return move;
    },
    timedFrom: (state) => timed.filter((move) => move.from.includes(state)),
  };
}
