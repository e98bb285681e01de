// Prometheus metrics (prom-client), collected only when TAXATLAS_METRICS_TOKEN is set: requests
// by route, method and status with their latencies, the snapshot in service and its age, the
// store's latency by operation, reply-cache hits and misses, the nodes alive on the store, and
// Node's process metrics. With metrics off nothing here runs on a request's path. prom-client is
// loaded by createMetrics, never at start-up otherwise.
import type { AccessEntry } from './logger.ts'
import { onFirstUse } from './on-first-use.ts'

export const loadPromClient = onFirstUse('prom-client', () => import('prom-client'), ['Registry', 'Counter', 'Gauge', 'Histogram', 'collectDefaultMetrics'])

export type MetricsSources = {
  storeEngine: string
  /** the snapshot in service now */
  snapshot: () => { id: string; generatedAt: string }
  /** server nodes alive on the store (1 on DuckDB, or before the store opens) */
  liveNodes: () => number
  clock: () => number
  /** log lines dropped since start-up, their output refusing them */
  droppedLogLines: () => number
  /** the store's state: ok, opening, or its problem (store-health.ts) */
  storeState: () => string
  /** times the store was opened again in place after DuckDB gave up on it */
  storeReopens: () => number
  /** webhook attempts failed for a reason of ours since start-up (webhooks/own-failures.ts) */
  webhookOwnFailures: () => number
}

export type ServerMetrics = {
  /** one answered request (its access-log entry) */
  request(entry: AccessEntry): void
  /** a lookup of a route that caches replies: answered from the cache, or not */
  replyCache(hit: boolean): void
  /** times one store operation (`area.operation`, e.g. transactions.save) */
  timeStore<T>(operation: string, work: () => Promise<T>): Promise<T>
  /** the text exposition format, and its content type */
  render(): Promise<{ contentType: string; text: string }>
}

const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

export async function createMetrics(sources: MetricsSources): Promise<ServerMetrics> {
  const client = await loadPromClient()
  const registry = new client.Registry()
  client.collectDefaultMetrics({ register: registry, prefix: 'taxatlas_' })
  const requests = new client.Counter({ name: 'taxatlas_http_requests_total', help: 'Requests answered, by route pattern, method and status.', labelNames: ['route', 'method', 'status'], registers: [registry] })
  const latency = new client.Histogram({
    name: 'taxatlas_http_request_duration_seconds',
    help: 'Time from a request arriving to its answer, by route pattern, method and status.',
    labelNames: ['route', 'method', 'status'],
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  })
  const cache = new client.Counter({ name: 'taxatlas_reply_cache_lookups_total', help: 'Lookups of routes that keep replies, by whether the reply cache answered them.', labelNames: ['result'], registers: [registry] })
  const hits = cache.labels('hit')
  const misses = cache.labels('miss')
  const store = new client.Histogram({
    name: 'taxatlas_store_operation_duration_seconds',
    help: 'Time of store operations (a save includes waiting for its group commit), by engine and operation.',
    labelNames: ['engine', 'operation'],
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  })
  const storeErrors = new client.Counter({ name: 'taxatlas_store_operation_errors_total', help: 'Store operations that failed, by engine and operation.', labelNames: ['engine', 'operation'], registers: [registry] })
  new client.Gauge({
    name: 'taxatlas_snapshot_info',
    help: 'The snapshot in service (value 1, its id as a label).',
    labelNames: ['snapshot'],
    registers: [registry],
    collect() {
      this.reset()
      this.labels(sources.snapshot().id).set(1)
    },
  })
  new client.Gauge({
    name: 'taxatlas_snapshot_age_seconds',
    help: 'Seconds since the pipeline built the snapshot in service.',
    registers: [registry],
    collect() {
      this.set((sources.clock() - Date.parse(sources.snapshot().generatedAt)) / 1000)
    },
  })
  new client.Gauge({
    name: 'taxatlas_store_nodes',
    help: 'Server nodes alive on the store, this one included.',
    labelNames: ['engine'],
    registers: [registry],
    collect() {
      this.labels(sources.storeEngine).set(sources.liveNodes())
    },
  })

  new client.Gauge({
    name: 'taxatlas_store_state',
    help: 'The store\'s state (value 1): ok, opening, or the problem that degrades it (locked, missing, unreadable, unavailable, file_lost, write_refused, invalidated).',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      this.reset()
      this.labels(sources.storeState()).set(1)
    },
  })
  new client.Counter({
    name: 'taxatlas_store_reopens_total',
    help: 'Times the store was opened again in place after DuckDB gave up on it (invalidated).',
    registers: [registry],
    collect() {
      this.reset()
      this.inc(sources.storeReopens())
    },
  })

  new client.Counter({
    name: 'taxatlas_log_lines_dropped_total',
    help: 'Log lines dropped because standard output refused them (a full disk, a file-size limit, a closed pipe).',
    registers: [registry],
    collect() {
      this.reset()
      this.inc(sources.droppedLogLines())
    },
  })

  new client.Counter({
    name: 'taxatlas_webhook_own_failures_total',
    help: "Webhook attempts not sent or not recorded for a reason of taxatlas's own, not the receiver's (the HTTP client could not load, the code threw, the store refused the record).",
    registers: [registry],
    collect() {
      this.reset()
      this.inc(sources.webhookOwnFailures())
    },
  })

  return {
    request(entry) {
      const labels = { route: entry.route ?? 'unrouted', method: entry.method ?? '', status: String(entry.status) }
      requests.inc(labels)
      latency.observe(labels, entry.duration_ms / 1000)
    },
    replyCache: (hit) => (hit ? hits : misses).inc(),
    async timeStore(operation, work) {
      const started = performance.now()
      const labels = { engine: sources.storeEngine, operation }
      try {
        return await work()
      } catch (error) {
        storeErrors.inc(labels)
        throw error
      } finally {
        store.observe(labels, (performance.now() - started) / 1000)
      }
    },
    render: async () => ({ contentType: registry.contentType, text: await registry.metrics() }),
  }
}
