/**
 * Names never become paths: namespaces and ids from requests reach the file system only through
 * storagePath, so no name deletes, reads or writes outside the uploads directory. A file-backed sandbox
 * lives in a throwaway project folder with canary files around it; every test checks they survive.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { storagePath, storageSegment } from '../../src/platform/storage/storage-path.ts';
import { HOSTILE_NAMES } from './hostile-names.ts';
import { FROZEN_AT, KEYS, silentLogger, testSandbox, type TestSandbox } from '../helpers/sandbox.ts';

interface Project {
  root: string;
  dataFile: string;
  uploadsDir: string;
  canaries: string[];
}

const projects: Project[] = [];
const sandboxes: TestSandbox[] = [];

afterEach(async () => {
  for (const sandbox of sandboxes.splice(0)) await sandbox.close();
  for (const project of projects.splice(0)) rmSync(project.root, { recursive: true, force: true });
});

/** A project folder with the data directory inside it, canaries at every level, and a file-backed sandbox. */
async function projectSandbox(adminToken?: string): Promise<{ sandbox: TestSandbox; project: Project }> {
  const root = mkdtempSync(join(tmpdir(), 'idv-names-'));
  const dataFile = join(root, 'project', '.data', 'store.json');
  const uploadsDir = `${dataFile}.uploads`;
  mkdirSync(uploadsDir, { recursive: true });
  const canaries = [join(root, 'canary'), join(root, 'project', 'canary'), join(root, 'project', '.data', 'canary'), join(uploadsDir, 'canary')];
  for (const canary of canaries) writeFileSync(canary, 'still here');
  const sandbox = await testSandbox({ memory: false, data: dataFile, logger: silentLogger, adminToken, clock: `frozen@${FROZEN_AT}` });
  sandboxes.push(sandbox);
  const project = { root, dataFile, uploadsDir, canaries };
  projects.push(project);
  return { sandbox, project };
}

function expectCanaries(project: Project): void {
  for (const canary of project.canaries) expect(existsSync(canary), canary).toBe(true);
  expect(existsSync(project.dataFile)).toBe(true);
}

/** Presigns one JPEG in the namespace and PUTs its bytes; answers the fileKey. */
async function upload(sandbox: TestSandbox, namespace: string | undefined): Promise<string> {
  const bytes = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16]);
  const presigned = await sandbox.call('POST', '/v1/upload/presign', { namespace, body: { files: [{ contentType: 'image/jpeg', byteLength: bytes.length }] } });
  expect(presigned.status).toBe(200);
  const url = new URL(presigned.body.uploads[0].uploadUrl);
  const put = await sandbox.app.request(url.pathname + url.search, { method: 'PUT', headers: { 'content-type': 'image/jpeg' }, body: bytes });
  expect(put.status).toBe(200);
  return presigned.body.uploads[0].fileKey;
}

/** Whether a string can travel as an HTTP header value at all (fetch refuses NUL, CR, LF and non-Latin-1). */
const headerSafe = (value: string) => /^[\x20-\x7e]*$/.test(value) && value.trim() === value && value !== '';

