import { vi } from 'vitest';

/**
 * How many functions `run` compiles from source text (`new Function`), as zod's eval-based fast path does on
 * an object schema's first synchronous parse: a one-off parse that should skip it passes `{ jitless: true }`.
 */
export function functionsCompiledBy(run: () => unknown): number {
  const original = globalThis.Function;
  let compiled = 0;
  globalThis.Function = new Proxy(original, {
    construct(target, args, newTarget) {
      compiled += 1;
      return Reflect.construct(target, args, newTarget);
    },
    apply(target, self, args) {
      compiled += 1;
      return Reflect.apply(target, self, args);
    },
  });
  try {
    run();
  } finally {
    globalThis.Function = original;
  }
  return compiled;
}

/**
 * A module evaluated afresh (its schemas new, none parsed yet), as a fresh process meets it, whatever the
 * files before this one in the worker evaluated (test files share their worker's modules).
 */
export async function freshly<Module>(load: () => Promise<Module>): Promise<Module> {
  vi.resetModules();
  return load();
}
