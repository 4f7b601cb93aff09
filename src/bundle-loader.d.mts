/** Types for bundle-loader.mjs (plain JS: the bin loads it before the server bundle, without a TypeScript loader). */

export function defaultCodeCacheDir(env?: NodeJS.ProcessEnv): string;

export function loadBundle(
  filename: string,
  cacheDir?: string,
): {
  exports: Record<string, unknown>;
  cacheUsed: boolean;
  keepCompiledCode(): boolean;
};
