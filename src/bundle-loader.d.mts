/** Types for bundle-loader.mjs (plain JS: the bin loads it before the server bundle, without a TypeScript loader). */

export function defaultCodeCacheDir(env?: NodeJS.ProcessEnv): string;

export function codeCacheFile(source: string | Buffer, execArgv: readonly string[], cacheDir?: string): string;

export function loadBundle(
  filename: string,
  cacheDir?: string,
): {
  exports: Record<string, unknown>;
  cacheUsed: boolean;
  keepCompiledCode(): boolean;
};
