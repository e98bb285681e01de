// The open-store step of start-up: the store behind its supervisor (store/store-supervisor.ts),
// which key routes hold on from the first request. The store itself starts opening only on
// `start()`, after listen: public routes never need it, and loading DuckDB alone takes ~150-270 ms.
// Key routes wait for the first attempt and answer 503 SERVICE_UNAVAILABLE while it cannot be
// opened; attempts go on with backoff until it opens.
import type { Clock } from './base/clock.ts'
import type { Logger } from './base/logger.ts'
import type { ServerMetrics } from './base/metrics.ts'
import type { ServerSettings } from './settings.ts'
import { openStore, type OpenedStore } from './store/store.ts'
import { StoreSupervisor } from './store/store-supervisor.ts'

export type StoreOpening = {
  readonly gate: StoreSupervisor
  /** Starts the attempts on the next turn of the event loop, so connections that arrived with the listen are answered first. */
  start(): void
  /** No further attempt starts; one under way finishes (requests may be waiting for it). */
  stop(): void
  /** nodes sharing the store, for a key's share of the rate limit: 1 until counted on the open store */
  liveNodes(): number
  countNodesOn(store: OpenedStore): void
  /** ms since the first attempt began, and the attempts made: logged when the store is ready */
  timing(): { ms: number; attempts: number }
}

export type StoreOpeningSettings = Pick<
  ServerSettings,
  'store' | 'storePath' | 'storeMemoryLimit' | 'storeInit' | 'storePoolSize' | 'storePollMs' | 'usageUnsyncedShare' | 'storeRetryMaxMs' | 'storeCheckMs'
>

/** `metrics`: asked at each attempt (they are made after the supervisor, which they report on). */
export function superviseStore(settings: StoreOpeningSettings, options: { logger: Logger; clock: Clock; metrics: () => ServerMetrics | undefined }): StoreOpening {
  const { logger, clock } = options
  let openingStarted = 0
  let attempts = 0
  let liveNodes = () => 1
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
        metrics: options.metrics(),
      })
    },
    retryCeilingMs: settings.storeRetryMaxMs,
    identityCheckMs: settings.storeCheckMs,
    logger,
    clock,
  })
  return {
    gate,
    start: () => void setImmediate(() => gate.start()),
    stop: () => gate.stop(),
    liveNodes: () => liveNodes(),
    countNodesOn(store) {
      liveNodes = () => store.engine.liveNodes()
    },
    timing: () => ({ ms: Math.round(performance.now() - openingStarted), attempts }),
  }
}
