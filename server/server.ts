// Everything `make serve` runs, as one function tests can call on port 0: open the snapshot
// (failing before listen when none is valid), open the store, listen on the public and the
// loopback admin port, follow the CURRENT pointer, flush usage, and close it all in order.
import { randomBytes } from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { createAdminApp } from './admin/admin-listener.ts'
import { removeEndpointFile, writeEndpointFile } from './admin/endpoint-file.ts'
import { RateLimiter } from './access/rate-limiter.ts'
import { createApp } from './app.ts'
import { answerClientError } from './http/client-error.ts'
import { systemClock, type Clock } from './clock.ts'
import type { Logger } from './logger.ts'
import type { Route } from './routes/route.ts'
import type { ServerSettings } from './settings.ts'
import { SnapshotSource, type ReloadOutcome, type ReloadTrigger } from './snapshot/snapshot-source.ts'
import { watchPointer } from './snapshot/watch-pointer.ts'
import { Accounts } from './store/accounts.ts'
import { Database } from './store/database.ts'
import { UsageCounter } from './store/usage.ts'

export type RunningServer = {
  url: string
  adminUrl: string
  snapshots: SnapshotSource
  reload(trigger: ReloadTrigger): Promise<ReloadOutcome>
  /** Stops accepting, lets requests in flight finish (up to the shutdown timeout), flushes usage. */
  close(): Promise<void>
}

export async function startServer(
  settings: ServerSettings,
  options: { logger: Logger; clock?: Clock; routes?: Route[] },
): Promise<RunningServer> {
  const { logger } = options
  const clock = options.clock ?? systemClock
  // Independent, so opened together; if either fails the other is closed and nothing listens.
  const [snapshotsResult, dbResult] = await Promise.allSettled([
    SnapshotSource.open(settings.artifactsDir, logger, clock),
    Database.open(settings.storePath),
  ])
  if (snapshotsResult.status === 'rejected') {
    if (dbResult.status === 'fulfilled') await dbResult.value.close()
    throw snapshotsResult.reason
  }
  if (dbResult.status === 'rejected') throw dbResult.reason
  const snapshots = snapshotsResult.value
  const db = dbResult.value
  const closers: (() => Promise<void> | void)[] = [() => db.close()]
  try {
    const accounts = await Accounts.load(db)
    const usage = await UsageCounter.load(db)
    const stopFlushing = usage.flushEvery(settings.usageFlushMs, logger)
    closers.unshift(async () => {
      stopFlushing()
      await usage.flush().catch((error: Error) => logger.error('usage_flush_failed', { reason: error.message }))
    })

    const app = createApp({ snapshots, store: { accounts, usage }, settings, logger, clock, routes: options.routes })
    const server = http.createServer(app.handler as unknown as http.RequestListener)
    server.on('clientError', answerClientError(logger))
    await listen(server, settings.port, settings.host)
    closers.unshift(() => closeGracefully(server, settings.shutdownTimeoutMs))

    const token = randomBytes(32).toString('base64url')
    const adminDeps = { snapshots, accounts, usage, limiter: new RateLimiter(clock), tiers: settings.tiers, jsonBodyLimit: settings.jsonBodyLimit, logger, clock }
    const adminServer = http.createServer(createAdminApp(adminDeps, token).handler as unknown as http.RequestListener)
    await listen(adminServer, settings.adminPort, '127.0.0.1')
    closers.unshift(() => closeGracefully(adminServer, settings.shutdownTimeoutMs))
    const adminUrl = urlOf(adminServer)
    await writeEndpointFile(settings.storePath, { url: adminUrl, token, pid: process.pid })
    closers.unshift(() => removeEndpointFile(settings.storePath))

    const reload = (trigger: ReloadTrigger) => snapshots.reload(trigger)
    closers.unshift(watchPointer(settings.artifactsDir, (trigger) => void reload(trigger), { pollMs: settings.snapshotPollMs, logger }))

    let closing: Promise<void> | null = null
    return {
      url: urlOf(server),
      adminUrl,
      snapshots,
      reload,
      close: () => (closing ??= runClosers(closers)),
    }
  } catch (error) {
    await runClosers(closers)
    throw error
  }
}

async function runClosers(closers: (() => Promise<void> | void)[]) {
  for (const close of closers) await close()
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
