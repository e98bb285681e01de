// GET /healthz (public): the process is up, the snapshot it serves and the store engine it uses
// (so an operator can check that every node behind a load balancer serves the same snapshot from
// the same kind of store).
import { z } from 'zod'
import { defineRoute } from '../dispatch/route.ts'

export const HealthBody = z
  .object({
    status: z.literal('ok'),
    snapshot_id: z.string().describe('the snapshot being served'),
    snapshot_generated_at: z.string().describe('when the pipeline built it'),
    snapshot_loaded_at: z.string().describe('when this process started serving it'),
    store_engine: z.enum(['duckdb', 'postgres']).describe('the store this node uses: the embedded DuckDB file, or PostgreSQL shared by all nodes'),
  })
  .meta({ id: 'Health' })

export const healthRoute = defineRoute({
  method: 'GET',
  path: '/healthz',
  operationId: 'getHealth',
  summary: 'Liveness and the snapshot in service',
  tags: ['service'],
  auth: 'public',
  responses: { 200: { description: 'The service is up.', schema: HealthBody } },
}).handle(({ snapshot, settings }) => ({
  status: 200,
  body: {
    status: 'ok',
    snapshot_id: snapshot.id,
    snapshot_generated_at: snapshot.manifest.generated_at,
    snapshot_loaded_at: snapshot.loadedAt,
    store_engine: settings.storeEngine ?? 'duckdb',
  },
}))
