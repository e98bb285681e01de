// Everything `make serve` runs, as one function tests can call on port 0: open the snapshot
// (failing before listen when no snapshot on disk is valid), listen on the public and the loopback admin port,
// follow the CURRENT pointer, then open the store in the background, flush usage, and close it
// all in order.
//
// The store is not needed by public routes (/healthz, /v1/freshness, /openapi.json), and loading
// DuckDB alone takes ~150-270 ms, so it opens after listen: key routes wait for the first attempt
// and answer 503 SERVICE_UNAVAILABLE while it cannot be opened; attempts go on with backoff
// until it opens (store/store-supervisor.ts).
import { randomBytes } from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { createAdminApp } from './admin/admin-listener.ts'
import { removeEndpointAt, writeEndpointAt } from './admin/endpoint-file.ts'
import { RateLimiter } from './access/rate-limiter.ts'
import { createApp } from './app.ts'
import { limitBodyTime } from './http/body-time.ts'
import { withMetricsEndpoint } from './http/metrics-endpoint.ts'
import { createMetrics } from './base/metrics.ts'
import { answerRefusals, requireHost } from './http/client-error.ts'
import { closeAfterClient } from './http/lingering-close.ts'
import { capConnectionsPerClient } from './http/connection-cap.ts'
import { HttpError, retryAfter } from './base/errors.ts'
import { keepNextTickClass } from './http/next-tick-class.ts'
import type { AppDeps } from './dispatch/exchange.ts'
import { buildRouter } from './dispatch/router.ts'
import { systemClock, type Clock } from './base/clock.ts'
import type { Logger } from './base/logger.ts'
import type { Route } from './dispatch/route.ts'
import type { ServerSettings } from './settings.ts'
import { SnapshotSource, type ReloadOutcome, type ReloadTrigger } from './snapshot/snapshot-source.ts'
import { scheduleRefresh, type RefreshScheduler } from './snapshot/refresh-schedule.ts'
import { watchPointer } from './snapshot/watch-pointer.ts'
import { openStore, type OpenedStore } from './store/store.ts'
import { StoreSupervisor } from './store/store-supervisor.ts'
import { finalUsageFlush } from './store/usage-final-flush.ts'
import { readUsageSpill, removeUsageSpill } from './store/usage-spill.ts'
import { startWebhookDispatcher, type WebhookDispatcher } from './webhooks/webhook-dispatcher.ts'
import { changeImpacts } from './portability/returns/change-impact.ts'

// requireHostHeader: a request without Host is answered by requireHost in the envelope, not by
// Node's bare 400. requestTimeout: Node's would cut a streamed backfill still making progress
// (http/body-time.ts has the limits instead); headersTimeout would follow it down to 0 (off) if
// not set, and stays at Node's 60 s.
const LISTENER_OPTIONS: http.ServerOptions = { requireHostHeader: false, requestTimeout: 0, headersTimeout: 60_000 }
// How long a connection closed after its last response keeps reading what the client still sends.
const LINGER_MS = 2_000

export type RunningServer = {
  url: string
  adminUrl: string
  snapshots: SnapshotSource
  /**
   * Settles once the first attempt at opening the store, in the background after listen, has
   * opened it or failed: true when key routes and the admin listener serve (its endpoint file is
   * written), false when it could not be opened (logged as store_failed; key routes answer 503
   * while later attempts go on, see `storeOpen`).
   */
  storeReady: Promise<boolean>
  /** resolves true once any attempt opened the store, false if the server closed first */
  storeOpen: Promise<boolean>
  store: StoreSupervisor
  /** announces newly served snapshots and sends webhook deliveries, once the store is open */
  webhooks(): WebhookDispatcher | null
  reload(trigger: ReloadTrigger): Promise<ReloadOutcome>
  /** the server's own refresh runs, when TAXATLAS_REFRESH_SCHEDULE is set */
  refresh: RefreshScheduler | null
  /** Stops accepting, lets requests in flight finish (up to the shutdown timeout), flushes usage. */
  close(): Promise<void>
}

