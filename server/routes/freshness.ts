// GET /v1/freshness (public): the api.md "GET /v1/freshness" envelope of the served snapshot,
// precomputed at load time, with this server's refresh schedule (TAXATLAS_REFRESH_SCHEDULE) and its
// next run. Clients poll hourly; the ETag turns an unchanged poll into a bodiless 304.
import { Cron } from 'croner'
import * as z from 'zod'
import { FreshnessEnvelope } from '../../snapshot-contract/manifest.ts'
import { etagOf, matchesIfNoneMatch } from '../base/etag.ts'
import { JsonText } from '../http/respond.ts'
import { defineRoute } from '../dispatch/route.ts'
import { derivedView } from '../snapshot/derived-views.ts'
import type { Snapshot } from '../snapshot/open-snapshot.ts'

// A new snapshot lands weekly; an hour of caching matches the suggested polling cadence, and
// revalidation after that is a 304.
export const FRESHNESS_CACHE_CONTROL = 'public, max-age=3600, must-revalidate'

const RefreshSchedule = z
  .object({
    cron: z.string().describe('the cron expression of this server\'s own refresh runs (TAXATLAS_REFRESH_SCHEDULE), in UTC; "0 3 * * 0" is every Sunday at 03:00'),
    next_run_at: z.string().nullable().describe('when the next run starts, ISO 8601 UTC'),
  })
  .meta({ id: 'RefreshSchedule' })

export const FreshnessBody = FreshnessEnvelope.extend({
  refresh_schedule: RefreshSchedule.nullable().describe(
    "this server's refresh schedule; null when it runs no refresh of its own (the operator runs them: a cron line, the GitHub workflow), so no date of the next one is known here",
  ),
}).meta({ id: 'FreshnessEnvelope' })

type Answered = { schedule: string | null; nextRun: string | null; body: string; etag: string }
/** Per snapshot, the body and ETag last answered: the same until the schedule's next run moves. */
const ANSWERED = derivedView('freshness with the refresh schedule', (_snapshot: Snapshot): { last: Answered | null } => ({ last: null }))

function freshnessOf(snapshot: Snapshot, schedule: string | null, now: number): Answered {
  const nextRun = schedule === null ? null : (new Cron(schedule, { timezone: 'UTC', paused: true }).nextRun(new Date(now))?.toISOString() ?? null)
  const kept = ANSWERED.of(snapshot)
  if (kept.last && kept.last.schedule === schedule && kept.last.nextRun === nextRun) return kept.last
  const added = schedule === null ? null : { cron: schedule, next_run_at: nextRun }
  const body = `${snapshot.freshness.body.slice(0, -1)},"refresh_schedule":${JSON.stringify(added)}}`
  kept.last = { schedule, nextRun, body, etag: etagOf(body) }
  return kept.last
}

export const freshnessRoute = defineRoute({
  method: 'GET',
  path: '/v1/freshness',
  operationId: 'getFreshness',
  summary: 'Per-state data freshness of the served snapshot',
  description: 'Suggested polling cadence: hourly. Send If-None-Match with the last ETag to get 304 when nothing changed.',
  tags: ['service'],
  auth: 'public',
  responses: {
    200: {
      description: 'The freshness envelope (api.md "GET /v1/freshness").',
      schema: FreshnessBody,
      headers: { ETag: 'identifies this body; changes with the snapshot and with the next scheduled refresh', 'Cache-Control': FRESHNESS_CACHE_CONTROL },
    },
    304: { description: 'Not modified since the ETag sent in If-None-Match.', headers: { ETag: 'the current ETag' } },
  },
}).handle(({ req, snapshot, settings, now }) => {
  const { body, etag } = freshnessOf(snapshot, settings.refreshSchedule ?? null, now)
  const headers = { ETag: etag, 'Cache-Control': FRESHNESS_CACHE_CONTROL }
  if (matchesIfNoneMatch(req, etag)) return { status: 304, body: undefined, headers }
  return { status: 200, body: new JsonText(body), headers }
})
