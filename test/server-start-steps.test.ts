// The steps startServer (server/server.ts) runs, each on its own: listening (listeners.ts), the
// store behind its supervisor (store-opening.ts), and the work on the opened store (store-work.ts),
// with real listeners on loopback ports and a real DuckDB file.
import { existsSync } from 'node:fs'
import { rm } from 'node:fs/promises'
import http from 'node:http'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { ADMIN_TOKEN_HEADER } from '../server/admin/admin-listener.ts'
import { endpointFilePath, readEndpointFile } from '../server/admin/endpoint-file.ts'
import { systemClock } from '../server/base/clock.ts'
import { memoryLogger } from '../server/base/logger.ts'
import type { AppDeps } from '../server/dispatch/exchange.ts'
import { listenOn } from '../server/listeners.ts'
import { readServerSettings, type ServerSettings } from '../server/settings.ts'
import { SnapshotSource } from '../server/snapshot/snapshot-source.ts'
import { superviseStore } from '../server/store-opening.ts'
import { workOnStore } from '../server/store-work.ts'
import { WebhookOwnFailures } from '../server/webhooks/own-failures.ts'
import { RateLimiter } from '../server/access/rate-limiter.ts'
import { artifactsWithSnapshot } from './support/server-snapshot.ts'
import { tempDir } from './support/temp-dirs.ts'

let artifacts: { dir: string; id: string }
beforeAll(async () => {
  artifacts = await artifactsWithSnapshot(inject('mirrorUrl'))
})
afterAll(async () => {
  if (artifacts) await rm(artifacts.dir, { recursive: true, force: true })
})

const settingsWith = (storePath: string, env: Record<string, string> = {}): ServerSettings =>
  readServerSettings({ PORT: '0', TAXATLAS_ADMIN_PORT: '0', TAXATLAS_ARTIFACTS: artifacts.dir, TAXATLAS_STORE: storePath, TAXATLAS_SNAPSHOT_POLL_MS: '600000', ...env })

const answering = (status: number, body: string): http.RequestListener => (_req, res) => res.writeHead(status, { 'content-type': 'text/plain' }).end(body)

describe('listening', () => {
  it('binds the public port, then the admin port answering 503 until it is given its app', async () => {
    const settings = settingsWith(path.join(await tempDir('steps-listen'), 'store.duckdb'))
    const listeners = await listenOn(settings, { app: answering(200, 'app'), notYet: answering(503, 'not yet') }, memoryLogger())
    try {
      expect(await (await fetch(listeners.url)).text()).toBe('app')
      expect(new URL(listeners.adminUrl).hostname).toBe('127.0.0.1')
      expect((await fetch(listeners.adminUrl)).status).toBe(503)
      listeners.serveAdmin(answering(200, 'admin'))
      expect(await (await fetch(listeners.adminUrl)).text()).toBe('admin')
    } finally {
      await Promise.all([listeners.closePublic(), listeners.closeAdmin()])
    }
    await expect(fetch(listeners.url)).rejects.toThrow()
  })

  it('stops with nothing left listening when the admin port is taken', async () => {
    const taken = http.createServer()
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve))
    const port = (taken.address() as { port: number }).port
    try {
      const settings = settingsWith(path.join(await tempDir('steps-taken'), 'store.duckdb'), { TAXATLAS_ADMIN_PORT: String(port) })
      const publicPort = await freePort()
      await expect(listenOn({ ...settings, port: publicPort }, { app: answering(200, 'app'), notYet: answering(503, '') }, memoryLogger())).rejects.toThrow(/EADDRINUSE/)
      // the public port it bound first is free again
      const again = http.createServer()
      await new Promise<void>((resolve, reject) => again.once('error', reject).listen(publicPort, '127.0.0.1', resolve))
      await new Promise((resolve) => again.close(resolve))
    } finally {
      await new Promise((resolve) => taken.close(resolve))
    }
  })
})

