import type { SandboxModule } from '../platform/sandbox-module.ts';
import { clientOperationEntries } from '../platform/catalog/client-operations.ts';
import { deepfakeRouter } from './deepfake.router.ts';
import { DEEPFAKE_ROUTES } from './deepfake.routes.ts';
import { DEEPFAKE_DERIVED_OUTCOMES, DEEPFAKE_MAGIC_WORDS } from './deepfake.service.ts';
import { exampleRequest, valueSource, type ValueTable } from '../platform/coverage/sources.ts';
import { DEEPFAKE_VERDICT_COVERAGE, TRUST_VERDICT_COVERAGE } from './deepfake-coverage.ts';

/** A verdict's trigger: the magic challenge word that forces it, after the frames are uploaded. */
function verdictSource(table: ValueTable, verdictOf: (word: (typeof DEEPFAKE_MAGIC_WORDS)[number]) => string) {
  return valueSource(table, (value, context) => {
    const word = DEEPFAKE_MAGIC_WORDS.find((candidate) => verdictOf(candidate) === value);
    const operation = context.operations.get(table.operation);
    if (!word || !operation) return { how: `see the catalog's magic values of ${table.operation}` };
    return {
      how: `POST /v1/deepfake/upload-urls, PUT the six frames to the URLs, then ${table.operation} with their s3Keys and challengeWord "${word.input}"`,
      request: exampleRequest(context, operation, { body: { challengeWord: word.input } }),
    };
  });
}

const endpoint = 'POST /v1/deepfake/analyze';

/** Deepfake detection (real client, not in the spec): challenge, upload URLs, analyze. */
export const deepfakeModule: SandboxModule = {
  name: 'deepfake',
  router: () => deepfakeRouter,
  capabilities: [
    {
      catalog: {
        clientOperations: clientOperationEntries(DEEPFAKE_ROUTES),
        magicValues: [
          ...DEEPFAKE_MAGIC_WORDS.map(({ input, outcome, description }) => ({ endpoint, input: `challengeWord ${input}`, outcome, description })),
          ...DEEPFAKE_DERIVED_OUTCOMES.map((entry) => ({ endpoint, ...entry })),
        ],
      },
      coverage: [verdictSource(DEEPFAKE_VERDICT_COVERAGE, (word) => word.verdict), verdictSource(TRUST_VERDICT_COVERAGE, (word) => word.trustVerdict)],
    },
    // The six uploaded frames.
    { decodesImages: ['analyzeDeepfake'] },
  ],
};
