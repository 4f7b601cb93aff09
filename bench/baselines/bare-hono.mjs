/**
 * Baseline of the reads: a bare @hono/node-server app answering every GET with the same JSON the sandbox
 * serves (read from the file given as the second argument), serialized per request. Plain JavaScript run by
 * node itself: under a TypeScript loader (tsx) the same app spent about a third more CPU per request, which
 * flattered every ratio against it.
 *
 *   node bench/baselines/bare-hono.mjs <port> <body.json>
 */
import { readFileSync } from 'node:fs';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';

const [port, bodyFile] = process.argv.slice(2);
const body = JSON.parse(readFileSync(bodyFile, 'utf8'));
const app = new Hono();
app.get('*', (c) => c.json(body));
serve({ fetch: app.fetch, port: Number(port), hostname: '127.0.0.1' });
