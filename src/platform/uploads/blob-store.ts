/**
 * Where uploaded bytes live: files beside the JSON store (`<data file>.uploads/<namespace>/<id>`, each
 * name encoded by storagePath so no name can leave that directory), or memory in memory mode. A put is
 * fsynced before it resolves, like the store's writes.
 */
import { mkdir, open, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { removeStorageTree, storagePath } from '../storage/storage-path.ts';

export interface BlobStore {
  put(namespace: string, id: string, bytes: Buffer): Promise<void>;
  get(namespace: string, id: string): Promise<Buffer | undefined>;
  /** Removes the bytes of these uploads; one whose bytes never arrived has none, which is no error. */
  delete(namespace: string, ids: readonly string[]): Promise<void>;
  dropNamespace(namespace: string): Promise<void>;
}

export class MemoryBlobStore implements BlobStore {
  private readonly blobs = new Map<string, Map<string, Buffer>>();

  async put(namespace: string, id: string, bytes: Buffer): Promise<void> {
    let space = this.blobs.get(namespace);
    if (!space) this.blobs.set(namespace, (space = new Map()));
    space.set(id, Buffer.from(bytes));
  }

  async get(namespace: string, id: string): Promise<Buffer | undefined> {
    return this.blobs.get(namespace)?.get(id);
  }

  async delete(namespace: string, ids: readonly string[]): Promise<void> {
    const space = this.blobs.get(namespace);
    for (const id of ids) space?.delete(id);
  }

  async dropNamespace(namespace: string): Promise<void> {
    this.blobs.delete(namespace);
  }
}

export class FileBlobStore implements BlobStore {
  constructor(private readonly directory: string) {}

  async put(namespace: string, id: string, bytes: Buffer): Promise<void> {
    const file = storagePath(this.directory, namespace, id);
    await mkdir(dirname(file), { recursive: true });
    const handle = await open(file, 'w');
    try {
      await handle.writeFile(bytes);
      await handle.sync();
    } finally {
      await handle.close();
    }
  }

  async get(namespace: string, id: string): Promise<Buffer | undefined> {
    try {
      return await readFile(storagePath(this.directory, namespace, id));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  async delete(namespace: string, ids: readonly string[]): Promise<void> {
    for (const id of ids) await removeStorageTree(this.directory, namespace, id);
  }

  async dropNamespace(namespace: string): Promise<void> {
    await removeStorageTree(this.directory, namespace);
  }
}