describe('the store behind its supervisor', () => {
  it('opens nothing until started, then opens the store the routes hold on', async () => {
    const storePath = path.join(await tempDir('steps-store'), 'store', 'taxatlas.duckdb')
    const opening = superviseStore(settingsWith(storePath), { logger: memoryLogger(), clock: systemClock, metrics: () => undefined })
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(opening.gate.opened).toBeNull()
    expect(existsSync(storePath)).toBe(false)
    expect(opening.liveNodes()).toBe(1)
    opening.start()
    const store = await opening.gate.whenOpen
    try {
      expect(store).not.toBeNull()
      expect(existsSync(storePath)).toBe(true)
      expect(opening.timing().attempts).toBe(1)
    } finally {
      opening.stop()
      await store?.engine.close()
    }
  })
})

describe('the work on the opened store', () => {
  const parts = async (label: string) => {
    const storePath = path.join(await tempDir(label), 'taxatlas.duckdb')
    const settings = settingsWith(storePath)
    const logger = memoryLogger()
    const snapshots = await SnapshotSource.open(settings.artifactsDir, logger, systemClock, { rereportMs: settings.snapshotRereportMs })
    const opening = superviseStore(settings, { logger, clock: systemClock, metrics: () => undefined })
    const listeners = await listenOn(settings, { app: answering(200, 'app'), notYet: answering(503, 'not yet') }, logger)
    const deps: AppDeps = {
      snapshots,
      store: opening.gate,
      limiter: new RateLimiter(systemClock, () => 1),
      tiers: settings.tiers,
      jsonBodyLimit: settings.jsonBodyLimit,
      routeSettings: { portability: settings.portability, storeEngine: settings.store.kind },
      logger,
      clock: systemClock,
    }
    return { storePath, settings, logger, opening, listeners, work: workOnStore(settings, { opening, snapshots, listeners, deps, logger, clock: systemClock, webhookOwnFailures: new WebhookOwnFailures(systemClock) }) }
  }

  it('begins once the store opens: the admin app and its endpoint file, the nodes counted; stopped, it flushes', async () => {
    const { storePath, opening, listeners, work, logger } = await parts('steps-work')
    opening.start()
    const store = await work.settled
    try {
      expect(store).not.toBeNull()
      const endpoint = await readEndpointFile(storePath)
      expect(endpoint).toMatchObject({ url: listeners.adminUrl, pid: process.pid })
      const ping = await fetch(`${listeners.adminUrl}/admin/ping`, { headers: { [ADMIN_TOKEN_HEADER]: endpoint!.token } })
      expect(await ping.json()).toEqual({ pid: process.pid })
      expect(work.webhooks()).not.toBeNull()
      expect(logger.entries.find((e) => e.event === 'store_ready')).toMatchObject({ attempts: 1 })
    } finally {
      work.closing()
      opening.stop()
      await work.removeEndpoint()
      await Promise.all([listeners.closePublic(), listeners.closeAdmin()])
      if (store) {
        await work.stop(store, performance.now() + 5_000)
        await store.engine.close()
      }
    }
    expect(existsSync(endpointFilePath(storePath))).toBe(false)
  })

  it('starts none of it on a store that opens once closing began: no admin app, no endpoint file', async () => {
    const { storePath, opening, listeners, work } = await parts('steps-closing')
    work.closing()
    opening.start()
    const store = await work.settled
    try {
      expect(store).not.toBeNull()
      expect(existsSync(endpointFilePath(storePath))).toBe(false)
      expect((await fetch(listeners.adminUrl)).status).toBe(503)
      expect(work.webhooks()).toBeNull()
    } finally {
      opening.stop()
      await Promise.all([listeners.closePublic(), listeners.closeAdmin()])
      if (store) {
        await work.stop(store, performance.now() + 5_000)
        await store.engine.close()
      }
    }
  })
})

async function freePort(): Promise<number> {
  const probe = http.createServer()
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve))
  const { port } = probe.address() as { port: number }
  await new Promise((resolve) => probe.close(resolve))
  return port
}
