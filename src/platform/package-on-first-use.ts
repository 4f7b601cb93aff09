import { createRequire } from 'node:module';

/**
 * A package that loads on its first use instead of at start-up: `packageOnFirstUse<typeof import('x')>(import.meta.url, 'x')`
 * gives a function that requires it the first time it is called (Node requires ES modules too) and the
 * same module after. Being required at run time, the package also stays out of the server bundle.
 */
export function packageOnFirstUse<Module>(moduleUrl: string, specifier: string): () => Module {
  let loaded: Module | undefined;
  return () => {
    loaded ??= createRequire(moduleUrl)(specifier) as Module;
    return loaded;
  };
}
