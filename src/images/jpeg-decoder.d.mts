/** Types for jpeg-decoder.mjs (plain JS: the decode worker loads it without a TypeScript loader). */

/** Thrown for a scan past coefficient 63: decode the picture with jpeg-js instead. */
export declare class OutOfSpecScan extends Error {}

/** jpeg-js's decode(): same options, same result (RGBA by default), same errors. */
export declare function decode(
  jpegData: Uint8Array,
  options?: { maxResolutionInMP?: number; maxMemoryUsageInMB?: number; formatAsRGBA?: boolean; colorTransform?: boolean; tolerantDecoding?: boolean },
): { width: number; height: number; data: Buffer; exifBuffer?: Uint8Array; comments?: string[] };

/** Bytes this thread keeps between decodes for the next one's arrays (at most 15 MiB). */
export declare function decodeScratchBytes(): number;
