// Faults during a refresh: the affected state is `failed` (or `anchor_regression`), keeps the
// previous snapshot's data, and every other state is unaffected.
import { existsSync, watch } from 'node:fs'
import { readdir, readFile } from 'node:fs/promises'
import path from 'node:path'
import { strToU8, unzipSync, zipSync } from 'fflate'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Manifest, StateRecord } from '../snapshot-contract/manifest.ts'
import { RateIndex } from '../snapshot-contract/rate-index.ts'
import { defaultZipRates } from '../pipeline/run/snapshot-diff.ts'
import { loadSnapshot, readCurrentId, snapshotsDir } from '../snapshot-contract/snapshot-store.ts'
import { refreshLockPath } from '../pipeline/run/refresh-lock.ts'
import { startFaultMirror, type FaultMirror } from './support/fault-mirror.ts'
import { heldDrops } from './support/held-drops.ts'
import { startTestServer } from './support/server-harness.ts'
import { pipelineSettings, refreshProcess, runRefresh } from './support/refresh-run.ts'
import { sharedPath } from './support/shared.ts'
import { tempDir } from './support/temp-dirs.ts'

const STATES = 'GA,MN,WI,CA,CT'
const state = (manifest: Manifest, code: string) => manifest.states.find((s) => s.code === code) as StateRecord

async function answersOf(artifacts: string, snapshot: string, code: string) {
  const index = new RateIndex((await loadSnapshot(artifacts, snapshot)).files['rates.bin'])
  return defaultZipRates(index, '2026-11-21', new Set([code]))
}

