/**
 * Baseline of the synthetic read: a bare @hono/node-server app answering every GET with the same JSON
 * the sandbox serves (read from the file given as the second argument), serialized per request.
 *
 *   node --import tsx bench/baselines/bare-hono.ts <port> <body.json>
 */
import { readFileSync } from 'node:fs';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';

const [port, bodyFile] = process.argv.slice(2);
const body = JSON.parse(readFileSync(bodyFile as string, 'utf8')) as Record<string, unknown>;
const app = new Hono();
app.get('*', (c) => c.json(body));
serve({ fetch: app.fetch, port: Number(port), hostname: '127.0.0.1' });
