/**
 * The image operations' outcomes as coverage classes: each kind of refused image (IMAGE_INPUT_ERROR_KINDS:
 * bytes that are no image, the 15 MiB and 16-megapixel limits, a decode that fails or takes too long…),
 * each kind of picture the analysis tells apart (PICTURE_KINDS) and whether a face was found. The image
 * pipeline notes them (`imageErrorFact`, `imagePictureFacts`) for every image operation.
 */
import type { ClassSource, OperationInfo, SourceContext, TriggerRequest } from '../platform/coverage/outcome-class.ts';
import { exampleRequest } from '../platform/coverage/sources.ts';
import { PICTURE_KINDS, pictureKind, type AnalysedImage, type PictureKind } from './image-analysis.ts';
import { IMAGE_LIMITS } from './image-checks.ts';
import { IMAGE_INPUT_ERROR_KINDS, type ImageInputErrorKind } from './image-input-error.ts';

const DETECT = 'POST /v1/face/detect';
const SCAN = 'POST /v1/document/scan';

export function imageErrorFact(kind: ImageInputErrorKind): string {
  return `image-error:${kind}`;
}

const pictureFact = (kind: PictureKind) => `image-picture:${kind}`;
const faceFact = (found: boolean) => `image-face:${found ? 'found' : 'none'}`;

/** The facts of an analysed image: what kind of picture it is, and whether a face was found. */
export function imagePictureFacts(analysis: AnalysedImage): string[] {
  return [pictureFact(pictureKind(analysis)), faceFact(analysis.face !== null)];
}

/**
 * A 24-bit BMP of one grey (rows bottom-up, padded to 4 bytes), or only its header when `headerOnly`:
 * small enough to inline in a trigger, and the header alone is what the pixel limit is checked on.
 */
export function greyBmp(width: number, height: number, headerOnly = false): Buffer {
  const rowBytes = Math.ceil((width * 3) / 4) * 4;
  const pixelBytes = headerOnly ? 0 : rowBytes * height;
  const bytes = Buffer.alloc(54 + pixelBytes, 0xc8);
  bytes.write('BM', 0, 'ascii');
  bytes.writeUInt32LE(54 + rowBytes * height, 2);
  bytes.writeUInt32LE(0, 6);
  bytes.writeUInt32LE(54, 10);
  bytes.writeUInt32LE(40, 14);
  bytes.writeInt32LE(width, 18);
  bytes.writeInt32LE(height, 22);
  bytes.writeUInt16LE(1, 26);
  bytes.writeUInt16LE(24, 28);
  bytes.writeUInt32LE(0, 30);
  bytes.writeUInt32LE(rowBytes * height, 34);
  bytes.fill(0, 38, 54);
  return bytes;
}

const base64 = (bytes: Buffer) => bytes.toString('base64');

interface ImageTrigger {
  how: string;
  operation?: string;
  body?: Record<string, unknown>;
  /** The operation's documented example as it is. */
  example?: true;
}

/** How to get each kind; null for a kind the request schema refuses first over HTTP (a class of its own: validation). */
const ERROR_TRIGGERS: Record<ImageInputErrorKind, ImageTrigger | null> = {
  missing_field: { how: 'leave the image field out (or send it empty)', operation: DETECT, body: { image: '' } },
  // Every image field is a string in the schemas (a multipart part is a string or a file): `validation invalid_type`.
  invalid_type: null,
  invalid_encoding: { how: 'send a data URL whose payload is not base64', operation: DETECT, body: { image: 'data:image/png;base64,%%%' } },
  unsupported_format: { how: 'send bytes that are no image (a text file)', operation: DETECT, body: { image: base64(Buffer.from('this is not an image')) } },
  too_large: { how: `send an image of more than ${IMAGE_LIMITS.maxBytes} bytes (15 MiB)` },
  too_many_pixels: {
    how: `send an image whose header declares more than ${IMAGE_LIMITS.maxPixels / 1e6} megapixels (here a BMP header of 5000 x 4000)`,
    operation: DETECT,
    body: { image: base64(greyBmp(5000, 4000, true)) },
  },
  undecodable: { how: 'send an image cut short or corrupt (a BMP header with no pixels)', operation: DETECT, body: { image: base64(greyBmp(64, 64, true)) } },
  decode_timeout: { how: `send an image that takes longer than ${IMAGE_LIMITS.decodeTimeoutMs} ms to decode (a very large, heavily compressed one)` },
  invalid_document_type: { how: 'scan with a documentType that is not supported', operation: SCAN, body: { documentType: 'boarding_pass' } },
  storage_key_unreadable: { how: 'send a storage key (fileKey) your organization did not upload', operation: DETECT, example: true },
};

const PICTURE_TRIGGERS: Record<PictureKind, ImageTrigger> = {
  'too-small': { how: 'a picture under 16 px on a side (here an 8 x 8 BMP)', operation: DETECT, body: { image: base64(greyBmp(8, 8)) } },
  'near-uniform': {
    how: 'a flat or faint picture (fixtures/images/blank.png; here a flat grey 32 x 32 BMP)',
    operation: DETECT,
    body: { image: base64(greyBmp(32, 32)) },
  },
  document: { how: 'a document photo (fixtures/images/passport.jpg, drivers-license.jpg or national-id.jpg)' },
  photo: { how: 'a photo with detail (fixtures/images/face.jpg)' },
};

const FACE_TRIGGERS: Record<'found' | 'none', ImageTrigger> = {
  found: { how: 'a photo of a face (fixtures/images/face.jpg)' },
  none: {
    how: 'a picture with no face (fixtures/images/blank.png; here a flat grey 32 x 32 BMP)',
    operation: DETECT,
    body: { image: base64(greyBmp(32, 32)) },
  },
};

function trigger(context: SourceContext, { how, operation: name, body, example }: ImageTrigger): { how: string; request?: TriggerRequest } {
  const operation: OperationInfo | undefined = name === undefined ? undefined : context.operations.get(name);
  if (!operation || (body === undefined && !example)) return { how };
  return { how: `${how}, e.g. to ${name}`, request: exampleRequest(context, operation, body === undefined ? {} : { body }) };
}

export const imageSource: ClassSource = {
  name: 'image outcomes',
  classes: (context) => [
    ...IMAGE_INPUT_ERROR_KINDS.flatMap((kind) => {
      const how = ERROR_TRIGGERS[kind];
      if (how === null) return [];
      return [
        {
          id: `image error ${kind}`,
          kind: 'image' as const,
          title: `an image refused: ${kind}`,
          trigger: trigger(context, how),
          recognizer: { by: 'fact' as const, fact: imageErrorFact(kind) },
        },
      ];
    }),
    ...PICTURE_KINDS.map((kind) => ({
      id: `image picture ${kind}`,
      kind: 'image' as const,
      title: `an image analysed as ${kind}`,
      trigger: trigger(context, PICTURE_TRIGGERS[kind]),
      recognizer: { by: 'fact' as const, fact: pictureFact(kind) },
    })),
    ...(['found', 'none'] as const).map((found) => ({
      id: `image face ${found}`,
      kind: 'image' as const,
      title: found === 'found' ? 'a face found in an image' : 'no face found in an image',
      trigger: trigger(context, FACE_TRIGGERS[found]),
      recognizer: { by: 'fact' as const, fact: faceFact(found === 'found') },
    })),
  ],
};
