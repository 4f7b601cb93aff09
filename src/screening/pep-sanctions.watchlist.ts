/**
 * The watchlists PEP and sanctions screening searches: fixtures/watchlists.json. Regenerate the fixture
 * with `npx tsx scripts/generate-watchlists.ts`.
 */
import watchlistJson from '../../fixtures/watchlists.json' with { type: 'json' };
import type { Watchlist } from './pep-sanctions.schemas.ts';

/**
 * The committed fixture as it is: test/screening/pep-sanctions.test.ts checks it against WatchlistSchema,
 * which it passes unchanged, so no process parses it again (20 ms of a first screening).
 */
export function defaultWatchlist(): Watchlist {
  return watchlistJson as Watchlist;
}
