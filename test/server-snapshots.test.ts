// Snapshot hot swap: a new real snapshot is picked up while requests are in flight without
// failing one; a corrupted one is refused (logged, previous keeps serving); a server never
// serves a snapshot that fails verification (it starts on the valid one before it, or not at all).
import { rm } from 'node:fs/promises'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { API_ROUTES } from '../server/routes/index.ts'
import { HealthBody } from '../server/routes/health.ts'
import { memoryLogger } from '../server/base/logger.ts'
import { startServer } from '../server/server.ts'
import { readServerSettings } from '../server/settings.ts'
import { artifactsWithSnapshot, pointTo, refreshInChild, republish } from './support/server-snapshot.ts'
import { startTestServer, type TestServer } from './support/server-harness.ts'
import { testSlowReadRoute } from './support/server-test-routes.ts'

let artifacts: { dir: string; id: string }
let server: TestServer

beforeAll(async () => {
  artifacts = await artifactsWithSnapshot(inject('mirrorUrl'))
  // A short poll, so the test also sees that polling does not re-log a refused snapshot.
  server = await startTestServer({ artifactsDir: artifacts.dir, routes: [...API_ROUTES, testSlowReadRoute], env: { TAXATLAS_SNAPSHOT_POLL_MS: '200' } })
})
afterAll(async () => {
  await server?.close()
  if (artifacts) await rm(artifacts.dir, { recursive: true, force: true })
})

const servedId = async () => HealthBody.parse(await (await fetch(`${server.url}/healthz`)).json()).snapshot_id

describe('hot swap', () => {
  it('picks up a newly published snapshot without failing any request in flight', async () => {
    expect(await servedId()).toBe(artifacts.id)
    const failures: string[] = []
    const seen = new Set<string>()
    let done = false
    const worker = async (n: number) => {
      const paths = ['/healthz', '/v1/freshness', `/test/slow-read/30301?ms=${n * 3}`, '/test/slow-read/06103?ms=15']
      for (let i = 0; !done && i < 5_000; i++) {
        const path = paths[i % paths.length]
        try {
          const response = await fetch(`${server.url}${path}`)
          const body = await response.json()
          if (response.status !== 200) failures.push(`${path}: ${response.status} ${JSON.stringify(body)}`)
          if (path.startsWith('/test/slow-read')) {
            if (body.before !== body.after) failures.push(`${path}: saw ${body.before} then ${body.after}`)
            seen.add(body.before)
          }
        } catch (error) {
          failures.push(`${path}: ${(error as Error).message} ${String((error as { cause?: unknown }).cause)}`)
        }
      }
    }
    const workers = Array.from({ length: 8 }, (_, n) => worker(n))
    const loopDelay = monitorEventLoopDelay({ resolution: 20 })
    loopDelay.enable()

    // A second real refresh (GA only, a day later), as its own process like `make refresh`,
    // publishes a new snapshot and moves CURRENT.
    const next = new Date(Date.now() + 86_400_000).toISOString()
    const manifest = await refreshInChild(artifacts.dir, inject('mirrorUrl'), { states: 'GA', now: next })
    expect(manifest.snapshot).not.toBe(artifacts.id)
    await expect.poll(servedId, { interval: 50 }).toBe(manifest.snapshot)
    loopDelay.disable()
    // This process hosts the server and its clients: a stall near the server's 5 s keep-alive
    // timeout lets clients reuse sockets the server has closed (ECONNRESET), a failure of the test
    // rather than of the swap. A refresh run in this process stalls it for seconds.
    expect(loopDelay.max / 1e6).toBeLessThan(2_500)
    // Keep the load on a little past the swap, then stop.
    await new Promise((resolve) => setTimeout(resolve, 200))
    done = true
    await Promise.all(workers)

    expect(failures).toEqual([])
    expect(seen).toEqual(new Set([artifacts.id, manifest.snapshot]))
    expect(server.logs).toContainEqual(expect.objectContaining({ event: 'snapshot_loaded', snapshot: manifest.snapshot, previous: artifacts.id }))
    artifacts.id = manifest.snapshot
  })
})

describe('a corrupted snapshot', () => {
  it('is refused, logged with the reason, and the previous snapshot keeps serving', async () => {
    const serving = await servedId()
    await republish(artifacts.dir, serving, 'corrupt-1', { corrupt: true })
    await expect.poll(() => server.logs.find((e) => e.event === 'snapshot_refused' && e.snapshot === 'corrupt-1')).toBeDefined()
    const refused = server.logs.find((e) => e.event === 'snapshot_refused' && e.snapshot === 'corrupt-1')!
    expect(refused.reason).toMatch(/rates\.bin sha256 [0-9a-f]{64} does not match the manifest/)
    expect(refused.serving).toBe(serving)
    expect(await servedId()).toBe(serving)
    expect((await fetch(`${server.url}/test/slow-read/30301?ms=0`)).status).toBe(200)

    // SIGHUP retries it (still refused); the poll does not log it again every interval.
    expect(await server.running.reload('signal')).toMatchObject({ kind: 'refused', id: 'corrupt-1' })
    const count = server.logs.filter((e) => e.event === 'snapshot_refused').length
    await new Promise((resolve) => setTimeout(resolve, 600))
    expect(server.logs.filter((e) => e.event === 'snapshot_refused').length).toBe(count)

    // Pointing back at a good snapshot is fine.
    await pointTo(artifacts.dir, serving)
    expect(await server.running.reload('signal')).toMatchObject({ kind: 'unchanged', id: serving })
  })

  it('a good snapshot published after a refused one is loaded', async () => {
    const serving = await servedId()
    await republish(artifacts.dir, serving, 'good-2')
    expect(await server.running.reload('signal')).toMatchObject({ kind: 'loaded', id: 'good-2', previous: serving })
    expect(await servedId()).toBe('good-2')
  })

  it('a server starting on it serves the valid snapshot before it instead, and says so (test/reliability-snapshots.test.ts has the rest)', async () => {
    await republish(artifacts.dir, 'good-2', 'x-corrupt-3', { corrupt: true })
    const settings = readServerSettings({ PORT: '0', TAXATLAS_ADMIN_PORT: '0', TAXATLAS_ARTIFACTS: artifacts.dir, TAXATLAS_STORE: `${artifacts.dir}/unused.duckdb` })
    const logger = memoryLogger()
    const running = await startServer(settings, { logger })
    try {
      expect(running.snapshots.current.id).toBe('good-2')
      expect(logger.entries.find((e) => e.event === 'snapshot_fallback')).toMatchObject({ level: 'error', wanted: 'x-corrupt-3', serving: 'good-2', reason: expect.stringMatching(/x-corrupt-3: rates\.bin sha256/) })
    } finally {
      await running.close()
    }
    await pointTo(artifacts.dir, 'good-2')
  })

  it('no valid snapshot at all stops a server from starting: it fails before listening', async () => {
    const settings = readServerSettings({ PORT: '0', TAXATLAS_ADMIN_PORT: '0', TAXATLAS_ARTIFACTS: `${artifacts.dir}/nowhere`, TAXATLAS_STORE: `${artifacts.dir}/unused.duckdb` })
    await expect(startServer(settings, { logger: memoryLogger() })).rejects.toThrow(/no snapshot to serve in .*CURRENT is missing or empty/)
  })
})
