/**
 * What the image operations register on a platform: their rows in GET /__sandbox/catalog (the same
 * tables the analysis and the fixtures use) and the coverage source. Each image module sets up with
 * `setupImageOperations` once every area is; it acts once per platform.
 */
import type { CatalogEntry } from '../platform/catalog/catalog.ts';
import type { Platform } from '../platform/http/context.ts';
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

const catalogued = new WeakSet<Platform>();

/** Catalog rows and coverage source, once per platform whichever image module asks first. */
export function setupImageOperations(platform: Platform): void {
  if (catalogued.has(platform)) return;
  catalogued.add(platform);
  platform.catalog.add('magicValues', imageCatalogEntries());
  platform.coverage.addSource(imageSource);
}