describe('a namespace never reaches the file system as a path', () => {
  it('refuses "." , ".." and other dot-only namespaces with 400 and deletes nothing on reset', async () => {
    const { sandbox, project } = await projectSandbox();
    const kept = await upload(sandbox, 'worker-1');
    for (const namespace of ['.', '..', '...']) {
      const viaHeader = await sandbox.call('POST', '/__sandbox/reset', { key: null, namespace });
      expect(viaHeader.status, namespace).toBe(400);
      expect(viaHeader.body.error).toMatch(/X-Sandbox-Namespace ".*": use 1-64 letters, digits, "_", "\." or "-", not only dots/);
      const viaQuery = await sandbox.call('POST', `/__sandbox/reset?namespace=${encodeURIComponent(namespace)}`, { key: null });
      expect(viaQuery.status, namespace).toBe(400);
    }
    expectCanaries(project);
    // The other namespace's upload is untouched.
    const world = sandbox.platform.worlds.get('worker-1');
    expect((await sandbox.platform.uploads.read(world, 'org_demo', kept)).bytes.length).toBe(6);
  });

  it('survives every hostile name as a namespace header or query on reset, health check and uploads', async () => {
    const { sandbox, project } = await projectSandbox();
    await upload(sandbox, undefined);
    for (const name of HOSTILE_NAMES) {
      const queries = [`?namespace=${encodeURIComponent(name)}`, `?namespace=${name}`];
      for (const query of queries) {
        for (const [method, path] of [
          ['POST', '/__sandbox/reset'],
          ['GET', '/healthz'],
          ['POST', '/__sandbox/clock'],
        ] as const) {
          const response = await sandbox.app.request(`${path}${query}`, {
            method,
            headers: { 'content-type': 'application/json' },
            body: method === 'POST' ? '{"freeze":true}' : undefined,
          });
          expect(response.status, `${method} ${path}${query}`).toBeLessThan(500);
        }
      }
      if (headerSafe(name)) {
        const reset = await sandbox.call('POST', '/__sandbox/reset', { key: null, namespace: name });
        expect(reset.status, name).toBeLessThan(500);
        // Names the rule accepts (".data") get their own directory inside the uploads directory.
        if (reset.status === 200) await upload(sandbox, name);
      }
    }
    expect((await sandbox.call('POST', '/__sandbox/reset', { key: null })).status).toBe(200);
    expectCanaries(project);
  });

  it('keeps a namespace registered by an unauthenticated request from reaching the data directory on the admin’s global reset', async () => {
    const { sandbox, project } = await projectSandbox('s3cret');
    expect((await sandbox.call('GET', '/healthz', { key: null, namespace: '..' })).status).toBe(400);
    expect((await sandbox.call('GET', '/healthz', { key: null, namespace: '.data' })).status).toBe(200);
    const reset = await sandbox.call('POST', '/__sandbox/reset', { key: null, headers: { authorization: 'Bearer s3cret' } });
    expect(reset.status).toBe(200);
    expect(reset.body.reset).not.toContain('..');
    expectCanaries(project);
  });

  it('writes each namespace’s uploads into its own directory under the uploads directory, even for names that differ only in case', async () => {
    const { sandbox, project } = await projectSandbox();
    await upload(sandbox, 'Team');
    await upload(sandbox, 'team');
    const entries = readdirSync(project.uploadsDir).filter((entry) => entry !== 'canary');
    expect(entries).toHaveLength(2);
    expect((await sandbox.call('POST', '/__sandbox/reset', { key: null, namespace: 'Team' })).status).toBe(200);
    expect(readdirSync(project.uploadsDir).filter((entry) => entry !== 'canary')).toEqual([storageSegment('team')]);
    expectCanaries(project);
  });
});

describe('an id never reaches the file system as a path', () => {
  it('answers every route that takes a path parameter with a 4xx for hostile ids, and touches no canary', async () => {
    const { sandbox, project } = await projectSandbox();
    const document = (await sandbox.call('GET', '/openapi.json')).body as { paths: Record<string, Record<string, unknown>> };
    let probes = 0;
    for (const [template, operations] of Object.entries(document.paths)) {
      if (!template.includes('{')) continue;
      for (const method of Object.keys(operations)) {
        for (const name of HOSTILE_NAMES) {
          const path = template.replace(/\{[^}]+\}/g, encodeURIComponent(name));
          const body = method === 'get' || method === 'delete' ? undefined : {};
          const response = await sandbox.call(method.toUpperCase(), path, { body, key: KEYS.live });
          expect(response.status, `${method.toUpperCase()} ${path.slice(0, 120)}`).toBeLessThan(500);
          probes += 1;
        }
      }
    }
    expect(probes).toBeGreaterThan(100);
    expectCanaries(project);
  });
});

describe('storagePath', () => {
  it('maps any name, of any characters, to one segment strictly under the root', () => {
    const root = join(tmpdir(), 'idv-root');
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.string({ unit: 'binary', maxLength: 300 }), fc.constantFrom(...HOSTILE_NAMES)), { minLength: 1, maxLength: 3 }),
        (names) => {
          const path = storagePath(root, ...names);
          const segments = path.slice(root.length + 1).split('/');
          return (
            path.startsWith(`${root}/`) && segments.length === names.length && segments.every((segment) => /^[a-z0-9_-]{0,40}-[0-9a-f]{16}$/.test(segment))
          );
        },
      ),
      { seed: 16, numRuns: 100 },
    );
  });

  it('refuses the root itself as a target', () => {
    expect(() => storagePath('/tmp/x')).toThrow(/root itself/);
  });
});
