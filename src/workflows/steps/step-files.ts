/**
 * Uploaded files a step reads: the key checked (a file key of the session's organization, bytes arrived),
 * its type read from the bytes (the image engine's sniffing, or a PDF header), an image decoded and
 * analysed by the image engine, so a step can tell a readable document from a blank frame.
 */
import type { AnalysedImage } from '../../images/image-analysis.ts';
import { sniffImageFormat, mimeOf } from '../../images/image-format.ts';
import { UploadStore } from '../../platform/uploads/uploads.ts';
import { workflowError } from '../workflow-errors.ts';
import { loadMedia, readUploadAs } from './id-verification.step.ts';
import type { UploadReader } from './step-module.ts';

export interface TypedFile {
  field: string;
  fileKey: string;
  /** The type read from the bytes (image/jpeg, application/pdf, …), or null when neither an image nor a PDF. */
  contentType: string | null;
  byteLength: number;
  /** Images only: the analysis of the image engine. */
  image?: AnalysedImage;
}

const PDF_MAGIC = '%PDF-';

/** 400 INVALID_UPLOAD_KEY unless the value has the shape of a file key. */
function requireFileKey(field: string, fileKey: string): void {
  if (UploadStore.looksLikeKey(fileKey)) return;
  throw workflowError(
    'INVALID_UPLOAD_KEY',
    `Invalid request: ${field} "${fileKey.slice(0, 80)}" is not a file key: upload the file with POST /v1/sessions/{session_id}/uploads (or POST /v1/upload/presign), PUT its bytes, then send its file_key.`,
  );
}

/** Reads and types each file (400/403 INVALID_UPLOAD_KEY for a key that is not one or cannot be read). */
export async function readTypedFiles(fields: Record<string, string>, readUpload: UploadReader): Promise<TypedFile[]> {
  const files: TypedFile[] = [];
  for (const [field, fileKey] of Object.entries(fields)) {
    requireFileKey(field, fileKey);
    const bytes = await readUploadAs(readUpload, fileKey, field);
    const format = sniffImageFormat(bytes);
    if (format !== null) {
      const [loaded] = Object.values(await loadMedia({ [field]: bytes }));
      files.push({ field, fileKey, contentType: mimeOf(format), byteLength: bytes.length, ...(loaded === undefined ? {} : { image: loaded.analysis }) });
      continue;
    }
    const pdf = bytes.subarray(0, PDF_MAGIC.length).toString('latin1') === PDF_MAGIC;
    files.push({ field, fileKey, contentType: pdf ? 'application/pdf' : null, byteLength: bytes.length });
  }
  return files;
}

/** Why a file cannot serve as a document, or undefined when it can (a PDF, or an image the document engine could read). */
export function unreadableReason(file: TypedFile): string | undefined {
  if (file.contentType === null) return `${file.field}: the bytes are neither an image nor a PDF`;
  if (file.image?.featureless) return `${file.field}: the ${file.contentType} image is blank (${file.image.summary})`;
  return undefined;
}

/** One uploaded image, decoded and analysed (400 INVALID_MEDIA when the bytes are not an image). */
export async function readImage(field: string, fileKey: string, readUpload: UploadReader): Promise<AnalysedImage> {
  requireFileKey(field, fileKey);
  const [loaded] = Object.values(await loadMedia({ [field]: await readUploadAs(readUpload, fileKey, field) }));
  return (loaded as { analysis: AnalysedImage }).analysis;
}
