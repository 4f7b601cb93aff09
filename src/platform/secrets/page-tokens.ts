/**
 * Hosted pages (under /verify) need no API key: their link is the permission. Record ids follow from the
 * public seed, so the link also carries a token, an HMAC of the namespace and the record id keyed with the
 * sandbox's private secret: nothing is stored, and only someone handed the link can open the page.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { keptAnswers } from '../kept-answers.ts';
import { namespacedUrl } from '../namespaces/namespaced-url.ts';

/** The query parameter that carries the token, beside the spec's `oid` and `redirect_url`. */
export const PAGE_TOKEN_PARAM = 'token';

/** What a link builder needs of a namespace: its name and its page tokens (a World). */
export interface PageScope {
  namespace: string;
  pageToken(id: string): string;
}

/** Tokens by secret, namespace and record id (all the HMAC covers). */
const recentTokens = keptAnswers<string>(4096);

/** 128 bits of the HMAC, base64url. */
export function pageToken(secret: string, namespace: string, id: string): string {
  // Every read of a session links its hosted page: the tokens of recently linked records are kept.
  return recentTokens(`${secret}\n${namespace}\n${id}`, () =>
    createHmac('sha256', secret).update(`hosted-page\n${namespace}\n${id}`).digest('base64url').slice(0, 22),
  );
}

/** Constant-time check of a presented token. */
export function isPageToken(presented: string | undefined, expected: string): boolean {
  if (presented === undefined) return false;
  const hash = (text: string) => createHmac('sha256', 'page-token-compare').update(text).digest();
  return timingSafeEqual(hash(presented), hash(expected));
}

/** A hosted page's URL for record `id`: its token, then the namespace outside the default one. */
export function hostedPageUrl(url: string, id: string, scope: PageScope): string {
  const withToken = `${url}${url.includes('?') ? '&' : '?'}${PAGE_TOKEN_PARAM}=${scope.pageToken(id)}`;
  return namespacedUrl(withToken, scope.namespace);
}
