/**
 * What the image operations add to a platform: their rows in GET /__sandbox/catalog (the same tables the
 * analysis and the fixtures use) and the coverage source, one capability that each image area lists.
 */
import type { CatalogEntry } from '../platform/catalog/catalog.ts';
import type { Capability } from '../platform/sandbox-module.ts';
import { AUTO_DOCUMENT_TYPE_RULES, DOCUMENT_TYPE_ALIASES } from './document-types.ts';
import { imageSource } from './image-coverage.ts';
import { IMAGE_FIXTURES, IMAGE_OUTCOME_RULES, imageFixtureCatalog } from './image-outcomes.ts';

export const IMAGE_ENDPOINTS = 'POST /v1/document/scan, /v1/face/detect, /v1/face/compare, /v1/face/estimate-age, /v1/identity/verify';

/** Rules, fixture files and identity-verify pairs, as catalog rows. */
export function imageCatalogEntries(): CatalogEntry[] {
  const rules = IMAGE_OUTCOME_RULES.map((rule) => ({ endpoint: IMAGE_ENDPOINTS, ...rule }));
  const fixtures = imageFixtureCatalog().map((row) => ({ endpoint: IMAGE_ENDPOINTS, ...row }));
  const verifyPairs = IMAGE_FIXTURES.filter((fixture) => fixture.autoDocumentType).map((document) => {
    const faces = IMAGE_FIXTURES.filter((face) => !face.autoDocumentType && face.person === document.person).map((face) => face.file);
    return {
      endpoint: 'POST /v1/identity/verify',
      input: `documentImage fixtures/images/${document.file}, faceImage one of ${faces.join(', ')}`,
      outcome: 'verified true (with a picture of the other person: verified false, faceMatch.isMatch false)',
      description: document.description,
    };
  });
  const documentTypes = [...AUTO_DOCUMENT_TYPE_RULES, ...DOCUMENT_TYPE_ALIASES.filter((alias) => alias.description.startsWith('alias'))].map((rule) => ({
    endpoint: 'POST /v1/document/scan, /v1/identity/verify',
    input: `documentType ${rule.input}`,
    outcome: `documentType ${rule.outcome}`,
    description: rule.description,
  }));
  return [...rules, ...fixtures, ...verifyPairs, ...documentTypes];
}

/** The image operations' catalog rows and coverage source: listed by every area that runs them, counted once. */
export const IMAGE_OPERATIONS: Capability = { catalog: { magicValues: imageCatalogEntries() }, coverage: [imageSource] };
