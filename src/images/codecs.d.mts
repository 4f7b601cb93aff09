/** Types for codecs.mjs (plain JS so the decode worker can load it without a TypeScript loader). */

export interface RgbaBitmap {
  width: number;
  height: number;
  /** RGBA bytes, 4 per pixel, row-major. */
  data: Uint8Array;
}

/** A downscaled image: RGB bytes, 3 per pixel, alpha already composited over white. */
export interface RgbImage {
  width: number;
  height: number;
  rgb: Uint8Array;
}

export interface DecodedBitmap extends RgbaBitmap {
  mime: string | undefined;
}

export interface WorkingDecode {
  /** Full decoded size after EXIF orientation. */
  width: number;
  height: number;
  mime: string | undefined;
  working: RgbImage;
}

export declare function decodeBitmap(bytes: Uint8Array, options?: { maxMegapixels?: number }): Promise<DecodedBitmap>;
export declare function downscaleToRgb(bitmap: RgbaBitmap, maxSide: number): RgbImage;
export declare function encodeWebp(bitmap: RgbaBitmap, options?: { quality?: number; lossless?: 0 | 1 }): Promise<Buffer>;
export declare function decodeToWorking(bytes: Uint8Array, options: { maxSide: number; maxMegapixels: number }): Promise<WorkingDecode>;

/** Throws when a PNG (interlaced) or TIFF (deflate strips) would inflate beyond its declared size. */
export declare function checkInflation(buffer: Buffer): void;
