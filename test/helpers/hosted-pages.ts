/** Hosted pages are opened only through the links the API returns (they carry the page token). */

/** The path and query of a returned page link, with `suffix` (a form's `/action`, `/link`…) after the path. */
export function pageAddress(link: string, suffix = ''): string {
  const url = new URL(link);
  return `${url.pathname}${suffix}${url.search}`;
}
