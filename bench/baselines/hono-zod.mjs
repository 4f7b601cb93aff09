/**
 * Baseline of the creates: a Hono app that validates the same create body with zod, files it in an
 * in-memory map and answers with the sandbox's own create answer (read from the file given as the second
 * argument) under a fresh id. Plain JavaScript run by node itself (see bare-hono.mjs).
 *
 *   node bench/baselines/hono-zod.mjs <port> <response.json>
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { z } from 'zod';

const [port, responseFile] = process.argv.slice(2);
const template = JSON.parse(readFileSync(responseFile, 'utf8'));
const CreateBody = z.object({
  first_name: z.string().min(1).max(100),
  last_name: z.string().min(1).max(100),
  email: z.email(),
  phone: z
    .string()
    .regex(/^\+[1-9]\d{6,14}$/)
    .optional(),
  external_id: z.string().min(1).max(255).optional(),
  send_email_invite: z.boolean().default(true),
  send_phone_invite: z.boolean().default(true),
  workflow_id: z.string().optional(),
  redirect_url: z.url().optional(),
  expires_in_hours: z.number().int().min(1).max(8760).optional(),
});
const stored = new Map();
const app = new Hono();
app.post('*', async (c) => {
  const parsed = CreateBody.safeParse(await c.req.json());
  if (!parsed.success) return c.json({ error: parsed.error.message }, 400);
  const id = randomUUID();
  stored.set(id, parsed.data);
  return c.json({ ...template, id });
});
serve({ fetch: app.fetch, port: Number(port), hostname: '127.0.0.1' });
