/**
 * Generates fixtures/images/ (small, deterministic, drawn procedurally: nothing is downloaded), checks
 * that every file gives the outcome IMAGE_FIXTURES documents, and writes fixtures/images/README.md
 * from the measured results.
 *
 *   npx tsx scripts/make-fixture-images.ts          # write the files
 *   npx tsx scripts/make-fixture-images.ts --check  # only check the files on disk
 *
 * Formats: jimp encodes JPEG, PNG, GIF, BMP and TIFF itself; WebP is encoded with sharp (libwebp, through
 * src/images/codecs.cjs). Faces are 104x130 so that the uncompressed BMP and
 * TIFF copies stay under 60 KB.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Jimp } from 'jimp';
import { scanDocument } from '../src/document/document.service.ts';
import { compareFaces, detectFace, estimateAge } from '../src/face/face.service.ts';
import { verifyIdentity } from '../src/identity/identity.service.ts';
import { analyseImage, type AnalysedImage } from '../src/images/image-analysis.ts';
import { createImageDecoder } from '../src/images/image-decoding.ts';
import { FIXTURE_FACE_SIZE, FIXTURE_SEEDS, IMAGE_FIXTURES, IMAGE_OUTCOME_RULES } from '../src/images/image-outcomes.ts';
import { drawBlankFrame, drawSyntheticDocument, drawSyntheticFace, encodeImage } from '../src/images/synthetic-images.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dir = join(root, 'fixtures', 'images');
const MAX_FIXTURE_BYTES = 60 * 1024;

async function generate(): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>();
  const { width, height } = FIXTURE_FACE_SIZE;
  const faceJpeg = await encodeImage(drawSyntheticFace(FIXTURE_SEEDS.personA, width, height), 'jpeg', { quality: 85 });
  files.set('face.jpg', faceJpeg);
  // Re-encodings of face.jpg's own pixels.
  const decodedFace = await Jimp.fromBuffer(faceJpeg);
  for (const format of ['png', 'gif', 'bmp', 'tiff', 'webp'] as const) {
    files.set(`face.${format}`, await encodeImage(decodedFace, format, { quality: 80 }));
  }
  const cropX = Math.round(width * 0.03);
  const cropY = Math.round(height * 0.03);
  const cropped = decodedFace
    .clone()
    .crop({ x: cropX, y: cropY, w: width - cropX, h: height - cropY })
    .resize({ w: 180 });
  files.set('face-cropped.jpg', await cropped.getBuffer('image/jpeg', { quality: 60 }));
  files.set('different-face.jpg', await encodeImage(drawSyntheticFace(FIXTURE_SEEDS.personB, width, height), 'jpeg', { quality: 85 }));
  files.set('blank.png', await encodeImage(drawBlankFrame(width, height, [228, 228, 226], 2, 'fixture-blank'), 'png'));
  const portraitA = drawSyntheticFace(FIXTURE_SEEDS.personA, 280, 350);
  const portraitB = drawSyntheticFace(FIXTURE_SEEDS.personB, 280, 350);
  files.set('passport.jpg', await encodeImage(await drawSyntheticDocument('passport', 'fixture-passport', portraitA), 'jpeg', { quality: 80 }));
  files.set('drivers-license.jpg', await encodeImage(await drawSyntheticDocument('drivers_license', 'fixture-licence', portraitB), 'jpeg', { quality: 80 }));
  files.set('national-id.jpg', await encodeImage(await drawSyntheticDocument('national_id', 'fixture-id-card', portraitA), 'jpeg', { quality: 80 }));
  return files;
}

interface Checked {
  analyses: Map<string, AnalysedImage>;
  problems: string[];
}

async function check(files: Map<string, Buffer>): Promise<Checked> {
  const decoder = createImageDecoder();
  const analyses = new Map<string, AnalysedImage>();
  const problems: string[] = [];
  for (const fixture of IMAGE_FIXTURES) {
    const bytes = files.get(fixture.file);
    if (!bytes) {
      problems.push(`${fixture.file}: missing`);
      continue;
    }
    if (bytes.length > MAX_FIXTURE_BYTES) problems.push(`${fixture.file}: ${bytes.length} bytes > ${MAX_FIXTURE_BYTES}`);
    const analysis = analyseImage(await decoder.decode(bytes, fixture.file));
    analyses.set(fixture.file, analysis);
    if (analysis.image.format !== fixture.format) problems.push(`${fixture.file}: decoded as ${analysis.image.format}, expected ${fixture.format}`);
    if ((analysis.face !== null) !== fixture.faceDetected)
      problems.push(`${fixture.file}: faceDetected ${analysis.face !== null}, expected ${fixture.faceDetected}`);
    if (fixture.autoDocumentType) {
      const type = scanDocument(analysis, 'auto').value.documentType;
      if (type !== fixture.autoDocumentType) problems.push(`${fixture.file}: auto -> ${type}, expected ${fixture.autoDocumentType}`);
    }
  }
  for (const a of IMAGE_FIXTURES) {
    for (const b of IMAGE_FIXTURES) {
      const left = analyses.get(a.file);
      const right = analyses.get(b.file);
      if (!left || !right || a.file >= b.file) continue;
      const expected = a.person !== null && a.person === b.person;
      const result = compareFaces(left, right).value;
      if (result.isMatch !== expected)
        problems.push(`${a.file} vs ${b.file}: isMatch ${result.isMatch} (confidence ${result.confidence}), expected ${expected}`);
    }
  }
  return { analyses, problems };
}

function kb(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KB`;
}

function readme(files: Map<string, Buffer>, analyses: Map<string, AnalysedImage>): string {
  const face = analyses.get('face.jpg') as AnalysedImage;
  const rows = IMAGE_FIXTURES.map((fixture) => {
    const analysis = analyses.get(fixture.file) as AnalysedImage;
    const detect = detectFace(analysis).value;
    const age = estimateAge(analysis).value;
    const vsFace = compareFaces(face, analysis).value;
    const scan = scanDocument(analysis, 'auto').value;
    const ageText = age.faceDetected ? `${age.estimatedAge} (${age.ageRange?.low}-${age.ageRange?.high}), ${age.gender} ${age.genderConfidence}` : '-';
    const scanText =
      scan.confidence > 0 ? `${scan.documentType}: ${scan.fullName}, ${scan.documentNumber} (${scan.confidence})` : `${scan.documentType}: unreadable (0)`;
    const matches = IMAGE_FIXTURES.filter((o) => o.person !== null && o.person === fixture.person && o.file !== fixture.file).length;
    return `| ${fixture.file} | ${fixture.format} | ${kb(files.get(fixture.file)?.length ?? 0)} | ${analysis.image.width}x${analysis.image.height} | ${detect.faceDetected ? `yes (${detect.confidence})` : 'no'} | ${fixture.person ?? '-'} | ${vsFace.confidence} ${vsFace.isMatch ? 'match' : 'no match'} | ${ageText} | ${scanText} | ${fixture.description}${matches ? '' : ''} |`;
  });
  const verifyRows = [
    ['passport.jpg', 'face.jpg', 'passport'],
    ['passport.jpg', 'different-face.jpg', 'passport'],
    ['drivers-license.jpg', 'different-face.jpg', 'auto'],
    ['drivers-license.jpg', 'face.webp', 'auto'],
    ['national-id.jpg', 'face.png', 'national_id'],
    ['passport.jpg', 'blank.png', 'passport'],
    ['blank.png', 'face.jpg', 'auto'],
  ].map(([doc, selfie, type]) => {
    const result = verifyIdentity({
      document: analyses.get(doc as string) as AnalysedImage,
      face: analyses.get(selfie as string) as AnalysedImage,
      documentType: type as 'passport' | 'auto' | 'national_id',
    }).value;
    return `| ${doc} | ${selfie} | ${type} | ${result.verified} | ${result.overallConfidence} | ${result.faceMatch.confidence} |`;
  });
  const rules = IMAGE_OUTCOME_RULES.map((rule) => `| ${rule.input} | ${rule.outcome} | ${rule.description} |`);
  return [
    '# Image fixtures',
    '',
    'Generated by `npx tsx scripts/make-fixture-images.ts` (procedural drawings seeded with `rngFrom`; nothing',
    'downloaded). Do not edit by hand: the script checks every file against `IMAGE_FIXTURES` in',
    '`src/images/image-outcomes.ts` and rewrites this page from the measured results. Two pictures match in',
    'face compare (threshold 80) exactly when they show the same person.',
    '',
    '| file | format | size | pixels | face detected (confidence) | person | compare with face.jpg | estimate-age | document scan (auto) | what it is |',
    '|---|---|---|---|---|---|---|---|---|---|',
    ...rows,
    '',
    '## Identity verify with the fixtures',
    '',
    '| documentImage | faceImage | documentType | verified | overallConfidence | faceMatch.confidence |',
    '|---|---|---|---|---|---|',
    ...verifyRows,
    '',
    '## Rules the outcomes follow',
    '',
    '| input | outcome | why |',
    '|---|---|---|',
    ...rules,
    '',
  ].join('\n');
}

async function main(): Promise<void> {
  const checkOnly = process.argv.includes('--check');
  let files: Map<string, Buffer>;
  if (checkOnly) {
    files = new Map(IMAGE_FIXTURES.map((fixture) => [fixture.file, readFileSync(join(dir, fixture.file))]));
  } else {
    files = await generate();
  }
  const { analyses, problems } = await check(files);
  if (problems.length > 0) {
    console.error(`fixtures do not give their documented outcomes:\n  ${problems.join('\n  ')}`);
    process.exitCode = 1;
    return;
  }
  if (!checkOnly) {
    mkdirSync(dir, { recursive: true });
    for (const [name, bytes] of files) writeFileSync(join(dir, name), bytes);
    writeFileSync(join(dir, 'README.md'), readme(files, analyses));
  }
  for (const [name, bytes] of files) console.log(`${name.padEnd(22)} ${kb(bytes.length)}`);
  console.log(checkOnly ? 'fixtures ok' : `wrote ${files.size} files and README.md to ${dir}`);
}

await main();
