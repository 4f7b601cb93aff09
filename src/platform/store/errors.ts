/** Start-up refused: the message names the file, the place and the fix. */
export class StoreOpenError extends Error {
  override name = 'StoreOpenError';
}
