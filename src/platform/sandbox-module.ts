/**
 * What a resource area gives the app (its `index.ts` exports one): its routes and its set-up. Here, with
 * the platform, so an area's index depends on the platform only, and src/modules.ts (the list app.ts
 * mounts) depends on the areas without the areas depending back on it.
 */
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { z } from 'zod';
import type { AppEnv, Platform } from './http/context.ts';

export interface SandboxModule {
  name: string;
  /** The area's routes (an OpenAPIHono, so they reach /openapi.json). */
  router: (platform: Platform) => OpenAPIHono<AppEnv>;
  /** Registers job kinds and catalog entries. */
  setup?: (platform: Platform) => void;
  /**
   * collection → the shape its stored records must have to be served: a data file holding another is
   * refused at start-up (naming the file and the place), never answered with 500s.
   */
  storedRecords?: Readonly<Record<string, z.ZodType>>;
}
