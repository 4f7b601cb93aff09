/**
 * One sandbox listening on 127.0.0.1 and a small client that speaks to it the way the service's clients do:
 * `x-api-key` + `Accept: application/json`, `Content-Type: application/json` only with a body, presigned
 * PUTs with `Content-Type` only.
 */
import { readFileSync } from 'node:fs';
import { createSandbox, type Sandbox } from '../../src/sandbox.ts';
import { FROZEN_AT, KEYS } from '../helpers/sandbox.ts';

export interface HttpAnswer {
  status: number;
  body: any;
  headers: Headers;
}

export interface ListeningSandbox {
  sandbox: Sandbox;
  call(method: string, path: string, body?: unknown): Promise<HttpAnswer>;
  put(url: string, bytes: Uint8Array, contentType: string): Promise<number>;
  close(): Promise<void>;
}

const silent = { info: () => {}, warn: () => {}, error: () => {} };

export async function listeningSandbox(seed = 42): Promise<ListeningSandbox> {
  const sandbox = await createSandbox({ port: 0, host: '127.0.0.1', memory: true, seed, clock: `frozen@${FROZEN_AT}`, logger: silent, rateLimit: false });
  const call = async (method: string, path: string, body?: unknown): Promise<HttpAnswer> => {
    const headers: Record<string, string> = { 'x-api-key': KEYS.live, accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`${sandbox.url}${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    const text = await response.text();
    return { status: response.status, body: text === '' ? undefined : JSON.parse(text), headers: response.headers };
  };
  const put = async (url: string, bytes: Uint8Array, contentType: string) =>
    (await fetch(url, { method: 'PUT', headers: { 'content-type': contentType }, body: bytes as Uint8Array<ArrayBuffer> })).status;
  return { sandbox, call, put, close: async () => void (await sandbox.close()) };
}

export const picture = (file: string) => new Uint8Array(readFileSync(new URL(`../../fixtures/images/${file}`, import.meta.url)));

export const APPLICANT = { email: 'jane.doe@example.com', first_name: 'Jane', last_name: 'Doe', phone: '+14155550123' };
