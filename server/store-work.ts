// The background work that runs on the store once it is open: usage counts a shutdown spilled put
// back, usage flushed on a timer, accounts and registrations followed as other nodes change them,
// webhook deliveries, and the admin listener's app with its endpoint file. A server already closing
// when the store opens starts none of it: the store is only flushed and closed.
import { randomBytes } from 'node:crypto'
import { createAdminApp } from './admin/admin-listener.ts'
import { removeEndpointAt, writeEndpointAt } from './admin/endpoint-file.ts'
import type { Clock } from './base/clock.ts'
import type { Logger } from './base/logger.ts'
import type { AppDeps } from './dispatch/exchange.ts'
import type { Listeners } from './listeners.ts'
import type { ServerSettings } from './settings.ts'
import type { SnapshotSource } from './snapshot/snapshot-source.ts'
import type { StoreOpening } from './store-opening.ts'
import type { OpenedStore } from './store/store.ts'
import { finalUsageFlush } from './store/usage-final-flush.ts'
import { readUsageSpill, removeUsageSpill } from './store/usage-spill.ts'
import { startWebhookDispatcher, type WebhookDispatcher } from './webhooks/webhook-dispatcher.ts'
import { changeImpacts } from './portability/returns/change-impact.ts'
import type { WebhookOwnFailures } from './webhooks/own-failures.ts'

export type StoreWork = {
  /** the store once its work has begun (or, when closing, once it opened); null when it never opened */
  readonly settled: Promise<OpenedStore | null>
  webhooks(): WebhookDispatcher | null
  /** From here a store that opens is only flushed and closed. */
  closing(): void
  /** Removes the admin endpoint file, when one was written. */
  removeEndpoint(): Promise<void>
  /** Stops the work on `store` and writes its last usage counts (spilled past `deadline`); the engine stays open. */
  stop(store: OpenedStore, deadline: number): Promise<void>
}

export type StoreWorkSettings = Pick<ServerSettings, 'usageFlushMs' | 'usageSpillFile' | 'webhooks' | 'adminEndpointFile'>

export function workOnStore(
  settings: StoreWorkSettings,
  parts: { opening: StoreOpening; snapshots: SnapshotSource; listeners: Listeners; deps: AppDeps; logger: Logger; clock: Clock; webhookOwnFailures: WebhookOwnFailures },
): StoreWork {
  const { opening, snapshots, listeners, deps, logger, clock, webhookOwnFailures } = parts
  let closing = false
  let stopFlushing = () => {}
  let stopWatchingAccounts = () => {}
  let webhooks: WebhookDispatcher | null = null
  let endpointWritten = false
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

  const begin = async (store: OpenedStore): Promise<OpenedStore> => {
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
      opening.countNodesOn(store)
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
        ownFailures: webhookOwnFailures,
        // Each change a delivery announces carries the account's exposure to it.
        impactOf: (current, accountId, changes, today) => changeImpacts({ current, transactions: store.transactions }, accountId, changes, today),
      })
      try {
        const token = randomBytes(32).toString('base64url')
        listeners.serveAdmin(createAdminApp(deps, store, token).handler)
        if (settings.adminEndpointFile) {
          await writeEndpointAt(settings.adminEndpointFile, { url: listeners.adminUrl, token, pid: process.pid })
          endpointWritten = true
        }
      } catch (error) {
        // Key routes serve regardless; only the admin command cannot find this server.
        logger.error('admin_endpoint_failed', { reason: (error as Error).message })
      }
    }
    const { ms, attempts } = opening.timing()
    logger.info('store_ready', {
      engine: store.engine.kind,
      ms,
      attempts,
      startup_ms: Math.round(performance.now()),
      rss_mb: Math.round(process.memoryUsage().rss / 1048576),
    })
    return store
  }

  return {
    settled: opening.gate.whenOpen.then((store) => (store ? begin(store) : null)),
    webhooks: () => webhooks,
    closing() {
      closing = true
    },
    async removeEndpoint() {
      if (endpointWritten) await removeEndpointAt(settings.adminEndpointFile!)
    },
    async stop(store, deadline) {
      stopFlushing()
      stopWatchingAccounts()
      await webhooks?.stop()
      await finalUsageFlush(store.usage, { deadline, spillFile, logger })
    },
  }
}
