/**
 * The async job engine behind GET /v1/async-jobs/{jobId}. A job advances pending → processing →
 * ready | failed as the virtual clock passes (computed when read, like moto's managed states), and
 * disappears after the retention period. Its result is computed by the job kind from the job's input,
 * deterministically, so the same input always yields the same result.
 */
import type { Explained } from '../explained.ts';
import type { World } from '../namespaces/world.ts';

/** The phases of an async job, in order (failed instead of ready). */
export const JOB_STATUSES = ['pending', 'processing', 'ready', 'failed'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];
/** Decided when the job is created, from the scenarios active then. */
export type JobFate = 'normal' | 'fail' | 'stuck';

export type JobOutcome = { result: unknown; explanation?: string } | { error: string; explanation?: string };

export interface JobKind {
  name: string;
  run(input: unknown, context: { jobId: string; organizationId: string }): JobOutcome;
}

export interface JobTimings {
  processingAfterMs: number;
  doneAfterMs: number;
  retentionMs: number;
}

export const DEFAULT_JOB_TIMINGS: JobTimings = { processingAfterMs: 1000, doneAfterMs: 3000, retentionMs: 24 * 3_600_000 };

export interface StoredJob {
  id: string;
  organizationId: string;
  kind: string;
  input: unknown;
  createdAtMs: number;
  fate: JobFate;
  /** `<organization>|<Idempotency-Key>` when the client sent one. */
  idempotencyScope?: string;
  /** Fingerprint of the request body that created the job (idempotency replays compare it). */
  requestFingerprint?: string;
}

/** The wire shape of the spec's async job resource. */
export interface AsyncJobView {
  jobId: string;
  status: JobStatus;
  createdAt: number;
  updatedAt: string;
  result?: unknown;
  error?: string;
}

export class JobEngine {
  private readonly kinds = new Map<string, JobKind>();

  /** Every kind, known when the platform is built (src/modules.ts declares them): none depends on which area loaded first. */
  constructor(
    readonly timings: JobTimings,
    kinds: readonly JobKind[],
  ) {
    for (const kind of kinds) {
      if (this.kinds.has(kind.name)) throw new Error(`job kind ${kind.name} is declared twice`);
      this.kinds.set(kind.name, kind);
    }
  }

  kindNames(): string[] {
    return [...this.kinds.keys()];
  }

  create(world: World, job: Omit<StoredJob, 'id' | 'createdAtMs'>): StoredJob {
    if (!this.kinds.has(job.kind)) throw new Error(`unknown job kind ${job.kind}`);
    const stored: StoredJob = { id: world.uuid(), createdAtMs: world.clock.now(), ...job };
    return jobs(world).put(stored);
  }

  /** The job if it exists and has not outlived the retention period (expired jobs are removed). */
  find(world: World, jobId: string): StoredJob | undefined {
    const job = jobs(world).get(jobId);
    if (!job) return undefined;
    if (world.clock.now() - job.createdAtMs >= this.timings.retentionMs) {
      jobs(world).delete(jobId);
      return undefined;
    }
    return job;
  }

  /** The namespace's jobs within their retention period, oldest first. */
  list(world: World): StoredJob[] {
    return jobs(world)
      .all()
      .filter((job) => world.clock.now() - job.createdAtMs < this.timings.retentionMs)
      .sort((a, b) => a.createdAtMs - b.createdAtMs);
  }

  findByIdempotency(world: World, organizationId: string, key: string): StoredJob | undefined {
    const [job] = jobs(world).where('idempotency', `${organizationId}|${key}`);
    return job && this.find(world, job.id);
  }

  /** The job as the client sees it at the namespace's current time. */
  view(world: World, job: StoredJob): Explained<AsyncJobView> {
    const elapsed = world.clock.now() - job.createdAtMs;
    const at = (offset: number) => world.clock.iso(job.createdAtMs + offset);
    const base = { jobId: job.id, createdAt: Math.floor(job.createdAtMs / 1000) };
    if (elapsed < this.timings.processingAfterMs) return { value: { ...base, status: 'pending', updatedAt: at(0) }, explanations: [] };
    if (elapsed < this.timings.doneAfterMs || job.fate === 'stuck') {
      return {
        value: { ...base, status: 'processing', updatedAt: at(this.timings.processingAfterMs) },
        explanations: job.fate === 'stuck' ? ['scenario async-jobs-stuck: job stays processing'] : [],
      };
    }
    const doneAt = at(this.timings.doneAfterMs);
    if (job.fate === 'fail') {
      return {
        value: { ...base, status: 'failed', updatedAt: doneAt, error: 'The screening provider failed to complete the job. Submit a new request.' },
        explanations: ['scenario async-jobs-fail: job failed'],
      };
    }
    const kind = this.kinds.get(job.kind);
    if (!kind) throw new Error(`job ${job.id} has unknown kind ${job.kind}`);
    const outcome = kind.run(job.input, { jobId: job.id, organizationId: job.organizationId });
    const explanations = outcome.explanation === undefined ? [] : [outcome.explanation];
    if ('error' in outcome) return { value: { ...base, status: 'failed', updatedAt: doneAt, error: outcome.error }, explanations };
    return { value: { ...base, status: 'ready', updatedAt: doneAt, result: outcome.result }, explanations };
  }
}

function jobs(world: World) {
  return world.data.collection<StoredJob>('async-jobs').index('idempotency', (job) => job.idempotencyScope);
}
