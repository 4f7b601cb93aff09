/**
 * Storage: what the store holds per namespace (records, bytes, the oldest write) and the retention in
 * force, from the same count as GET /__sandbox/stats; Purge now runs the retention purge.
 */
import { html } from 'hono/html';
import type { NamespaceStats } from '../platform/retention/stats.ts';
import { consoleHref, csrfField, type Markup } from './console.layout.ts';

export interface StorageModel {
  namespace: string;
  stats: { namespaces: NamespaceStats[]; records: number; bytes: number };
  csrf: string;
}

const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;

export function storagePage(model: StorageModel): Markup {
  const { stats } = model;
  return html`<section class="card"><h2>Storage</h2>
<p class="muted">${stats.records} records, ${kib(stats.bytes)} of JSON in ${stats.namespaces.length} namespaces. Retention drops records not written within
the limit on their namespace's clock (--retention, or PUT /__sandbox/retention per namespace); a purge runs every minute.</p>
<form class="row" method="post" action="${consoleHref('/console/storage/purge', model.namespace)}">${csrfField(model.csrf)}<button type="submit">Purge now</button></form>
<table><thead><tr><th>Namespace</th><th>Records</th><th>Size</th><th>Oldest record written</th><th>Retention</th><th>Collections</th></tr></thead><tbody>
${stats.namespaces.map(
  (ns) => html`<tr><td><a href="${consoleHref('/console', ns.namespace)}">${ns.namespace}</a></td><td>${ns.records}</td><td>${kib(ns.bytes)}</td>
<td>${ns.oldestRecordAt ?? html`<span class="muted">—</span>`}</td><td>${ns.retentionDays === undefined ? html`<span class="muted">forever</span>` : `${ns.retentionDays} days`}</td>
<td>${ns.collections.map((collection) => html`<div><code>${collection.collection}</code> ${collection.records}</div>`)}</td></tr>`,
)}
</tbody></table></section>`;
}
