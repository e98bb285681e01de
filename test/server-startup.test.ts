// Start-up order: the server answers public routes as soon as the snapshot is verified and open,
// while the store (DuckDB) opens in the background. Key routes wait for the store, answer 503
// SERVICE_UNAVAILABLE when it cannot be opened, and close() is clean before or after it is ready.
import { existsSync } from 'node:fs'
import net from 'node:net'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { endpointFilePath } from '../server/admin/endpoint-file.ts'
import { ErrorBody } from '../server/base/errors.ts'
import { memoryLogger } from '../server/base/logger.ts'
import { API_ROUTES } from '../server/routes/index.ts'
import { startServer } from '../server/server.ts'
import { readServerSettings } from '../server/settings.ts'
import { Database } from '../server/store/database.ts'
import { STORE_UNAVAILABLE_MESSAGE } from '../server/store/store.ts'
import { UsageCounter } from '../server/store/usage.ts'
import { duckdbUsageTable } from '../server/store/duckdb-engine.ts'
import { artifactsWithSnapshot } from './support/server-snapshot.ts'
import { startTestServer, withKey } from './support/server-harness.ts'
import { testLookupRoute } from './support/server-test-routes.ts'

let artifacts: { dir: string; id: string }
let tmp: string

beforeAll(async () => {
  artifacts = await artifactsWithSnapshot(inject('mirrorUrl'))
  tmp = await mkdtemp(path.join(os.tmpdir(), 'taxatlas-server-startup-'))
})
afterAll(async () => {
  if (tmp) await rm(tmp, { recursive: true, force: true })
  if (artifacts) await rm(artifacts.dir, { recursive: true, force: true })
})

const settingsFor = (storePath: string) =>
  readServerSettings({ PORT: '0', TAXATLAS_ADMIN_PORT: '0', TAXATLAS_ARTIFACTS: artifacts.dir, TAXATLAS_STORE: storePath, TAXATLAS_SNAPSHOT_POLL_MS: '600000' })

