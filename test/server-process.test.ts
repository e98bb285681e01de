// server/main.ts as a real process: it logs where it listens, reloads on SIGHUP, closes cleanly
// on SIGTERM, and exits non-zero before listening when there is no valid snapshot.
import { existsSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { execa, type ResultPromise } from 'execa'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { endpointFilePath } from '../server/admin/endpoint-file.ts'
import { PROJECT_ROOT } from './support/shared.ts'
import { artifactsWithSnapshot, republish } from './support/server-snapshot.ts'

type LogLine = Record<string, unknown> & { event: string }

let artifacts: { dir: string; id: string }
let storeDir: string

beforeAll(async () => {
  artifacts = await artifactsWithSnapshot(inject('mirrorUrl'))
  storeDir = await mkdtemp(path.join(os.tmpdir(), 'taxatlas-server-store-'))
})
afterAll(async () => {
  await rm(storeDir, { recursive: true, force: true })
  await rm(artifacts.dir, { recursive: true, force: true })
})

function serve(env: Record<string, string>) {
  // As `make serve` runs it: one process, so signals reach the server itself.
  const child = execa('node', ['--import', 'tsx', 'server/main.ts'], {
    cwd: PROJECT_ROOT,
    env: { PORT: '0', TAXATLAS_ADMIN_PORT: '0', TAXATLAS_SNAPSHOT_POLL_MS: '600000', ...env },
    reject: false,
    buffer: true,
  })
  const lines: LogLine[] = []
  let partial = ''
  child.stdout!.on('data', (chunk: Buffer) => {
    partial += chunk.toString()
    const complete = partial.split('\n')
    partial = complete.pop()!
    for (const line of complete) if (line.trim()) lines.push(JSON.parse(line))
  })
  return { child: child as ResultPromise, lines }
}

describe('server/main.ts', () => {
  it('serves, reloads on SIGHUP, and stops cleanly on SIGTERM', async () => {
    const storePath = path.join(storeDir, 'taxatlas.duckdb')
    const { child, lines } = serve({ TAXATLAS_ARTIFACTS: artifacts.dir, TAXATLAS_STORE: storePath })
    try {
      await expect.poll(() => lines.find((l) => l.event === 'listening')).toBeDefined()
      const listening = lines.find((l) => l.event === 'listening')!
      expect(listening).toMatchObject({ pid: child.pid, snapshot: artifacts.id, url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/) })
      expect(typeof listening.startup_ms).toBe('number')
      expect(typeof listening.rss_mb).toBe('number')
      // The store opens after listen; the admin endpoint file is written once it is ready.
      await expect.poll(() => lines.find((l) => l.event === 'store_ready')).toBeDefined()
      expect(lines.find((l) => l.event === 'store_ready')).toMatchObject({ ms: expect.any(Number), startup_ms: expect.any(Number) })
      expect(existsSync(endpointFilePath(storePath))).toBe(true)
      const health = await (await fetch(`${listening.url}/healthz`)).json()
      expect(health.snapshot_id).toBe(artifacts.id)

      // The pointer watch sees the corrupt snapshot and refuses it; SIGHUP makes it try again.
      await republish(artifacts.dir, artifacts.id, 'corrupt-hup', { corrupt: true })
      await expect.poll(() => lines.find((l) => l.event === 'snapshot_refused')).toBeDefined()
      child.kill('SIGHUP')
      await expect.poll(() => lines.find((l) => l.event === 'snapshot_refused' && l.trigger === 'signal')).toBeDefined()
      expect((await (await fetch(`${listening.url}/healthz`)).json()).snapshot_id).toBe(artifacts.id)

      const request = lines.find((l) => l.event === 'request' && l.route === '/healthz')
      expect(request).toMatchObject({ method: 'GET', status: 200, account_id: null })

      child.kill('SIGTERM')
      const result = await child
      expect(result.exitCode).toBe(0)
      expect(lines.at(-1)).toMatchObject({ event: 'stopped' })
      expect(existsSync(endpointFilePath(storePath))).toBe(false)
    } finally {
      child.kill('SIGKILL')
    }
  })

  it('exits non-zero before listening when no snapshot is published', async () => {
    const { child, lines } = serve({ TAXATLAS_ARTIFACTS: path.join(storeDir, 'empty'), TAXATLAS_STORE: path.join(storeDir, 'other.duckdb') })
    const result = await child
    expect(result.exitCode).toBe(1)
    expect(lines.map((l) => l.event)).toEqual(['startup_failed'])
    expect(lines[0].reason).toMatch(/no snapshot to serve/)
  })

  it('exits non-zero on invalid settings', async () => {
    const { child, lines } = serve({ TAXATLAS_ARTIFACTS: artifacts.dir, TAXATLAS_STORE: path.join(storeDir, 'x.duckdb'), TAXATLAS_TIERS: '{"gold":{}}' })
    const result = await child
    expect(result.exitCode).toBe(1)
    expect(lines[0]).toMatchObject({ event: 'startup_failed', reason: expect.stringContaining('TAXATLAS_TIERS') })
  })

  it('refuses a TAXATLAS_STORE that is neither a path nor a PostgreSQL URL, naming the setting and the accepted forms, and creates nothing', async () => {
    for (const store of ['mysql://root@db:3306/taxatlas', 'postgres:/typo@db/taxatlas']) {
      const { child, lines } = serve({ TAXATLAS_ARTIFACTS: artifacts.dir, TAXATLAS_STORE: store })
      const result = await child
      expect(result.exitCode, store).toBe(1)
      expect(lines.map((l) => l.event)).toEqual(['startup_failed'])
      expect(lines[0].reason).toMatch(/TAXATLAS_STORE: is neither a file path nor a PostgreSQL URL: give a DuckDB file path .* or postgres:\/\//)
      expect(existsSync(path.join(PROJECT_ROOT, store.split(':')[0] + ':'))).toBe(false)
    }
  })
})
