// A million-row NDJSON backfill, generated on the fly from the snapshot's real ZIPs and streamed
// to a real server process, is accepted whole while the server's resident memory stays bounded:
// the body (~150 MB of NDJSON, over 1 GB once parsed into objects) is never held, and DuckDB's
// buffer memory is capped (TAXATLAS_STORE_MEMORY_LIMIT, 256MB by default).
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { startChildServer, type ChildServer } from './support/portability-child-server.ts'
import { ndjsonOf, postNdjson, type RowPlan } from './support/portability-rows.ts'
import { portabilityArtifacts, servedZips } from './support/portability-snapshot.ts'

/** The server's peak resident memory while taking the stream: ~170 MB at rest, DuckDB's 256 MB, the rows in flight. */
const RSS_LIMIT_MB = 800

let artifactsDir: string
let storeDir: string
let server: ChildServer | undefined

beforeAll(async () => {
  artifactsDir = await portabilityArtifacts(inject('mirrorUrl'))
  storeDir = await mkdtemp(path.join(os.tmpdir(), 'taxatlas-million-'))
})
afterAll(async () => {
  await server?.kill9()
  await rm(storeDir, { recursive: true, force: true })
  await rm(artifactsDir, { recursive: true, force: true })
})

describe('a 1M-row NDJSON backfill', () => {
  it('is streamed and accepted with bounded server memory', { timeout: 600_000 }, async () => {
    const zips = await servedZips(artifactsDir)
    server = await startChildServer({ artifactsDir, storePath: path.join(storeDir, 'taxatlas.duckdb') })
    const { api_key: key } = await server.createAccount('enterprise')
    const today = new Date().toISOString().slice(0, 10)
    const plan: RowPlan = { rows: 1_000_000, zips: [...zips].filter(([state]) => state !== 'DE'), today, days: 330 }

    const baseline = server.rssMb()
    let peak = baseline
    const sampler = setInterval(() => void (peak = Math.max(peak, server!.rssMb())), 100)
    const started = performance.now()
    try {
      const response = await postNdjson(server.url, key, ndjsonOf(plan))
      const report = await response.json()
      expect(report).toMatchObject({ received: 1_000_000, accepted: 1_000_000, duplicate: 0, rejected: 0 })
    } finally {
      clearInterval(sampler)
    }
    const seconds = (performance.now() - started) / 1000
    process.stdout.write(`1M-row backfill: ${Math.round(1_000_000 / seconds)} rows/s, server RSS ${Math.round(baseline)} → peak ${Math.round(peak)} MB\n`)
    expect(peak).toBeLessThan(RSS_LIMIT_MB)

    const health = await (await fetch(`${server.url}/v1/portability/nexus/health`, { headers: { 'X-API-Key': key } })).json()
    const counted = health.states.reduce((sum: number, s: { transaction_count: number }) => sum + s.transaction_count, 0)
    expect(counted).toBe(1_000_000)
  })
})
