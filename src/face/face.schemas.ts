/**
 * Wire shapes of POST /v1/face/detect, /v1/face/compare and /v1/face/estimate-age (200 bodies), per
 * the spec and the real client (real-client-facts §6.3). Optional keys are omitted, never null.
 */
import { z } from '@hono/zod-openapi';
import { LANDMARK_TYPES } from '../images/face-analysis.ts';
import { ImageStringSchema } from '../images/images.schemas.ts';

const unit = (description: string) => z.number().min(0).max(1).openapi({ description });

export const FaceBoundingBoxSchema = z
  .object({
    top: unit('Top edge, fraction of the picture height.'),
    left: unit('Left edge, fraction of the picture width.'),
    width: unit('Fraction of the picture width.'),
    height: unit('Fraction of the picture height.'),
  })
  .openapi('FaceBoundingBox');

export const FaceLandmarkSchema = z
  .object({
    type: z.enum(LANDMARK_TYPES).openapi({ description: "Viewer's perspective: eyeLeft is the eye on the left of the picture." }),
    x: unit('Fraction of the picture width.'),
    y: unit('Fraction of the picture height.'),
  })
  .openapi('FaceLandmark');

export const FaceDetectResponseSchema = z
  .object({
    faceDetected: z.boolean(),
    confidence: unit('0 when no face.'),
    boundingBox: FaceBoundingBoxSchema.optional(),
    landmarks: z.array(FaceLandmarkSchema).optional(),
  })
  .openapi('FaceDetectResponse');

export const FaceCompareResponseSchema = z
  .object({
    isMatch: z.boolean().openapi({ description: 'confidence >= threshold' }),
    confidence: z.number().min(0).max(100).openapi({ description: 'Raw similarity 0-100; 0 when either picture has no face.', example: 97.4 }),
    threshold: z.number().min(0).max(100).openapi({ description: 'Server-side match threshold.', example: 80 }),
    sourceFaceDetected: z.boolean(),
    targetFaceDetected: z.boolean(),
  })
  .openapi('FaceCompareResponse');

export const FaceAgeRangeSchema = z.object({ low: z.number().int(), high: z.number().int() }).openapi('FaceAgeRange');

export const FaceAgeResponseSchema = z
  .object({
    faceDetected: z.boolean(),
    estimatedAge: z.number().int().optional().openapi({ description: 'Midpoint of ageRange.' }),
    ageRange: FaceAgeRangeSchema.optional(),
    gender: z.enum(['male', 'female']).optional(),
    genderConfidence: unit('0.5-1.').optional(),
  })
  .openapi('FaceAgeResponse');

export type FaceDetectResponse = z.infer<typeof FaceDetectResponseSchema>;
export type FaceCompareResponse = z.infer<typeof FaceCompareResponseSchema>;
export type FaceAgeResponse = z.infer<typeof FaceAgeResponseSchema>;

/** JSON body of POST /v1/face/detect and /v1/face/estimate-age (the real client sends `{ image: fileKey }`). */
export const FaceImageRequestSchema = z.object({ image: ImageStringSchema }).openapi('FaceImageRequest');

/** JSON body of POST /v1/face/compare: each side base64, base64url or a fileKey, mixed freely. */
export const FaceCompareRequestSchema = z
  .object({
    source: ImageStringSchema,
    target: ImageStringSchema,
  })
  .openapi('FaceCompareRequest');
