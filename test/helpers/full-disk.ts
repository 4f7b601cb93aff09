/**
 * A disk that fills up, at the file layer: `withFullDisk(fs)` wraps node:fs/promises so that, while
 * `disk.full` is set, every write to a file whose name matches `disk.files` writes half its bytes (a torn
 * line, as a real full disk leaves) and then fails with ENOSPC; with `disk.refusesCuts`, cutting it back fails
 * too. Used through `vi.mock('node:fs/promises')`.
 */
import type * as fs from 'node:fs/promises';

export const disk = { full: false, files: /./, refusals: 0, refusesCuts: false };

function enospc(path: string): NodeJS.ErrnoException {
  disk.refusals += 1;
  return Object.assign(new Error(`ENOSPC: no space left on device, write '${path}'`), { code: 'ENOSPC', errno: -28, syscall: 'write', path });
}

export function withFullDisk(real: typeof fs): typeof fs {
  const open: typeof fs.open = async (path, flags, mode) => {
    const handle = await real.open(path, flags, mode);
    const name = String(path);
    const refuses = () => disk.full && disk.files.test(name);
    const tornWrite = (write: (data: string) => Promise<void>) => async (data: string | Uint8Array) => {
      if (!refuses()) return write(data as string);
      const text = typeof data === 'string' ? data : Buffer.from(data).toString('utf8');
      await write(text.slice(0, Math.floor(text.length / 2)));
      throw enospc(name);
    };
    const write = handle.write.bind(handle) as (buffer: Uint8Array, offset: number, length: number) => Promise<{ bytesWritten: number; buffer: Uint8Array }>;
    const appendFile = handle.appendFile.bind(handle);
    const writeFile = handle.writeFile.bind(handle);
    const truncate = handle.truncate.bind(handle);
    return Object.assign(handle, {
      appendFile: tornWrite((data) => appendFile(data, 'utf8')),
      write: async (buffer: Uint8Array, offset = 0, length = buffer.length - offset) => {
        if (!refuses()) return write(buffer, offset, length);
        await write(buffer, offset, Math.floor(length / 2));
        throw enospc(name);
      },
      writeFile: tornWrite((data) => writeFile(data)),
      // `refusesCuts`: cutting the torn line back fails too (as it may on a disk refusing every change).
      truncate: async (length?: number) => {
        if (refuses() && disk.refusesCuts) throw enospc(name);
        return truncate(length);
      },
    });
  };
  return { ...real, open, default: { ...real, open } } as typeof fs;
}
