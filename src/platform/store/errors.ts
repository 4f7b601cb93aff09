/** Start-up refused: the message names the file, the place and the fix. */
export class StoreOpenError extends Error {
  override name = 'StoreOpenError';
}

/** Start-up refused because a store file is damaged at one place: `--repair` may set that place aside. */
export class DamagedFileError extends StoreOpenError {
  override name = 'DamagedFileError';
  constructor(
    message: string,
    readonly file: string,
    readonly place: string,
    readonly problem: string,
  ) {
    super(message);
  }
}
