// GET /healthz (public): the process is up, the snapshot it serves, the store engine it uses, and
// whether the store and the snapshot are as they should be. 200 when both are (`ok`, or the store
// still opening: key requests wait for it), 503 when either is `degraded` — the store cannot be
// opened, its file was lost, its disk refuses writes; or the snapshot served is not the one CURRENT
// names — so a load balancer can take the instance out of rotation; the body says why. Log lines
// that cannot be written are reported under `logs`, and webhook attempts that failed for a reason
// of ours under `webhooks`, without a 503: lookups do not depend on them (docs/operations.md).
// Behind a load balancer every node should name the same snapshot.
import * as z from 'zod'
import { defineRoute } from '../dispatch/route.ts'

const Degraded = { status: z.literal('degraded'), reason: z.string().describe('what is wrong, for an operator'), since: z.string().describe('when it started') }

const StoreState = z
  .discriminatedUnion('status', [
    z.object({ status: z.literal('ok') }),
    z.object({ status: z.literal('opening').describe('the first attempt at opening it runs; key requests wait for it') }),
    z.object({
      ...Degraded,
      problem: z
        .enum(['locked', 'missing', 'unreadable', 'unavailable', 'file_lost', 'write_refused', 'invalidated'])
        .describe('locked/missing/unreadable/unavailable: cannot be opened (retried); file_lost: removed, replaced, truncated or overwritten while open; write_refused: its disk refused the last write; invalidated: DuckDB gave up on it after a failed checkpoint (reopened in place, retried)'),
    }),
  ])
  .meta({ id: 'StoreHealth' })

const SnapshotState = z
  .discriminatedUnion('status', [
    z.object({ status: z.literal('ok') }),
    z.object({
      ...Degraded,
      problem: z
        .enum(['fallback', 'current_refused', 'current_missing', 'damaged_on_disk'])
        .describe('fallback: an earlier snapshot serves since start-up; current_refused / current_missing: CURRENT names no valid snapshot; damaged_on_disk: the served files changed on disk'),
    }),
  ])
  .meta({ id: 'SnapshotHealth' })

const LogsState = z
  .discriminatedUnion('status', [
    z.object({ status: z.literal('ok'), dropped_lines: z.number().int().describe('log lines dropped since start-up') }),
    z.object({
      ...Degraded,
      problem: z.literal('write_failed').describe('the last write of log lines to standard output failed (a full disk, a file-size limit, a closed pipe); its lines were dropped'),
      dropped_lines: z.number().int().describe('log lines dropped since start-up'),
    }),
  ])
  .describe('whether log lines reach standard output; lookups never wait for them, so this does not make /healthz 503')
  .meta({ id: 'LogsHealth' })

const ownFailures = z.number().int().describe('webhook attempts failed for a reason of ours since start-up')
const WebhooksState = z
  .discriminatedUnion('status', [
    z.object({ status: z.literal('ok'), own_failures: ownFailures }),
    z.object({
      ...Degraded,
      problem: z.literal('own_failure').describe("the last webhook attempt failed for a reason of ours, not the receiver's (the HTTP client could not load, our code threw): not held against the endpoint, tried again"),
      own_failures: ownFailures,
    }),
  ])
  .describe("whether this node's webhook attempts fail for a reason of ours; lookups do not depend on them, so this does not make /healthz 503")
  .meta({ id: 'WebhooksHealth' })

export const HealthBody = z
  .object({
    status: z.enum(['ok', 'degraded']).describe('ok (200) or degraded (503): see store and snapshot'),
    snapshot_id: z.string().describe('the snapshot being served'),
    snapshot_generated_at: z.string().describe('when the pipeline built it'),
    snapshot_loaded_at: z.string().describe('when this process started serving it'),
    store_engine: z.enum(['duckdb', 'postgres']).describe('the store this node uses: the embedded DuckDB file, or PostgreSQL shared by all nodes'),
    store: StoreState,
    snapshot: SnapshotState,
    logs: LogsState,
    webhooks: WebhooksState,
  })
  .meta({ id: 'Health' })

export const healthRoute = defineRoute({
  method: 'GET',
  path: '/healthz',
  operationId: 'getHealth',
  summary: 'Liveness, the snapshot in service, and the state of the store and the snapshot',
  description: '200 when the store and the snapshot are ok (or the store is still opening); 503 with status `degraded` when either is not, so a load balancer can act on it. Lookups may still answer while degraded.',
  tags: ['service'],
  auth: 'public',
  responses: {
    200: { description: 'The service is up and sound.', schema: HealthBody },
    503: { description: 'The service is up but degraded: the body says what is wrong.', schema: HealthBody },
  },
}).handle(({ snapshot, health, settings }) => {
  const { store, snapshot: source, logs, webhooks } = health()
  const degraded = store.status === 'degraded' || source.status === 'degraded'
  const body = {
    status: degraded ? ('degraded' as const) : ('ok' as const),
    snapshot_id: snapshot.id,
    snapshot_generated_at: snapshot.manifest.generated_at,
    snapshot_loaded_at: snapshot.loadedAt,
    store_engine: settings.storeEngine,
    store,
    snapshot: source,
    logs,
    webhooks,
  }
  return degraded ? { status: 503, body } : { status: 200, body }
})
