/**
 * The pages of the other areas' records: lists (each row links to its detail) and one record's detail
 * as its API JSON, with its status badge and the links it has.
 */
import { html } from 'hono/html';
import { badge, jsonBlock, type Markup } from './console.layout.ts';

export interface RecordColumn<T> {
  label: string;
  cell: (row: T) => Markup | string | number;
}

/** A table of records, or a sentence saying there are none. */
export function recordTable<T>(rows: readonly T[], columns: RecordColumn<T>[], empty: string): Markup {
  if (rows.length === 0) return html`<p class="muted">${empty}</p>`;
  return html`<table><thead><tr>${columns.map((column) => html`<th>${column.label}</th>`)}</tr></thead><tbody>
${rows.map((row) => html`<tr>${columns.map((column) => html`<td>${column.cell(row)}</td>`)}</tr>`)}
</tbody></table>`;
}

export function recordDetail(model: { status: string; links: [string, string][]; record: unknown; extra?: Markup }): Markup {
  return html`<section class="card"><h2>Status ${badge(model.status)}</h2>
${model.links.length === 0 ? '' : html`<p>${model.links.map(([label, href], index) => html`${index > 0 ? ' · ' : ''}<a href="${href}">${label}</a>`)}</p>`}
${model.extra ?? ''}</section>
<section class="card"><h2>Record</h2>${jsonBlock(model.record)}</section>`;
}
