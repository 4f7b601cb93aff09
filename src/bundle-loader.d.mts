/** Types for bundle-loader.mjs (plain JS: the bin loads it before the server bundle, without a TypeScript loader). */

/** Files of compiled code kept at most (the least recently written go first). */
export const KEPT_CODE_FILES: number;

export function defaultCodeCacheDir(env?: NodeJS.ProcessEnv): string;

export function codeCacheFile(source: string | Buffer, execArgv: readonly string[], cacheDir?: string): string;

export function loadBundle(
  filename: string,
  cacheDir?: string,
): {
  exports: Record<string, unknown>;
  cacheUsed: boolean;
  /** Writes the compiled code run so far when it grew past the kept file's; false when not written. */
  keepCompiledCode(): boolean;
};