describe('refresh faults through a real HTTP mirror', () => {
  let mirror: FaultMirror
  let artifacts: string
  let drops: string
  let baseline: Manifest
  const run = async (now: string) =>
    (await runRefresh(pipelineSettings({ mirror: mirror.url, artifacts, drops, build: await tempDir('build'), states: STATES, now, extra: { TAXATLAS_FETCH_TIMEOUT_MS: '700' } }))).manifest!

  beforeAll(async () => {
    mirror = await startFaultMirror()
    artifacts = await tempDir('artifacts')
    drops = await heldDrops(STATES)
    baseline = await run('2026-11-21T03:00:00.000Z')
  })
  afterAll(() => mirror.close())

  it('a 500, a hang, a truncated file and a changed column layout fail only their states, which keep their data', async () => {
    const ga = await readFile(sharedPath('mirror/sst/GAR2026Q2FEB19.csv'))
    mirror.faults.set('/sst/GAR2026Q2FEB19.csv', { kind: 'status', status: 500 })
    mirror.faults.set('/cdtfa/SalesTaxRates1-1-26.xlsx', { kind: 'hang' })
    mirror.faults.set('/sst/MNR2026Q2FEB18.zip', { kind: 'truncate' })
    const wi = (await readFile(sharedPath('mirror/sst/WIR2026Q2FEB18.csv'), 'utf8')).replace(/\n/g, ',0\n')
    mirror.faults.set('/sst/WIR2026Q2FEB18.csv', { kind: 'bytes', bytes: Buffer.from(wi) })
    const next = await run('2026-11-22T03:00:00.000Z')
    mirror.faults.clear()

    expect(state(next, 'GA').status).toBe('failed')
    expect(state(next, 'GA').notes.join()).toMatch(/GAR2026Q2FEB19\.csv: GET .* 500/)
    expect(state(next, 'CA').status).toBe('failed')
    expect(state(next, 'CA').notes.join()).toMatch(/timeout/i)
    expect(state(next, 'MN').status).toBe('failed')
    expect(state(next, 'WI').status).toBe('failed')
    expect(state(next, 'WI').notes.join()).toMatch(/10/)
    expect(state(next, 'CT').status).toBe('static')
    for (const code of ['GA', 'CA', 'MN', 'WI']) {
      expect(await answersOf(artifacts, next.snapshot, code), code).toEqual(await answersOf(artifacts, baseline.snapshot, code))
      // the record still says when the data in service was last refreshed
      expect(state(next, code).last_refreshed_at).toBe(state(baseline, code).last_refreshed_at)
    }
    expect(ga.length).toBeGreaterThan(0)
  })

  it('a diverging anchor is anchor_regression and the new rates are not published', async () => {
    // Fulton County's 3% raised to 3.5% in a real GA file: the 30303 anchors (8.9%, 8.5%) diverge
    const text = (await readFile(sharedPath('mirror/sst/GAR2026Q2FEB19.csv'), 'utf8')).replace('13,00,121,0.03,0.03,0.03,0.03', '13,00,121,0.035,0.035,0.035,0.035')
    mirror.faults.set('/sst/GAR2026Q2FEB19.csv', { kind: 'bytes', bytes: Buffer.from(text) })
    const next = await run('2026-11-23T03:00:00.000Z')
    mirror.faults.clear()
    const ga = state(next, 'GA')
    expect(ga.status).toBe('anchor_regression')
    expect(ga.anchors.filter((a) => a.outcome === 'diverged').map((a) => [a.zip, a.asOf, a.actual])).toEqual([
      ['30303', '2026-04-01', '0.09400'],
      ['30303', '2022-06-01', '0.09000'],
    ])
    const served = (await answersOf(artifacts, next.snapshot, 'GA')).find((r) => r.zip === '30303')
    expect(served?.combined).toBe(8900)
    expect(state(next, 'WI').status).toBe('ok')
  })

  it('P3 a zip whose member cannot be chosen fails MN with the members named', async () => {
    const original = unzipSync(await readFile(sharedPath('mirror/sst/MNR2026Q2FEB18.zip')))
    const body = original['MNR2026Q2FEB18.csv']
    const ambiguous = Buffer.from(zipSync({ 'rates-a.csv': body, 'rates-b.csv': strToU8('27,45,27,0.06875,0.06875,0.06875,0.06875,20090701,29991231\n') }))
    mirror.faults.set('/sst/MNR2026Q2FEB18.zip', { kind: 'bytes', bytes: ambiguous })
    const next = await run('2026-11-24T03:00:00.000Z')
    mirror.faults.clear()
    expect(state(next, 'MN').status).toBe('failed')
    expect(state(next, 'MN').notes.join()).toMatch(/rates-a\.csv.*rates-b\.csv/)
  })

  it('a newer GA edition listed but unreadable is named in /v1/freshness as pending, with why, while the previous edition serves', async () => {
    const listed = (await readdir(sharedPath('mirror/sst'))).filter((name) => /^[A-Z]{2}[RB]\d{4}Q[1-4][A-Z]{3}\d{2}\.(csv|zip)$/.test(name))
    // The next quarter's file as GA would post it, its rows one column longer than the layout: unreadable.
    const nextQuarter = (await readFile(sharedPath('mirror/sst/GAR2026Q2FEB19.csv'), 'utf8')).replace(/\n/g, ',0\n')
    mirror.faults.set('/sst/', { kind: 'listing', names: [...listed, 'GAR2026Q3MAY20.csv'] })
    mirror.files.set('/sst/GAR2026Q3MAY20.csv', Buffer.from(nextQuarter))
    let next: Manifest
    try {
      next = await run('2026-11-25T03:00:00.000Z')
    } finally {
      mirror.faults.clear()
      mirror.files.delete('/sst/GAR2026Q3MAY20.csv')
    }
    const server = await startTestServer({ artifactsDir: artifacts })
    try {
      const freshness = await (await fetch(`${server.url}/v1/freshness`)).json()
      const ga = freshness.states.find((record: { code: string }) => record.code === 'ga')
      expect(ga.status).toBe('failed')
      expect(ga.edition).toBe(state(baseline, 'GA').edition)
      expect(ga.pending_edition).toMatchObject({ edition: '2026Q3MAY20', feed: 'sst', outcome: 'failed' })
      expect(ga.pending_edition.reason).toMatch(/GAR2026Q3MAY20\.csv/)
      expect(ga.pending_edition.reason).toBe(state(next, 'GA').feeds_tried.find((attempt) => attempt.feed === 'sst')!.message)
      // The states whose listed edition is the one in service have none pending.
      for (const code of ['mn', 'wi', 'ca', 'ct']) expect(freshness.states.find((record: { code: string }) => record.code === code).pending_edition, code).toBeNull()
      expect(await answersOf(artifacts, next.snapshot, 'GA')).toEqual(await answersOf(artifacts, baseline.snapshot, 'GA'))
    } finally {
      await server.close()
    }
    // Once the edition in service is listed again and loads, nothing is pending.
    const recovered = await run('2026-11-26T03:00:00.000Z')
    expect(state(recovered, 'GA').pending_edition).toBeNull()
  })
})

