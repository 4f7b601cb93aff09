/**
 * What every stored session must hold to be served (the store checks it at start-up). In a module of its
 * own so that a start with a data file checks sessions without evaluating the sessions area.
 */
import { z } from '@hono/zod-openapi';

export const STORED_SESSION_SHAPE = z.looseObject({ id: z.string(), record: z.looseObject({ id: z.string() }) });