export async function startServer(
  settings: ServerSettings,
  options: { logger: Logger; clock?: Clock; routes?: Route[] },
): Promise<RunningServer> {
  const { logger } = options
  const clock = options.clock ?? systemClock
  keepNextTickClass()
  // Nothing listens unless a verified snapshot opened (CURRENT's, or the newest valid earlier one).
  const snapshots = await SnapshotSource.open(settings.artifactsDir, logger, clock, { rereportMs: settings.snapshotRereportMs })

  // A key's request rate is shared out among the nodes on the store (1 until it is open).
  let liveNodes = () => 1
  const metrics = settings.metricsToken
    ? await createMetrics({
        storeEngine: settings.store.kind,
        snapshot: () => ({ id: snapshots.current.id, generatedAt: snapshots.current.manifest.generated_at }),
        liveNodes: () => liveNodes(),
        clock,
        droppedLogLines: () => logger.output?.().dropped_lines ?? 0,
        storeState: () => {
          const health = gate.health()
          return health.status === 'degraded' ? health.problem : health.status
        },
        storeReopens: () => gate.reopens,
      })
    : undefined

  // Key routes hold on `gate` from the first request; the opening itself starts after listen.
  let openingStarted = 0
  let attempts = 0
  const gate = new StoreSupervisor({
    storePath: settings.storePath,
    open: (guard) => {
      if (attempts++ === 0) openingStarted = performance.now()
      return openStore(settings.store, {
        memoryLimit: settings.storeMemoryLimit,
        init: settings.storeInit,
        guard,
        now: clock(),
        poolSize: settings.storePoolSize,
        pollMs: settings.storePollMs,
        unsyncedShare: settings.usageUnsyncedShare,
        nodeName: `taxatlas ${process.pid}`,
        logger,
        metrics,
      })
    },
    retryCeilingMs: settings.storeRetryMaxMs,
    identityCheckMs: settings.storeCheckMs,
    logger,
    clock,
  })

  const server = http.createServer(LISTENER_OPTIONS)
  const adminServer = http.createServer(LISTENER_OPTIONS)
  for (const listener of [server, adminServer]) {
    answerRefusals(listener, logger)
    closeAfterClient(listener, LINGER_MS)
  }
  capConnectionsPerClient(server, settings.maxConnectionsPerClient, logger)
  const guarded = (listener: http.RequestListener) => requireHost(limitBodyTime(listener, settings.requestTimeoutMs), logger)
  const limiter = new RateLimiter(clock, () => liveNodes())
  const deps: AppDeps = {
    snapshots,
    store: gate,
    limiter,
    tiers: settings.tiers,
    jsonBodyLimit: settings.jsonBodyLimit,
    routeSettings: { portability: settings.portability, storeEngine: settings.store.kind },
    logger,
    clock,
    metrics,
  }
  const notYet = guarded(buildRouter([], deps, {
    guard: (_req, _res, next) => next(new HttpError('SERVICE_UNAVAILABLE', 'The store is still opening.', ...retryAfter(1))),
  }).handler)
  let stopWatching = () => {}
  let refresh: RefreshScheduler | null = null
  try {
    const app = createApp({ snapshots, store: gate, settings, logger, clock, routes: options.routes, limiter, metrics })
    const handler = app.handler
    server.on('request', guarded(metrics ? withMetricsEndpoint(metrics, settings.metricsToken!, handler) : handler))
    await listen(server, settings.port, settings.host)

    // Bound now, so a taken admin port still stops start-up; it answers 503 until the store is
    // open, and nobody can call it before then anyway: its endpoint file (with the token) is
    // written only once the store is open.
    adminServer.on('request', notYet)
    await listen(adminServer, settings.adminPort, '127.0.0.1')

    stopWatching = watchPointer(settings.artifactsDir, (trigger) => void snapshots.reload(trigger), { pollMs: settings.snapshotPollMs, logger })
    if (settings.refresh) {
      refresh = scheduleRefresh(settings.refresh, { artifactsDir: settings.artifactsDir, env: settings.env, logger, clock, reload: () => snapshots.reload('refresh') })
    }
  } catch (error) {
    // Only listeners exist so far: the store has not started opening.
    await Promise.all([server, adminServer].map((s) => (s.listening ? closeGracefully(s, 0) : undefined)))
    throw error
  }
  const adminUrl = urlOf(adminServer)

  let closing = false
  let stopFlushing = () => {}
  let stopWatchingAccounts = () => {}
  let webhooks: WebhookDispatcher | null = null
  let endpointWritten = false
  const ready = async (store: OpenedStore): Promise<OpenedStore> => {
    // Key requests waiting on the gate proceed from here; a server already closing only flushes and closes it.
    const spilled = await restoreSpilledUsage(store)
    if (!closing) {
      let restored = spilled ? spillFile : null
      const removeRestored = async () => {
        const file = restored
        restored = null
        if (file) await removeUsageSpill(file)
      }
      stopFlushing = store.usage.flushEvery(settings.usageFlushMs, logger, removeRestored)
      liveNodes = () => store.engine.liveNodes()
      stopWatchingAccounts = store.engine.watch({
        accounts: () => store.accounts.refresh().catch((error: Error) => logger.warn('accounts_refresh_failed', { reason: error.message })),
        registrations: (accountId) => store.registrations.forget(accountId),
      })
      webhooks = startWebhookDispatcher({
        table: store.webhooks,
        registrations: store.registrations,
        current: () => snapshots.current,
        settings: settings.webhooks,
        clock,
        logger,
        // Each change a delivery announces carries the account's exposure to it.
        impactOf: (current, accountId, changes, today) => changeImpacts({ current, transactions: store.transactions }, accountId, changes, today),
      })
      try {
        const token = randomBytes(32).toString('base64url')
        const adminApp = guarded(createAdminApp(deps, store, token).handler)
        adminServer.off('request', notYet).on('request', adminApp)
        if (settings.adminEndpointFile) {
          await writeEndpointAt(settings.adminEndpointFile, { url: adminUrl, token, pid: process.pid })
          endpointWritten = true
        }
      } catch (error) {
        // Key routes serve regardless; only the admin command cannot find this server.
        logger.error('admin_endpoint_failed', { reason: (error as Error).message })
      }
    }
    logger.info('store_ready', {
      engine: store.engine.kind,
      ms: Math.round(performance.now() - openingStarted),
      attempts,
      startup_ms: Math.round(performance.now()),
      rss_mb: Math.round(process.memoryUsage().rss / 1048576),
    })
    return store
  }
  // The spill file once its counts are back in memory: only then may a flush remove it or a shutdown replace it.
  let spillFile: string | null = null
  /** Adds back the counts a shutdown spilled; true when there were some (the file goes after the next flush). */
  const restoreSpilledUsage = async (store: OpenedStore): Promise<boolean> => {
    if (!settings.usageSpillFile) return false
    try {
      const rows = await readUsageSpill(settings.usageSpillFile)
      for (const row of rows) store.usage.add(row.accountId, row.month, row.lookups)
      if (rows.length > 0) logger.info('usage_spill_restored', { file: settings.usageSpillFile, rows: rows.length, lookups: rows.reduce((sum, row) => sum + row.lookups, 0) })
      spillFile = settings.usageSpillFile
      return rows.length > 0
    } catch (error) {
      // Left as it is for the operator: nothing removes or replaces a file that was not read.
      logger.error('usage_spill_unreadable', { file: settings.usageSpillFile, reason: (error as Error).message })
      return false
    }
  }
  const settled: Promise<OpenedStore | null> = gate.whenOpen.then((store) => (store ? ready(store) : null))
  // Let connections that arrived with the listen be answered before loading DuckDB blocks the event loop.
  setImmediate(() => gate.start())

  const close = async () => {
    const deadline = performance.now() + settings.shutdownTimeoutMs
    closing = true
    stopWatching()
    await refresh?.stop()
    const publicClosed = closeGracefully(server, settings.shutdownTimeoutMs)
    // An attempt under way finishes (requests may be waiting for it); no further one starts.
    gate.stop()
    const opened = await settled
    if (endpointWritten) await removeEndpointAt(settings.adminEndpointFile!)
    await closeGracefully(adminServer, settings.shutdownTimeoutMs)
    await publicClosed
    if (opened) {
      stopFlushing()
      stopWatchingAccounts()
      await webhooks?.stop()
      await finalUsageFlush(opened.usage, { deadline, spillFile, logger })
      await opened.engine.close()
    }
  }

  let closed: Promise<void> | null = null
  return {
    url: urlOf(server),
    adminUrl,
    snapshots,
    storeReady: gate.firstAttempt.then((opened) => opened && settled.then((store) => store !== null)),
    storeOpen: settled.then((opened) => opened !== null),
    store: gate,
    webhooks: () => webhooks,
    reload: (trigger) => snapshots.reload(trigger),
    refresh,
    close: () => (closed ??= close()),
  }
}

function listen(server: http.Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => {
      server.off('error', reject)
      resolve()
    })
  })
}

function urlOf(server: http.Server): string {
  const { address, port } = server.address() as AddressInfo
  return `http://${address.includes(':') ? `[${address}]` : address}:${port}`
}

/** Stops accepting; idle keep-alive sockets close now, busy ones after their response or the timeout. */
function closeGracefully(server: http.Server, timeoutMs: number): Promise<void> {
  return new Promise((resolve) => {
    const force = setTimeout(() => server.closeAllConnections(), timeoutMs)
    force.unref()
    server.close(() => {
      clearTimeout(force)
      resolve()
    })
    server.closeIdleConnections()
  })
}
