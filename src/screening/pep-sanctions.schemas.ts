/**
 * PEP and sanctions screening: request body, response, and the watchlist fixture format
 * (fixtures/watchlists.json, written by scripts/generate-watchlists.ts).
 */
import { z } from '@hono/zod-openapi';
import { DateOfBirthSchema, EmailSchema, nameField } from './screening.schemas.ts';

export const PepSanctionsRequestSchema = z.lazy(() =>
  z
    .object({
      email: EmailSchema.optional(),
      firstName: nameField('firstName', 'Jane'),
      lastName: nameField('lastName', 'Doe'),
      dateOfBirth: DateOfBirthSchema,
    })
    .openapi('PepSanctionsRequest'),
);
export type PepSanctionsRequest = z.infer<typeof PepSanctionsRequestSchema>;

export const PepSanctionsMatchSchema = z.lazy(() =>
  z
    .object({
      name: z.string().openapi({ example: 'Émile VAUTRIN-LACOSTE' }),
      country: z.string().nullable().openapi({ example: 'FR' }),
      dateOfBirth: z.string().nullable().openapi({ example: '1955-11-23' }),
      confidence: z.number().min(0).max(1).openapi({ example: 0.98 }),
      datasets: z.array(z.string()).openapi({ example: ['Sandbox Global PEP List'] }),
    })
    .openapi('PepSanctionsMatch'),
);
export type PepSanctionsMatch = z.infer<typeof PepSanctionsMatchSchema>;

export const PepSanctionsResponseSchema = z.lazy(() =>
  z
    .object({
      totalMatches: z.number().int().min(0),
      peps: z.array(PepSanctionsMatchSchema),
      sanctions: z.array(PepSanctionsMatchSchema),
      both: z.array(PepSanctionsMatchSchema),
      searchedSources: z.array(z.string()),
    })
    .openapi('PepSanctionsResponse'),
);
export type PepSanctionsResponse = z.infer<typeof PepSanctionsResponseSchema>;

// ---- the watchlist fixture ----

export const WatchlistDatasetSchema = z.lazy(() =>
  z.object({
    /** Stable id, reported in searchedSources. */
    id: z.string().min(1),
    /** Human title, reported in a match's datasets (as the real service reports list names). */
    title: z.string().min(1),
    kind: z.enum(['pep', 'sanctions']),
    description: z.string(),
  }),
);
export type WatchlistDataset = z.infer<typeof WatchlistDatasetSchema>;

export const WatchlistEntrySchema = z.lazy(() =>
  z.object({
    id: z.string().min(1),
    dataset: z.string().min(1),
    /** As the list prints it: 'Given SURNAME'; sanctions lists of US/UN style drop diacritics. */
    name: z.string().min(1),
    aliases: z.array(z.string()),
    country: z.string().length(2).nullable(),
    dateOfBirth: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/)
      .nullable(),
    remarks: z.string(),
  }),
);
export type WatchlistEntry = z.infer<typeof WatchlistEntrySchema>;

export const WatchlistSchema = z.lazy(() =>
  z
    .object({
      version: z.literal(1),
      generatedBy: z.string(),
      seed: z.number().int(),
      datasets: z.array(WatchlistDatasetSchema).min(1),
      entries: z.array(WatchlistEntrySchema),
    })
    .superRefine((list, ctx) => {
      const ids = new Set(list.datasets.map((d) => d.id));
      list.entries.forEach((entry, index) => {
        if (!ids.has(entry.dataset)) {
          ctx.addIssue({ code: 'custom', path: ['entries', index, 'dataset'], message: `unknown dataset ${entry.dataset}` });
        }
      });
    }),
);
export type Watchlist = z.infer<typeof WatchlistSchema>;
