/** How the bin starts Node (scripts/bin-launch.mjs). */
export interface BinLaunch {
  /** Variables the first line sets before Node starts (the C library reads its own only then). */
  env: Record<string, string>;
  /** Node's flags, in order. */
  nodeFlags: string[];
}

export function binLaunch(binPath?: URL | string): BinLaunch;
