/** Types for codecs.cjs (plain CommonJS: the server bundle leaves it out and requires it on first decode). */

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

export interface WorkingDecode {
  /** Full decoded size after EXIF orientation. */
  width: number;
  height: number;
  working: RgbImage;
}

export interface DecodeOptions {
  format: 'jpeg' | 'png' | 'gif' | 'bmp' | 'tiff' | 'webp';
  /** JPEG only: decode with the longer side at this many pixels (DCT scaling, then Lanczos); absent: full size. */
  jpegSide?: number;
  /** Longer side of the working image. */
  maxSide: number;
  /** sharp's own stop for a decode that runs away (whole seconds). */
  timeoutSeconds: number;
}

export declare function downscaleToRgb(bitmap: RgbaBitmap, maxSide: number): RgbImage;
export declare function encodeWebp(bitmap: RgbaBitmap, options?: { quality?: number; lossless?: 0 | 1 }): Promise<Buffer>;
export declare function decodeToWorking(bytes: Uint8Array, options: DecodeOptions): Promise<WorkingDecode>;