/** The environment of `make refresh` run as its own process on GA and CT (and their drops), at the real time. */
const processEnv = async (artifacts: string) => ({
  TAXATLAS_MIRROR: sharedPath('mirror'),
  TAXATLAS_DROPS: await heldDrops('GA,CT'),
  TAXATLAS_GEO: sharedPath('geo'),
  TAXATLAS_ARTIFACTS: artifacts,
  TAXATLAS_BUILD: await tempDir('build'),
  TAXATLAS_STATES: 'GA,CT',
})

describe('a refresh killed mid-compile', () => {
  it('leaves the served snapshot untouched, and the next run cleans up and succeeds', async () => {
    const artifacts = await tempDir('artifacts')
    const env = await processEnv(artifacts)
    const refreshCommand = () => refreshProcess(env)
    const first = await refreshCommand()
    expect(first.exitCode).toBe(0)
    const served = await readCurrentId(artifacts)

    const child = refreshCommand()
    const killedWhileWriting = await new Promise<boolean>((resolve) => {
      const watcher = watch(snapshotsDir(artifacts), (_event, name) => {
        if (name?.includes('.tmp-')) {
          child.kill('SIGKILL')
          watcher.close()
          resolve(true)
        }
      })
      child.finally(() => {
        watcher.close()
        resolve(false)
      })
    })
    await child
    expect(killedWhileWriting).toBe(true)
    expect(await readCurrentId(artifacts)).toBe(served)
    await loadSnapshot(artifacts, served!)
    const leftovers = (await readdir(snapshotsDir(artifacts))).filter((name) => name.includes('.tmp-'))
    expect(leftovers.length).toBeGreaterThan(0)

    const again = await refreshCommand()
    expect(again.exitCode).toBe(0)
    expect(again.stderr).toMatch(/removed 1 half-written snapshot/)
    expect((await readdir(snapshotsDir(artifacts))).filter((name) => name.includes('.tmp-'))).toEqual([])
    const current = await readCurrentId(artifacts)
    expect(current).not.toBe(served)
    expect(existsSync(path.join(snapshotsDir(artifacts), current!, 'manifest.json'))).toBe(true)
  })
})

describe('two refreshes at once', () => {
  it('the second is refused while the first runs, changes nothing, and CURRENT never moves back to an earlier run', async () => {
    const artifacts = await tempDir('artifacts')
    const first = refreshProcess(await processEnv(artifacts))
    await expect.poll(() => existsSync(refreshLockPath(artifacts)), { interval: 20 }).toBe(true)
    const second = await refreshProcess(await processEnv(artifacts))
    expect(second.exitCode).toBe(1)
    expect(second.stderr).toMatch(new RegExp(`nothing published: another refresh is running on .* \\(pid ${first.pid}, started `))
    expect((await first).exitCode).toBe(0)
    const current = (await readCurrentId(artifacts))!
    const manifest = (await loadSnapshot(artifacts, current)).manifest
    expect(manifest.states.filter((s) => s.status === 'failed').map((s) => s.code)).toEqual([])
    expect((await readdir(snapshotsDir(artifacts))).filter((name) => !name.includes('.tmp-'))).toEqual([current])
    expect(existsSync(refreshLockPath(artifacts))).toBe(false)

    // A run that started before the one in service (its clock behind) never replaces it.
    const earlier = new Date(Date.parse(manifest.generated_at) - 3_600_000).toISOString()
    await expect(runRefresh(pipelineSettings({ mirror: sharedPath('mirror'), artifacts, drops: await heldDrops('GA'), build: await tempDir('build'), states: 'GA', now: earlier }))).rejects.toThrow(
      new RegExp(`CURRENT names ${current}, published by a run that started later`),
    )
    expect(await readCurrentId(artifacts)).toBe(current)
  })
})
