// manifest.json and the freshness envelope (api.md "GET /v1/freshness"): one schema, read by the pipeline for the
// previous snapshot and by the server for the one it serves.
import * as z from 'zod'
import { FEED_KINDS_IN_WORDS, FeedKind, feedTraits, SourceKind } from './feed-traits.ts'
import { RateVaries } from './model.ts'

export const FRESHNESS_STATUSES = [
  'ok',
  'changed',
  'stale',
  'failed',
  'manual',
  'unknown',
  'anchor_regression',
  'static',
  'maintenance',
] as const
export const FreshnessStatus = z.enum(FRESHNESS_STATUSES)
export type FreshnessStatus = z.infer<typeof FreshnessStatus>

export const Klass = z.enum(['auto', 'reload', 'static'])
export type Klass = z.infer<typeof Klass>

export const PendingEdition = z
  .object({
    edition: z.string().describe('the edition as its publisher names it'),
    feed: FeedKind.describe('the feed that lists it'),
    outcome: z.enum(['failed', 'anchor_regression']).describe('failed: it could not be fetched, read or checked; anchor_regression: its rates broke a known-good anchor'),
    reason: z.string().describe('what went wrong, as the refresh recorded it'),
  })
  .meta({ id: 'PendingEdition' })
export type PendingEdition = z.infer<typeof PendingEdition>

export const FreshnessRecord = z.object({
  code: z.string().regex(/^[a-z]{2}$/),
  name: z.string(),
  klass: Klass,
  status: FreshnessStatus,
  last_refreshed_at: z.string().nullable(),
  effective_through: z.string().nullable(),
  last_fetch: z.string().nullable(),
  source_period: z.string().nullable(),
  rows: z.number().int().nonnegative(),
  withheld_rows: z
    .number()
    .int()
    .nonnegative()
    .describe('ZIPs whose new source figure failed validation and was not published (each keeps its previous answer when it had one)'),
  feed: FeedKind.describe(`the kind of source file read: ${FEED_KINDS_IN_WORDS}`),
  source_kind: SourceKind.describe('official (the revenue department), aggregator (an estimate by Avalara) or statute (no source file)'),
  edition: z.string().nullable().describe('the edition of the data in service, as its publisher names it'),
  fallback_reason: z.string().nullable().describe("why the feed in service is not the state's preferred (official) one; null when it is"),
  pending_edition: PendingEdition.nullable().describe(
    'an edition the publisher lists that could not be used on the last refresh: newer than `edition`, or of the preferred feed while a fallback serves. The data of `edition` is served meanwhile, and changes the pending edition announces are not yet in the changes feed; null when none',
  ),
})
export type FreshnessRecord = z.infer<typeof FreshnessRecord>

export const FreshnessEnvelope = z.object({
  generated_at: z.string(),
  states: z.array(FreshnessRecord),
})
export type FreshnessEnvelope = z.infer<typeof FreshnessEnvelope>

export const ManifestFile = z.object({ name: z.string(), size: z.number().int(), sha256: z.string().length(64) })

export const SourceFileRecord = z.object({
  url: z.string(),
  name: z.string(),
  member: z.string().optional(),
  sha256: z.string(),
  size: z.number().int(),
})

export const AnchorResult = z.object({
  zip: z.string(),
  asOf: z.string(),
  edition: z.string(),
  expected: z.string(),
  actual: z.string().nullable(),
  outcome: z.enum(['held', 'diverged', 'not_applicable']),
})
export type AnchorResult = z.infer<typeof AnchorResult>

export const FEED_OUTCOMES = ['served', 'no_file', 'failed', 'anchor_regression'] as const

/** One feed tried on a refresh, in the state's order of preference. */
export const FeedAttempt = z.object({
  feed: FeedKind,
  /** no_file: the feed has nothing for the state (not a failure); failed / anchor_regression: it had and could not be used */
  outcome: z.enum(FEED_OUTCOMES),
  message: z.string(),
  /** the edition the publisher listed and this try loaded, when it names one (failed and anchor_regression tries) */
  edition: z.string().optional(),
})
export type FeedAttempt = z.infer<typeof FeedAttempt>

/**
 * How a new official feed compared with the aggregator drop when it replaced it (pipeline/run/official-trial.ts):
 * the ZIPs both answer, how many agree on the default rate, the share that disagree and the limit it
 * was held to, the disagreements by class (consistency-audit.ts), and whether the operator accepted it.
 */
export const OfficialTrial = z.object({
  aggregator_edition: z.string(),
  as_of: z.string(),
  zips: z.number().int().nonnegative(),
  agreeing: z.number().int().nonnegative(),
  disagreement_share: z.number().min(0).max(1),
  limit: z.number().min(0).max(1),
  by_class: z.record(z.string(), z.number().int().nonnegative()),
  accepted: z.boolean(),
})
export type OfficialTrial = z.infer<typeof OfficialTrial>

