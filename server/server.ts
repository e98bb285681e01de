// Everything `make serve` runs, as one function tests can call on port 0, in named steps:
// 1. open the snapshot (failing before listen when no snapshot on disk is valid);
// 2. put the store behind its supervisor, which key routes hold on (store-opening.ts);
// 3. listen on the public and the loopback admin port (listeners.ts);
// 4. start the background work: follow the CURRENT pointer and the refresh schedule
//    (snapshot-following.ts), open the store, and once it is open run what runs on it
//    (store-work.ts);
// and close() stops them in reverse, flushing usage last.
import { RateLimiter } from './access/rate-limiter.ts'
import { createApp } from './app.ts'
import { systemClock, type Clock } from './base/clock.ts'
import { HttpError, retryAfter } from './base/errors.ts'
import type { Logger } from './base/logger.ts'
import { createMetrics, type ServerMetrics } from './base/metrics.ts'
import type { AppDeps } from './dispatch/exchange.ts'
import type { Route } from './dispatch/route.ts'
import { buildRouter } from './dispatch/router.ts'
import { withMetricsEndpoint } from './http/metrics-endpoint.ts'
import { keepNextTickClass } from './http/next-tick-class.ts'
import { listenOn } from './listeners.ts'
import type { ServerSettings } from './settings.ts'
import { followSnapshots, type SnapshotFollowing } from './snapshot-following.ts'
import type { RefreshScheduler } from './snapshot/refresh-schedule.ts'
import { SnapshotSource, type ReloadOutcome, type ReloadTrigger } from './snapshot/snapshot-source.ts'
import { superviseStore, type StoreOpening } from './store-opening.ts'
import { workOnStore } from './store-work.ts'
import type { StoreSupervisor } from './store/store-supervisor.ts'
import type { WebhookDispatcher } from './webhooks/webhook-dispatcher.ts'
import { WebhookOwnFailures } from './webhooks/own-failures.ts'
import { loadEnabledFeatures } from './optional-features.ts'

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

  // 1. Nothing listens unless a verified snapshot opened (CURRENT's, or the newest valid earlier one).
  const snapshots = await SnapshotSource.open(settings.artifactsDir, logger, clock, { rereportMs: settings.snapshotRereportMs })
  await loadEnabledFeatures(settings)
  const webhookOwnFailures = new WebhookOwnFailures(clock)

  // 2. Key routes hold on the store's supervisor from the first request; the opening starts after listen.
  let metrics: ServerMetrics | undefined
  const opening = superviseStore(settings, { logger, clock, metrics: () => metrics })
  metrics = settings.metricsToken ? await serverMetrics(settings, { snapshots, opening, logger, clock, webhookOwnFailures }) : undefined
  // A key's request rate is shared out among the nodes on the store (1 until it is open).
  const limiter = new RateLimiter(clock, () => opening.liveNodes())
  const deps = appDeps(settings, { snapshots, store: opening.gate, limiter, logger, clock, metrics, webhooks: webhookOwnFailures })

  // 3. Listen: the public port with the app, the admin port answering 503 until the store is open.
  const app = createApp({ snapshots, store: opening.gate, settings, logger, clock, routes: options.routes, limiter, metrics, webhooks: webhookOwnFailures }).handler
  const notYet = buildRouter([], deps, {
    guard: (_req, _res, next) => next(new HttpError('SERVICE_UNAVAILABLE', 'The store is still opening.', ...retryAfter(1))),
  }).handler
  const listeners = await listenOn(settings, { app: metrics ? withMetricsEndpoint(metrics, settings.metricsToken!, app) : app, notYet }, logger)

  // 4. Background work: the pointer and the refresh schedule followed, the store opened and its work begun.
  let following: SnapshotFollowing
  try {
    following = followSnapshots(settings, { snapshots, logger, clock })
  } catch (error) {
    // Only listeners exist so far: the store has not started opening.
    await listeners.abort()
    throw error
  }
  const work = workOnStore(settings, { opening, snapshots, listeners, deps, logger, clock, webhookOwnFailures })
  opening.start()

  // Stopped in reverse: no new snapshot or refresh, no new connection, no further store attempt,
  // the admin listener, the work on the store (its usage flushed last), the store itself.
  const close = async () => {
    const deadline = performance.now() + settings.shutdownTimeoutMs
    work.closing()
    await following.stop()
    const publicClosed = listeners.closePublic()
    // An attempt under way finishes (requests may be waiting for it); no further one starts.
    opening.stop()
    const opened = await work.settled
    await work.removeEndpoint()
    await listeners.closeAdmin()
    await publicClosed
    if (opened) {
      await work.stop(opened, deadline)
      await opened.engine.close()
    }
  }

  let closed: Promise<void> | null = null
  return {
    url: listeners.url,
    adminUrl: listeners.adminUrl,
    snapshots,
    storeReady: opening.gate.firstAttempt.then((opened) => opened && work.settled.then((store) => store !== null)),
    storeOpen: work.settled.then((opened) => opened !== null),
    store: opening.gate,
    webhooks: () => work.webhooks(),
    reload: (trigger) => snapshots.reload(trigger),
    refresh: following.refresh,
    close: () => (closed ??= close()),
  }
}

/** The metrics of /metrics: the snapshot in service, the store's state and reopens, the nodes sharing it. */
function serverMetrics(settings: ServerSettings, parts: { snapshots: SnapshotSource; opening: StoreOpening; logger: Logger; clock: Clock; webhookOwnFailures: WebhookOwnFailures }): Promise<ServerMetrics> {
  const { snapshots, opening, logger, clock, webhookOwnFailures } = parts
  return createMetrics({
    storeEngine: settings.store.kind,
    snapshot: () => ({ id: snapshots.current.id, generatedAt: snapshots.current.manifest.generated_at }),
    liveNodes: () => opening.liveNodes(),
    clock,
    droppedLogLines: () => logger.output?.().dropped_lines ?? 0,
    storeState: () => {
      const health = opening.gate.health()
      return health.status === 'degraded' ? health.problem : health.status
    },
    storeReopens: () => opening.gate.reopens,
    webhookOwnFailures: () => webhookOwnFailures.count,
  })
}

/** What the admin listener's routes are given, as the app's routes are. */
function appDeps(
  settings: ServerSettings,
  parts: { snapshots: SnapshotSource; store: StoreSupervisor; limiter: RateLimiter; logger: Logger; clock: Clock; metrics: ServerMetrics | undefined; webhooks: WebhookOwnFailures },
): AppDeps {
  return {
    snapshots: parts.snapshots,
    store: parts.store,
    limiter: parts.limiter,
    tiers: settings.tiers,
    jsonBodyLimit: settings.jsonBodyLimit,
    routeSettings: { portability: settings.portability, storeEngine: settings.store.kind },
    logger: parts.logger,
    clock: parts.clock,
    metrics: parts.metrics,
    webhooks: parts.webhooks,
  }
}
