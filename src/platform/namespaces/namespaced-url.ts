/**
 * Namespaced links: below the world and the page tokens, which both build them.
 */
export const DEFAULT_NAMESPACE = 'default';

/**
 * A link into a page or API of the sandbox, carrying `namespace=<ns>` outside the default namespace so
 * that following it lands in the same partition (browsers cannot send X-Sandbox-Namespace).
 */
export function namespacedUrl(url: string, namespace: string | undefined): string {
  if (namespace === undefined || namespace === DEFAULT_NAMESPACE) return url;
  return `${url}${url.includes('?') ? '&' : '?'}namespace=${encodeURIComponent(namespace)}`;
}
