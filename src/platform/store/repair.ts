/**
 * `--repair`: start-up sets aside what cannot be read (a damaged journal line, a record of the wrong
 * shape, a snapshot that does not parse) instead of refusing, after copying every file it will change to
 * `<file>.before-repair` (then `-2`, `-3`…), and says what it set aside. The state it could read is then
 * written as a new snapshot at once.
 */
import { constants, copyFileSync, existsSync } from 'node:fs';
import type { DamagedFileError } from './errors.ts';

export class Repair {
  private readonly setAside: DamagedFileError[] = [];
  private readonly touched = new Set<string>();

  note(error: DamagedFileError): void {
    this.setAside.push(error);
    this.touched.add(error.file);
  }

  get needed(): boolean {
    return this.setAside.length > 0;
  }

  /** Whether the snapshot itself could not be read (the journals are then replayed from the oldest). */
  touches(file: string): boolean {
    return this.touched.has(file);
  }

  /** Copies each file that will change; call before anything is written. Returns what it says once done. */
  keepCopies(): string {
    const copies = [...this.touched].filter(existsSync).map((file) => {
      let copy = `${file}.before-repair`;
      for (let n = 2; existsSync(copy); n++) copy = `${file}.before-repair-${n}`;
      copyFileSync(file, copy, constants.COPYFILE_EXCL);
      return copy;
    });
    const places = this.setAside.map((error) => `  ${error.file} at ${error.place}: ${error.problem}`);
    return [
      `idv-sandbox --repair set aside ${this.setAside.length} damaged place${this.setAside.length === 1 ? '' : 's'} and wrote what it could read as a new snapshot:`,
      ...places,
      `Copies of the files as they were: ${copies.join(', ') || 'none (the files were gone)'}.`,
    ].join('\n');
  }
}
