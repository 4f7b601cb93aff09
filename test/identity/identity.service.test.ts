import { describe, expect, it } from 'vitest';
import { scanDocument } from '../../src/document/document.service.ts';
import { compareFaces, detectFace } from '../../src/face/face.service.ts';
import { IdentityVerifyResponseSchema } from '../../src/identity/identity.schemas.ts';
import { verifyIdentity } from '../../src/identity/identity.service.ts';
import { drawSyntheticFace, encodeImage } from '../../src/images/synthetic-images.ts';
import { analyseBytes, blankBytes, documentBytes, faceBytes, inlineDecoder } from '../images/helpers.ts';

const decoder = inlineDecoder();

function round2(value: number): number {
  return Math.round(value * 100) / 100;
}

describe('identity verify', () => {
  it('verifies a passport against a selfie that is the same photo as its portrait, with §6.3 shapes on 0-100', async () => {
    const document = await analyseBytes(decoder, await documentBytes('passport', 'verify-doc', 'verify-person'), 'documentImage');
    const face = await analyseBytes(decoder, await encodeImage(drawSyntheticFace('verify-person', 200, 250), 'jpeg'), 'faceImage');
    const {
      value: response,
      explanations: [explanation],
    } = verifyIdentity({ document, face, documentType: 'passport' });
    expect(IdentityVerifyResponseSchema.parse(response)).toStrictEqual(response);
    expect(Object.keys(response)).toEqual(['verified', 'overallConfidence', 'document', 'faceDetection', 'faceMatch']);
    expect(response.verified).toBe(true);
    // document: the scan's ten strings, no rawFields/mrzData, confidence x 100
    const scan = scanDocument(document, 'passport').value;
    expect(response.document).toStrictEqual({
      documentType: scan.documentType,
      fullName: scan.fullName,
      firstName: scan.firstName,
      lastName: scan.lastName,
      dateOfBirth: scan.dateOfBirth,
      gender: scan.gender,
      nationality: scan.nationality,
      documentNumber: scan.documentNumber,
      expirationDate: scan.expirationDate,
      issuingCountry: scan.issuingCountry,
      confidence: round2(scan.confidence * 100),
    });
    expect(response.faceDetection).toStrictEqual({ faceDetected: true, confidence: round2(detectFace(face).value.confidence * 100) });
    const match = compareFaces(document, face).value;
    expect(response.faceMatch).toStrictEqual({ isMatch: true, confidence: match.confidence, threshold: 80 });
    expect(response.faceMatch.confidence).toBeGreaterThanOrEqual(90);
    expect(response.overallConfidence).toBe(
      round2(0.3 * response.document.confidence + 0.2 * response.faceDetection.confidence + 0.5 * response.faceMatch.confidence),
    );
    expect(explanation).toMatch(/^verified: document read \(\d+(\.\d+)?\); face detected \(\d+(\.\d+)?\); face similarity/);
  });

  it('does not verify a passport against someone else, and the overall confidence drops', async () => {
    const document = await analyseBytes(decoder, await documentBytes('passport', 'verify-doc-2', 'holder'));
    const stranger = await analyseBytes(decoder, await faceBytes('stranger'));
    const {
      value: response,
      explanations: [explanation],
    } = verifyIdentity({ document, face: stranger, documentType: 'auto' });
    expect(response.verified).toBe(false);
    expect(response.faceMatch.isMatch).toBe(false);
    expect(response.faceMatch.confidence).toBeLessThan(50);
    expect(response.faceDetection.faceDetected).toBe(true);
    expect(response.overallConfidence).toBeLessThan(70);
    expect(explanation).toMatch(/^not verified: .*< threshold 80/);
  });

  it('does not verify a blank document: empty strings, document confidence 0, no face match', async () => {
    const document = await analyseBytes(decoder, await blankBytes());
    const face = await analyseBytes(decoder, await faceBytes('blank-doc-selfie'));
    const { value: response } = verifyIdentity({ document, face, documentType: 'drivers_license' });
    expect(response.verified).toBe(false);
    expect(response.document.documentType).toBe('drivers_license');
    expect(response.document.fullName).toBe('');
    expect(response.document.confidence).toBe(0);
    expect(response.faceMatch).toStrictEqual({ isMatch: false, confidence: 0, threshold: 80 });
    expect(IdentityVerifyResponseSchema.parse(response)).toStrictEqual(response);
  });

  it('does not verify without a face in faceImage', async () => {
    const document = await analyseBytes(decoder, await documentBytes('national_id', 'verify-id', 'id-holder'));
    const { value: response } = verifyIdentity({ document, face: await analyseBytes(decoder, await blankBytes('jpeg')), documentType: 'national_id' });
    expect(response.verified).toBe(false);
    expect(response.faceDetection).toStrictEqual({ faceDetected: false, confidence: 0 });
    expect(response.faceMatch.confidence).toBe(0);
    expect(response.overallConfidence).toBe(round2(0.3 * response.document.confidence));
  });
});
