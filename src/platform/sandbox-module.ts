/**
 * What a resource area gives the app (its `index.ts` exports one): its routes and its set-up. Here, with
 * the platform, so an area's index depends on the platform only, and src/modules.ts (the list app.ts
 * mounts) depends on the areas without the areas depending back on it.
 *
 * An area's modules are evaluated on its first request, not at start-up (most of a start was building
 * their zod schemas): the start mounts the facts of src/routes.generated.ts instead (see src/areas.ts).
 */
import type { Hono } from 'hono';
import type { z } from 'zod';
import type { AppEnv } from './http/context.ts';
import type { Platform } from './platform.ts';
import type { JobKind } from './jobs/jobs.ts';

export interface SandboxModule {
  name: string;
  /** The area's routes (an OpenAPIHono, so that they reach /openapi.json; the console's are plain Hono). */
  router: () => Hono<AppEnv>;
  /**
   * Its rows of the catalog and its coverage sources: only data, read once every area is loaded (the
   * control plane, the console and coverage load them all), added in the order of src/modules.ts.
   */
  setup?: (platform: Platform) => void;
}

/** One area of the list app.ts mounts: its module is evaluated on first use. */
export interface AreaEntry {
  name: string;
  load: () => Promise<SandboxModule>;
  /**
   * The async job kinds it defines, from small modules evaluated at start-up: the job engine has every kind
   * when the platform is built, so a job is created or read by any area (a workflow step, the applicant's
   * page, GET /v1/async-jobs) whether or not this area was ever loaded.
   */
  jobKinds?: readonly JobKind[];
  /**
   * Its routes (`METHOD /path` of its route table) whose requests read what every area adds (the catalog's
   * rows, coverage's classes): every area is loaded before the first of them. Its other routes load only
   * this area, so a first control-plane call (a clock move, a retention setting) evaluates no other.
   */
  needsAll?: readonly string[];
  /**
   * collection → the shape its stored records must have to be served: a data file holding another is
   * refused at start-up (naming the file and the place), never answered with 500s. A small module of its
   * own, imported by src/modules.ts: the store checks it at start-up, before any area is loaded.
   */
  storedRecords?: Readonly<Record<string, z.ZodType>>;
}
