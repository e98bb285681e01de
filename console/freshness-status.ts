// The freshness statuses (spec 3.1) and classes (spec 3.2) as the console shows them: one colour,
// label and meaning each. Typed from the API, so a status the API adds must be given a colour here.
import type { FreshnessResponse } from '../client/index.ts'

export type FreshnessRecord = FreshnessResponse['states'][number]
export type FreshnessStatus = FreshnessRecord['status']
export type RefreshSchedule = FreshnessResponse['refresh_schedule']

export const STATUS_STYLES: Record<FreshnessStatus, { colour: string; label: string; meaning: string }> = {
  ok: { colour: '#2e7d32', label: 'OK', meaning: 'the last refresh succeeded' },
  changed: { colour: '#1565c0', label: 'Changed', meaning: 'the last refresh succeeded and rates moved' },
  stale: { colour: '#f2b705', label: 'Stale', meaning: 'the source file is older than its class allows (5 days auto, 40 days reload)' },
  failed: { colour: '#c62828', label: 'Failed', meaning: "the load failed; the previous snapshot's data is served" },
  manual: { colour: '#7b1fa2', label: 'Manual', meaning: 'loaded by hand; its currency is attested by the operator' },
  unknown: { colour: '#9e9e9e', label: 'Unknown', meaning: 'no refresh outcome is recorded' },
  anchor_regression: { colour: '#6d1b1b', label: 'Anchor regression', meaning: 'a pinned validation anchor diverged after the load' },
  static: { colour: '#00838f', label: 'Static', meaning: 'a statutory base rate: no source file to age, never stale' },
  maintenance: { colour: '#e65100', label: 'Maintenance', meaning: 'a known upstream outage; the last good data is served' },
}

/** The cron expression of TAXATLAS_REFRESH_SCHEDULE=weekly. */
const WEEKLY = '0 3 * * 0'

/**
 * When this server refreshes, in words, as /v1/freshness tells it (never assumed: a server without
 * a schedule of its own is refreshed when its operator runs one).
 */
export function scheduleText(schedule: RefreshSchedule): string {
  if (!schedule) return 'this server runs no refresh of its own: its operator runs them'
  const every = schedule.cron === WEEKLY ? 'every week (Sunday 03:00 UTC)' : `on the schedule ${schedule.cron} (cron, UTC)`
  return `this server refreshes ${every}${schedule.next_run_at ? `, next ${when(schedule.next_run_at)}` : ''}`
}

/** What a class means, the refresh of `auto` states as this server schedules it. */
export function classMeaning(klass: FreshnessRecord['klass'], schedule: RefreshSchedule): string {
  if (klass === 'auto') return `auto: fetched again from its publisher at each refresh; ${scheduleText(schedule)}`
  return klass === 'reload' ? 'reload: a file dropped in by hand' : 'static: a statutory base, never fetched'
}

export const SOURCE_LABELS: Record<FreshnessRecord['source_kind'], string> = {
  official: 'official',
  aggregator: 'aggregator estimate',
  statute: 'statute',
}

/** `official (sst)`, `aggregator estimate (avalara-zip5)`, `statute` */
export const sourceOf = (record: FreshnessRecord) =>
  record.source_kind === 'statute' ? SOURCE_LABELS.statute : `${SOURCE_LABELS[record.source_kind]} (${record.feed})`

/** An ISO timestamp as `2026-11-21 03:00 UTC`; dates and null as they are. */
export const when = (iso: string | null) => (iso === null ? '—' : iso.length > 10 ? `${iso.slice(0, 16).replace('T', ' ')} UTC` : iso)
