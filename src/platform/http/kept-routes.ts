/**
 * The app's router, with the matches of recent requests kept. This API's routes leave Hono only its
 * TrieRouter (RegExpRouter refuses a literal segment beside a parameter, as in
 * /v1/financial/externalId/{externalId} and /v1/financial/{id}), which walks the tree of some 400 routes
 * on every request (about 30 µs), while the same method and path always match the same handlers.
 * The routes are fixed once the app answers (Hono refuses a route added after the first match); a route
 * added anyway forgets every kept match. Hono only reads a match (handlers and parameters), so one is shared.
 */
import type { Result, Router } from 'hono/router';
import { RegExpRouter } from 'hono/router/reg-exp-router';
import { SmartRouter } from 'hono/router/smart-router';
import { TrieRouter } from 'hono/router/trie-router';
import { keptAnswers } from '../kept-answers.ts';

/** Distinct method-and-path pairs kept (past it, the keeping starts over). */
const KEPT_MATCHES = 1024;
/** Longer paths are matched every time: a few of them would hold more memory than they save. */
const LONGEST_KEPT_PATH = 256;

export class KeptRoutes<T> implements Router<T> {
  private matches = keptAnswers<Result<T>>(KEPT_MATCHES);
  /** The request before's method, path and match: a client polling one resource asks for them again and again. */
  private last: { method: string; path: string; match: Result<T> } | undefined;

  /** Hono's default router (RegExpRouter where the routes allow it, else TrieRouter) unless given another. */
  constructor(private readonly router: Router<T> = new SmartRouter<T>({ routers: [new RegExpRouter(), new TrieRouter()] })) {}

  get name(): string {
    return `${this.router.name}, matches kept`;
  }

  add(method: string, path: string, handler: T): void {
    this.router.add(method, path, handler);
    this.matches = keptAnswers<Result<T>>(KEPT_MATCHES);
    this.last = undefined;
  }

  match(method: string, path: string): Result<T> {
    // Compared in place: the usual case builds no key and hashes no new string.
    const last = this.last;
    if (last !== undefined && last.path === path && last.method === method) return last.match;
    if (path.length > LONGEST_KEPT_PATH) return this.router.match(method, path);
    const match = this.matches(`${method} ${path}`, () => this.router.match(method, path));
    this.last = { method, path, match };
    return match;
  }
}
