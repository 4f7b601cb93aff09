/**
 * Where uploaded bytes live: files beside the JSON store (`<data file>.uploads/<namespace>/<id>`), or
 * memory in memory mode. A put is fsynced before it resolves, like the store's writes.
 */
import { mkdir, open, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';

export interface BlobStore {
  put(namespace: string, id: string, bytes: Buffer): Promise<void>;
  get(namespace: string, id: string): Promise<Buffer | undefined>;
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

  async dropNamespace(namespace: string): Promise<void> {
    this.blobs.delete(namespace);
  }
}

const SAFE_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

export class FileBlobStore implements BlobStore {
  constructor(private readonly directory: string) {}

  async put(namespace: string, id: string, bytes: Buffer): Promise<void> {
    const dir = join(this.directory, this.safe(namespace));
    await mkdir(dir, { recursive: true });
    const handle = await open(join(dir, this.safe(id)), 'w');
    try {
      await handle.writeFile(bytes);
      await handle.sync();
    } finally {
      await handle.close();
    }
  }

  async get(namespace: string, id: string): Promise<Buffer | undefined> {
    try {
      return await readFile(join(this.directory, this.safe(namespace), this.safe(id)));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  async dropNamespace(namespace: string): Promise<void> {
    await rm(join(this.directory, this.safe(namespace)), { recursive: true, force: true });
  }

  /** Names reach the file system only after this check: no traversal. */
  private safe(name: string): string {
    if (!SAFE_NAME.test(name)) throw new Error(`unsafe blob name ${JSON.stringify(name)}`);
    return name;
  }
}
