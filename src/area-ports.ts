/**
 * A port: what an area needs of an area above it, declared by the lower area (an interface and a slot made
 * here) and provided by the upper one when src/modules.ts loads an area that may use it. So the dependency
 * between two areas points one way, and the lower area's modules never import the upper one.
 */
export interface Port<T> {
  provide(implementation: T): void;
  /** The implementation; a use before src/modules.ts provided it is a wiring bug, not a request's fault. */
  get(): T;
}

export function declarePort<T>(name: string): Port<T> {
  let implementation: T | undefined;
  return {
    provide(next) {
      implementation = next;
    },
    get() {
      if (implementation === undefined) throw new Error(`The ${name} port was used before src/modules.ts provided it.`);
      return implementation;
    },
  };
}
