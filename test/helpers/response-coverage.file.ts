/** vitest setupFiles: notes each test file that runs, so the coverage check knows whether the whole suite ran. */
import { expect } from 'vitest';
import { recordTestFile } from './response-coverage.ts';

const { testPath } = expect.getState();
if (testPath) recordTestFile(testPath);
