/**
 * What a resource area gives the app (its `index.ts` exports one): its routes and its capabilities, as
 * data. Here, with
 * the platform, so an area's index depends on the platform only, and src/modules.ts (the list app.ts
 * mounts) depends on the areas without the areas depending back on it.
 *
 * An area's modules are evaluated on its first request, not at start-up (most of a start was building
 * their zod schemas): the start mounts the facts of src/routes.generated.ts instead (see src/areas.ts).
 */
import type { Hono } from 'hono';
import type { z } from 'zod';
import type { AppEnv } from './http/context.ts';
import type { CatalogEntry, CatalogSection } from './catalog/catalog.ts';
import type { ClassSource } from './coverage/outcome-class.ts';
import type { JobKind } from './jobs/jobs.ts';
import type { Port, PortProvision } from './platform.ts';

/**
 * Something an area adds to the platform's registries: catalog rows (by section) and coverage sources.
 * Registered when the platform is built, read on the catalog's or coverage's first use, in the order of
 * src/modules.ts; one shared by several areas (the image engine's operations) counts once, where it is
 * first listed.
 */
export interface Capability {
  catalog?: Partial<Record<CatalogSection, readonly CatalogEntry[]>>;
  coverage?: readonly ClassSource[];
  /**
   * The area's operations (by operationId) that decode an image, whatever it came as: a binary part, base64,
   * a stored upload or a file key. Their first call starts the image engine; the route table marks them.
   */
  decodesImages?: readonly string[];
}

export interface SandboxModule {
  name: string;
  /** The area's routes (an OpenAPIHono, so that they reach /openapi.json; the console's are plain Hono). */
  router: () => Hono<AppEnv>;
  /** What it adds to the catalog and to coverage, in order. */
  capabilities?: readonly Capability[];
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
   * collection → the shape its stored records must have to be served: a data file holding another is
   * refused at start-up (naming the file and the place), never answered with 500s. A small module of its
   * own, imported by src/modules.ts: the store checks it at start-up, before any area is loaded.
   */
  storedRecords?: Readonly<Record<string, z.ZodType>>;
  /**
   * The ports its modules use (declared by it or by an area below it that it reaches through a workflow
   * step or a session it creates): connected before its first request is answered, whichever area came first.
   */
  needs?: readonly Port<unknown>[];
  /** The ports it implements for the areas below it, each implementation loaded when an area first needs it. */
  provides?: readonly PortProvision[];
}
