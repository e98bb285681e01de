// The short form of `make soak` (test/soak/soak.ts): the same run at a modest fixed rate for a few
// seconds on the small GA/CT/DE snapshot, with a snapshot re-published under a new id midway.
// Held to the same checks — no error, no non-2xx, RSS that does not grow, the new snapshot served
// and every answer unchanged and equal to its rates index, the store file taken away for 2 s
// with every write meanwhile refused and writes accepted again on their own — and to no
// throughput figure.
import { rm } from 'node:fs/promises'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { startServerProcess, type ServerProcess } from './support/reliability-server-process.ts'
import { runSoak } from './support/reliability-soak-run.ts'
import { storeOutage } from './support/reliability-store-outage.ts'
import { artifactsWithSnapshot, republish } from './support/server-snapshot.ts'
import { tempDir } from './support/temp-dirs.ts'

const SECONDS = Number(process.env.SOAK_TEST_SECONDS ?? 6)
const RATE = 150
const TIERS = JSON.stringify({ enterprise: { rate_per_second: 1_000_000, burst: 1_000_000 } })

let artifacts: { dir: string; id: string }
let storeDir: string
let server: ServerProcess

beforeAll(async () => {
  artifacts = await artifactsWithSnapshot(inject('mirrorUrl'))
  storeDir = await tempDir('reliability-soak-store')
  server = await startServerProcess({ artifactsDir: artifacts.dir, storePath: path.join(storeDir, 'store.duckdb'), env: { TAXATLAS_TIERS: TIERS }, fullGcOnSignal: true, keepAccessLog: false })
})
afterAll(async () => {
  await server?.stop()
  await rm(storeDir, { recursive: true, force: true })
  await rm(artifacts.dir, { recursive: true, force: true })
})

describe('a short soak', () => {
  it('answers every lookup 200 through a hot swap and the store file taken away, without RSS growth, every answer correct and no write acknowledged while the store was away', async () => {
    const { api_key: key } = await server.createAccount('enterprise')
    const newId = `${artifacts.id}-soak`
    const report = await runSoak({
      server,
      key,
      artifactsDir: artifacts.dir,
      perMode: 150,
      seconds: SECONDS,
      connections: 8,
      rate: { fixed: RATE },
      publish: async () => {
        await republish(artifacts.dir, artifacts.id, newId)
        return newId
      },
      publishAt: 0.3,
      storeOutage: { at: 0.5, run: () => storeOutage({ url: server.url, key, storePath: path.join(storeDir, 'store.duckdb'), seconds: 2, zip: '30303', state: 'GA' }) },
    })
    console.log(`short soak: ${JSON.stringify({ ...report, checks: { ...report.checks, answersChanged: report.checks.answersChanged.length, zipMismatches: report.checks.zipMismatches.length } })}`)

    for (const mode of ['zip', 'address', 'place', 'coordinate'] as const) expect(report.paths[mode], mode).toBeGreaterThan(10)
    expect(report.load.requests).toBeGreaterThan(0)
    expect(report.load.errors).toBe(0)
    expect(report.load.non2xx, JSON.stringify(report.load.statusCodes)).toBe(0)
    expect(report.rss.grows, JSON.stringify(report.rss)).toBe(false)
    expect(report.swap.servedFromS).not.toBeNull()
    expect(report.checks.answersChanged).toEqual([])
    expect(report.checks.zipMismatches).toEqual([])
    expect(report.checks.zipAnswersCompared).toBe(report.paths.zip)
    // The store phase: nothing acknowledged while the file was away, every write refused with 503, accepted again on their own.
    expect(report.storeOutage).toMatchObject({ refusedBefore: 0, acknowledgedWhileAway: 0, recoveredAfterS: expect.any(Number) })
    expect(Object.keys(report.storeOutage!.whileAway)).toEqual(['503 STORE_FILE_LOST'])
  })
})
