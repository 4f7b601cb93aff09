/**
 * The one way a caller-supplied name (a namespace, an id, a slot) becomes a path on disk. Each name is
 * encoded into an opaque segment that can never be `.`, `..`, hold a separator or a NUL, nor differ only
 * in case from another name's segment (case-insensitive file systems), and the resolved path is checked to
 * lie strictly under its root. Every recursive delete goes through `removeStorageTree`.
 */
import { createHash } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';

/** A readable, lower-case prefix of the name (for people browsing the directory) plus a hash that keeps names apart. */
export function storageSegment(name: string): string {
  const readable = name
    .toLowerCase()
    .replace(/[^a-z0-9_-]/g, '_')
    .slice(0, 40);
  const digest = createHash('sha256').update(name, 'utf8').digest('hex').slice(0, 16);
  return `${readable}-${digest}`;
}

/** `<root>/<segment of names[0]>/<segment of names[1]>/…`; throws if the result is not strictly under root. */
export function storagePath(root: string, ...names: string[]): string {
  if (names.length === 0) throw new Error('storagePath needs at least one name: the root itself is never a target');
  const base = resolve(root);
  const target = resolve(base, ...names.map(storageSegment));
  const inside = relative(base, target);
  if (inside === '' || inside === '..' || inside.startsWith(`..${sep}`) || isAbsolute(inside)) {
    throw new Error(`storage path for ${JSON.stringify(names)} escapes ${base}`);
  }
  return target;
}

/** Deletes the tree of `names` under root (and nothing else: the path comes from storagePath). */
export async function removeStorageTree(root: string, ...names: string[]): Promise<void> {
  await rm(storagePath(root, ...names), { recursive: true, force: true });
}
