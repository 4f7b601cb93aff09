/** The verdicts POST /v1/deepfake/analyze answers, as coverage tables (its handler notes each answer's). */
import type { ValueTable } from '../platform/coverage/sources.ts';
import { DEEPFAKE_VERDICTS, TRUST_VERDICTS } from './deepfake.schemas.ts';

const operation = 'POST /v1/deepfake/analyze';

export const DEEPFAKE_VERDICT_COVERAGE: ValueTable = { name: 'deepfake verdicts', operation, member: 'verdict', values: DEEPFAKE_VERDICTS };
export const TRUST_VERDICT_COVERAGE: ValueTable = { name: 'deepfake trust verdicts', operation, member: 'trustVerdict', values: TRUST_VERDICTS };