export const StateRecord = z.object({
  code: z.string(),
  name: z.string(),
  klass: Klass,
  feed: FeedKind,
  status: FreshnessStatus,
  /** the edition of the data in service (may be an earlier run's when this run failed) */
  edition: z.string().nullable(),
  effective_through: z.string().nullable(),
  effective_date_basis: z.enum(['publisher_effective_date', 'edition_only', 'no_published_date']).nullable(),
  last_refreshed_at: z.string().nullable(),
  last_fetch: z.string().nullable(),
  rows: z.number().int().nonnegative(),
  zips: z.number().int().nonnegative(),
  sources: z.array(SourceFileRecord),
  /** why the status is what it is, and what the loader noticed */
  notes: z.array(z.string()),
  /**
   * `counties`: where the tax lies, when known (a city's counties), absent: anywhere in the state;
   * `until`: its last day in force, absent: no end
   */
  unplaced: z.array(
    z.object({ level: z.string(), code: z.string(), name: z.string(), rate: z.string(), reason: z.string(), counties: z.array(z.string()).optional(), until: z.string().optional() }),
  ),
  anchors: z.array(AnchorResult),
  /**
   * ZIPs whose source figure broke an invariant and was not published: `carried_from` names the
   * snapshot whose answer the ZIP keeps; without it the ZIP is answered as unresolved
   */
  withheld: z
    .array(
      z.object({
        zip: z.string(),
        reason: z.string(),
        carried_from: z.string().optional(),
        /** no earlier answer: the state and county layers of the rejected figure are answered instead */
        known_layers: z.boolean().optional(),
      }),
    )
    .default([]),
  /** when the data in service was produced (differs from last_refreshed_at after a failure) */
  data_from_snapshot: z.string().nullable(),
  /** the edition in service was pinned by the operator (TAXATLAS_PIN) instead of discovered */
  pinned: z.boolean().default(false),
  /** hash of what the data in service was compiled from (pipeline/run/input-key.ts); equal next time: not re-parsed */
  input_key: z.string().nullable().default(null),
  /** the feeds tried on the last refresh, in order of preference, and what each did */
  feeds_tried: z.array(FeedAttempt).default([]),
  /** why the feed in service is not the state's preferred one; null when it is */
  fallback_reason: z.string().nullable().default(null),
  /** the first day every jurisdiction of the data has a known rate; null: the state-level rate's first day says it */
  coverage_from: z.string().nullable().default(null),
  rate_varies: z.array(RateVaries).default([]),
  /** the comparison with the aggregator that let a new official feed serve (null: no trial on its last load) */
  official_trial: OfficialTrial.nullable().default(null),
  /** an edition listed on the last refresh that could not be used and is not served (pipeline/run/pending-edition.ts) */
  pending_edition: PendingEdition.nullable().default(null),
})
export type StateRecord = z.infer<typeof StateRecord>

/**
 * An older edition held beside the data in service (an aggregator drop of an earlier month): its
 * own rates index, answering dates before the data in service starts (docs/data-sources.md#history).
 */
export const HistoryLayer = z.object({
  edition: z.string(),
  feed: FeedKind,
  /** the rates index file in the snapshot directory */
  file: ManifestFile,
  /** one record per state the edition holds, as for data in service (edition, effective window) */
  states: z.array(StateRecord),
})
export type HistoryLayer = z.infer<typeof HistoryLayer>

export const Manifest = z.object({
  snapshot: z.string(),
  format_version: z.number().int(),
  generated_at: z.string(),
  files: z.array(ManifestFile),
  states: z.array(StateRecord),
  geography: z.object({ inputs: z.record(z.string(), z.string()), straddlers: z.number().int() }),
  history: z.array(HistoryLayer).default([]),
  /** per state, a hash of what its history layers were built from (drop files, data in service, geography, code) */
  history_keys: z.record(z.string(), z.string()).default({}),
})
export type Manifest = z.infer<typeof Manifest>

/** `2026-04-01` → `2026Q2` */
export function quarterLabel(isoDate: string | null): string | null {
  if (!isoDate) return null
  const month = Number(isoDate.slice(5, 7))
  return `${isoDate.slice(0, 4)}Q${Math.floor((month - 1) / 3) + 1}`
}

export function freshnessEnvelope(manifest: Manifest): FreshnessEnvelope {
  return {
    generated_at: manifest.generated_at,
    states: manifest.states.map((state) => ({
      code: state.code.toLowerCase(),
      name: state.name,
      klass: state.klass,
      status: state.status,
      last_refreshed_at: state.last_refreshed_at,
      effective_through: state.effective_through,
      last_fetch: state.last_fetch,
      source_period: quarterLabel(state.effective_through),
      rows: state.rows,
      withheld_rows: new Set(state.withheld.map((w) => w.zip)).size,
      feed: state.feed,
      source_kind: feedTraits(state.feed).sourceKind,
      edition: state.edition,
      fallback_reason: state.fallback_reason,
      pending_edition: state.pending_edition,
    })),
  }
}
