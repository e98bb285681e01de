// GET /v1/freshness (public): the api.md "GET /v1/freshness" envelope of the served snapshot, precomputed at load
// time. Clients poll hourly; the ETag turns an unchanged poll into a bodiless 304.
import { FreshnessEnvelope } from '../../snapshot-contract/manifest.ts'
import { matchesIfNoneMatch } from '../base/etag.ts'
import { JsonText } from '../http/respond.ts'
import { defineRoute } from '../dispatch/route.ts'

// A new snapshot lands weekly; an hour of caching matches the suggested polling cadence, and
// revalidation after that is a 304.
export const FRESHNESS_CACHE_CONTROL = 'public, max-age=3600, must-revalidate'

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
      schema: FreshnessEnvelope.meta({ id: 'FreshnessEnvelope' }),
      headers: { ETag: 'identifies this body; changes with the snapshot', 'Cache-Control': FRESHNESS_CACHE_CONTROL },
    },
    304: { description: 'Not modified since the ETag sent in If-None-Match.', headers: { ETag: 'the current ETag' } },
  },
}).handle(({ req, snapshot }) => {
  const { body, etag } = snapshot.freshness
  const headers = { ETag: etag, 'Cache-Control': FRESHNESS_CACHE_CONTROL }
  if (matchesIfNoneMatch(req, etag)) return { status: 304, body: undefined, headers }
  return { status: 200, body: new JsonText(body), headers }
})