describe('a store that cannot be opened', () => {
  it('leaves public routes answering; key routes answer 503 SERVICE_UNAVAILABLE with Retry-After, logged once', async () => {
    // The store's directory would be a regular file: nothing can be created under it.
    const blocker = path.join(tmp, 'a-regular-file')
    await writeFile(blocker, 'not a directory\n')
    const storePath = path.join(blocker, 'store', 'taxatlas.duckdb')
    const logger = memoryLogger()
    const running = await startServer(settingsFor(storePath), { logger })
    try {
      // Asked at once, whether or not the store has failed yet: the snapshot is served either way.
      const health = await fetch(`${running.url}/healthz`)
      expect([200, 503]).toContain(health.status)
      expect((await health.json()).snapshot_id).toBe(artifacts.id)

      expect(await running.storeReady).toBe(false)
      for (const route of ['/v1/freshness', '/openapi.json']) expect((await fetch(`${running.url}${route}`)).status, route).toBe(200)
      // /healthz says so, with a status a load balancer acts on.
      const degraded = await fetch(`${running.url}/healthz`)
      expect(degraded.status).toBe(503)
      expect(await degraded.json()).toMatchObject({ status: 'degraded', store: { status: 'degraded', problem: 'unavailable' }, snapshot: { status: 'ok' } })
      for (const init of [withKey('tx_live_any'), {}, withKey('tx_live_other')]) {
        const response = await fetch(`${running.url}/v1/account`, init)
        expect(response.status).toBe(503)
        // When the next attempt is due (the first ones come within a second).
        expect(Number(response.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
        expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8')
        const text = await response.text()
        const body = ErrorBody.parse(JSON.parse(text))
        expect(body.error).toMatchObject({ code: 'SERVICE_UNAVAILABLE', message: STORE_UNAVAILABLE_MESSAGE, retry_after: Number(response.headers.get('retry-after')) })
        expect(body.error.support_reference).toBe(response.headers.get('x-request-id'))
        expect(text).not.toContain(blocker)
      }

      const failed = logger.entries.filter((e) => e.event === 'store_failed')
      expect(failed).toEqual([expect.objectContaining({ level: 'error', store: storePath, problem: 'unavailable', reason: expect.stringMatching(/EEXIST|ENOTDIR/) })])
      expect(logger.entries.some((e) => e.event === 'store_ready')).toBe(false)
      expect(existsSync(endpointFilePath(storePath))).toBe(false)
    } finally {
      await running.close()
    }
    await expect(fetch(`${running.url}/healthz`)).rejects.toThrow()
  })
})

describe('a store still opening', () => {
  it('holds key requests until it is ready, and counts what they look up', async () => {
    const storeDir = path.join(tmp, 'waiting')
    const first = await startTestServer({ artifactsDir: artifacts.dir, storeDir })
    const { api_key, account_id } = await first.createAccount('starter')
    await first.close()

    const logger = memoryLogger()
    const storePath = path.join(storeDir, 'taxatlas.duckdb')
    const running = await startServer(settingsFor(storePath), { logger, routes: [...API_ROUTES, testLookupRoute] })
    let closed = false
    try {
      // Sent at once: the store only starts opening after this turn of the event loop.
      const responses = await Promise.all([
        fetch(`${running.url}/healthz`),
        ...['30301', '06103', '19901'].map((zip) => fetch(`${running.url}/v1/test-lookup/${zip}`, withKey(api_key))),
        fetch(`${running.url}/v1/account`, withKey('tx_live_unknown')),
      ])
      expect(responses.map((r) => r.status)).toEqual([200, 200, 200, 200, 401])
      expect(await running.storeReady).toBe(true)
      expect(logger.entries.find((e) => e.event === 'store_ready')).toMatchObject({ ms: expect.any(Number), startup_ms: expect.any(Number) })
      expect(existsSync(endpointFilePath(storePath))).toBe(true)
      await running.close()
      closed = true
      expect(existsSync(endpointFilePath(storePath))).toBe(false)
    } finally {
      if (!closed) await running.close()
    }
    // close() flushed the counts and released the file.
    const db = await Database.open(storePath)
    try {
      expect((await UsageCounter.load(duckdbUsageTable(db))).used(account_id, new Date().toISOString().slice(0, 7))).toBe(3)
    } finally {
      await db.close()
    }
  })

  it('closes cleanly when close() comes before the store began opening: it is never opened', async () => {
    const storePath = path.join(tmp, 'early-close', 'taxatlas.duckdb')
    const logger = memoryLogger()
    const running = await startServer(settingsFor(storePath), { logger })
    await running.close()
    expect(await running.storeReady).toBe(false)
    expect(await running.storeOpen).toBe(false)
    expect(existsSync(storePath)).toBe(false)
    expect(existsSync(endpointFilePath(storePath))).toBe(false)
    await expect(fetch(`${running.url}/healthz`)).rejects.toThrow()
    expect(logger.entries.filter((e) => e.level === 'error')).toEqual([])
  })

  it('closes cleanly when close() comes while the store is opening: the attempt finishes, then the file is released', async () => {
    const storePath = path.join(tmp, 'closing-while-opening', 'taxatlas.duckdb')
    const logger = memoryLogger()
    const running = await startServer(settingsFor(storePath), { logger })
    // The attempt starts on the turn after listen; close() comes while it runs.
    await new Promise((resolve) => setImmediate(resolve))
    await running.close()
    expect(await running.storeOpen).toBe(true)
    // No admin endpoint was published for a server already closing, and the file is released.
    expect(existsSync(endpointFilePath(storePath))).toBe(false)
    const db = await Database.open(storePath)
    await db.close()
    expect(logger.entries.filter((e) => e.level === 'error')).toEqual([])
  })
})

describe('a port already in use', () => {
  it('stops start-up with an error naming the setting that moves it: TAXATLAS_ADMIN_PORT for the admin port, PORT for the API', async () => {
    const taken = net.createServer()
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve))
    const port = String((taken.address() as net.AddressInfo).port)
    const storePath = path.join(tmp, 'port-taken', 'taxatlas.duckdb')
    const base = { TAXATLAS_ARTIFACTS: artifacts.dir, TAXATLAS_STORE: storePath, TAXATLAS_SNAPSHOT_POLL_MS: '600000' }
    try {
      await expect(startServer(readServerSettings({ ...base, PORT: '0', TAXATLAS_ADMIN_PORT: port }), { logger: memoryLogger() })).rejects.toThrow(
        `127.0.0.1:${port} is already in use: another process listens there. It is the admin port (PORT+1 unless TAXATLAS_ADMIN_PORT is set): set TAXATLAS_ADMIN_PORT to a free port.`,
      )
      await expect(startServer(readServerSettings({ ...base, HOST: '127.0.0.1', PORT: port, TAXATLAS_ADMIN_PORT: '0' }), { logger: memoryLogger() })).rejects.toThrow(
        `127.0.0.1:${port} is already in use: another process listens there. Set PORT to a free port, or stop the other process.`,
      )
      // Nothing was opened: the store file is not there.
      expect(existsSync(storePath)).toBe(false)
    } finally {
      await new Promise((resolve) => taken.close(resolve))
    }
  })
})
