/**
 * What the deepfake area needs of a hosted session (the sessions area, above this one): whose it is, so a
 * challenge of another organization's session is refused. Provided by the sessions area (src/modules.ts).
 */
import { declarePort } from '../platform/platform.ts';
import type { World } from '../platform/namespaces/world.ts';

export interface DeepfakeSessions {
  /** The organization that created session `sessionId`, or undefined when no session has that id (yet). */
  organizationOf(world: World, sessionId: string): string | undefined;
}

export const deepfakeSessions = declarePort<DeepfakeSessions>('deepfake → sessions');
