/**
 * The watchlists PEP and sanctions screening searches: fixtures/watchlists.json, validated once on
 * first use. Regenerate the fixture with `npx tsx scripts/generate-watchlists.ts`.
 */
import watchlistJson from '../../fixtures/watchlists.json' with { type: 'json' };
import { WatchlistSchema, type Watchlist } from './pep-sanctions.schemas.ts';

let cached: Watchlist | undefined;

/** The committed fixture, parsed and checked (a broken fixture fails loudly at first use). */
export function defaultWatchlist(): Watchlist {
  cached ??= WatchlistSchema.parse(watchlistJson);
  return cached;
}
