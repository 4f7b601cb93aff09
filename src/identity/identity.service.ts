/**
 * Identity verify: the compound operation. Runs document scan on documentImage, face detect on
 * faceImage and face compare (documentImage as source: its portrait; faceImage as target) on pictures
 * decoded and analysed once each (the route loads both in parallel with loadImages), and aggregates.
 *
 * Aggregation (the spec only names overallConfidence; these are the sandbox's rules):
 * - verified = the document was readable (scan confidence >= 0.5) AND a face was found in faceImage
 *   AND faceMatch.isMatch.
 * - overallConfidence = 0.3 x document confidence + 0.2 x face detection confidence + 0.5 x face match
 *   confidence, each on 0-100, rounded to 2 decimals (so a mismatch pulls it far down).
 *
 * LIMITATIONS:
 * - Expiry, age and data consistency are not checked; faceImage of the document is never returned.
 */
import { type DocumentTypeInput, scanDocument } from '../document/api.ts';
import { compareFaces, detectFace, FACE_MATCH_THRESHOLD } from '../face/api.ts';
import type { AnalysedImage } from '../images/image-analysis.ts';
import type { Explained } from '../platform/explained.ts';
import { round } from '../platform/numbers.ts';
import type { IdentityVerifyResponse } from './identity.schemas.ts';

export const IDENTITY_WEIGHTS = { document: 0.3, faceDetection: 0.2, faceMatch: 0.5 } as const;
/** Least document scan confidence (0-1) that counts as read. */
export const MIN_DOCUMENT_CONFIDENCE = 0.5;

export interface VerifyIdentityInput {
  document: AnalysedImage;
  face: AnalysedImage;
  documentType: DocumentTypeInput;
  /** Face match threshold (default FACE_MATCH_THRESHOLD). */
  threshold?: number;
  referenceDate?: string;
}

export function verifyIdentity(input: VerifyIdentityInput): Explained<IdentityVerifyResponse> {
  const threshold = input.threshold ?? FACE_MATCH_THRESHOLD;
  const scan = scanDocument(input.document, input.documentType, input.referenceDate ? { referenceDate: input.referenceDate } : {});
  const detection = detectFace(input.face);
  const match = compareFaces(input.document, input.face, threshold);
  const { rawFields: _rawFields, mrzData: _mrzData, confidence: scanConfidence, ...documentFields } = scan.value;
  const documentConfidence = round(scanConfidence * 100, 2);
  const faceDetectionConfidence = round(detection.value.confidence * 100, 2);
  const documentRead = scan.readable && scanConfidence >= MIN_DOCUMENT_CONFIDENCE;
  const verified = documentRead && detection.value.faceDetected && match.value.isMatch;
  const overallConfidence = round(
    IDENTITY_WEIGHTS.document * documentConfidence +
      IDENTITY_WEIGHTS.faceDetection * faceDetectionConfidence +
      IDENTITY_WEIGHTS.faceMatch * match.value.confidence,
    2,
  );
  const reasons = [
    documentRead ? `document read (${documentConfidence})` : `document not read (${documentConfidence})`,
    detection.value.faceDetected ? `face detected (${faceDetectionConfidence})` : 'no face in faceImage',
    ...match.explanations,
  ];
  return {
    value: {
      verified,
      overallConfidence,
      document: { ...documentFields, confidence: documentConfidence },
      faceDetection: { faceDetected: detection.value.faceDetected, confidence: faceDetectionConfidence },
      faceMatch: { isMatch: match.value.isMatch, confidence: match.value.confidence, threshold },
    },
    explanations: [`${verified ? 'verified' : 'not verified'}: ${reasons.join('; ')}`],
  };
}
