import { OpenAPIHono } from '@hono/zod-openapi';
import type { Result } from 'hono/router';
import { TrieRouter } from 'hono/router/trie-router';
import { describe, expect, it } from 'vitest';
import { KeptRoutes } from '../../src/platform/http/kept-routes.ts';

/** A router that counts the matches it is asked for. */
class CountingRouter extends TrieRouter<string> {
  asked = 0;
  override match(method: string, path: string): Result<string> {
    this.asked++;
    return super.match(method, path);
  }
}

const handlersOf = (result: Result<string>) => result[0].map(([handler, params]) => [handler, params]);

describe('kept route matches', () => {
  it('answers every method and path as the router it keeps for, matching each pair once', () => {
    const inner = new CountingRouter();
    const reference = new TrieRouter<string>();
    const kept = new KeptRoutes(inner);
    for (const router of [kept, reference]) {
      router.add('ALL', '*', 'context');
      router.add('GET', '/v1/financial/externalId/:externalId', 'by external id');
      router.add('GET', '/v1/financial/:id', 'by id');
      router.add('POST', '/v1/sessions', 'create');
      router.add('GET', '/docs/assets/:file', 'asset');
    }
    const asked: [string, string][] = [
      ['GET', '/v1/financial/externalId/abc'],
      ['GET', '/v1/financial/fin_1'],
      ['POST', '/v1/sessions'],
      ['GET', '/v1/sessions'],
      ['GET', '/docs/assets/a.css'],
      ['GET', '/nowhere'],
    ];
    for (const [method, path] of [...asked, ...asked]) expect(handlersOf(kept.match(method, path))).toEqual(handlersOf(reference.match(method, path)));
    expect(inner.asked).toBe(asked.length);
  });

  it('forgets what it kept when a route is added', () => {
    const kept = new KeptRoutes(new TrieRouter<string>());
    kept.add('GET', '/v1/things/:id', 'thing');
    expect(handlersOf(kept.match('GET', '/v1/things/special'))).toEqual([['thing', { id: 'special' }]]);
    kept.add('GET', '/v1/things/special', 'special thing');
    expect(handlersOf(kept.match('GET', '/v1/things/special'))).toEqual([
      ['thing', { id: 'special' }],
      ['special thing', {}],
    ]);
  });

  it('matches long paths every time instead of keeping them', () => {
    const inner = new CountingRouter();
    const kept = new KeptRoutes(inner);
    kept.add('GET', '/v1/things/:id', 'thing');
    const long = `/v1/things/${'x'.repeat(300)}`;
    kept.match('GET', long);
    kept.match('GET', long);
    expect(inner.asked).toBe(2);
  });

  it('serves an app with Hono’s default routers behind it, parameters included', async () => {
    const app = new OpenAPIHono({ router: new KeptRoutes() });
    app.get('/v1/financial/externalId/:externalId', (c) => c.json({ externalId: c.req.param('externalId') }));
    app.get('/v1/financial/:id', (c) => c.json({ id: c.req.param('id') }));
    for (const round of [1, 2]) {
      expect(await (await app.request('/v1/financial/externalId/ext%201')).json(), `round ${round}`).toEqual({ externalId: 'ext 1' });
      expect(await (await app.request('/v1/financial/fin_9')).json(), `round ${round}`).toEqual({ id: 'fin_9' });
    }
  });
});
