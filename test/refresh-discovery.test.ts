// Editions discovered on every refresh, from index pages served over real HTTP: the newest listed
// edition wins, freshness follows it, an unchanged source costs one conditional request and no
// re-parse, and a listing or file that goes wrong fails only its state, which keeps its data.
import { readFile } from 'node:fs/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FreshnessEnvelope, type Manifest, type StateRecord } from '../snapshot-contract/manifest.ts'
import { RateIndex } from '../snapshot-contract/rate-index.ts'
import { loadSnapshot, snapshotDir } from '../snapshot-contract/snapshot-store.ts'
import { defaultZipRates } from '../pipeline/run/snapshot-diff.ts'
import { startFaultMirror, type FaultMirror } from './support/fault-mirror.ts'
import { heldDrops } from './support/held-drops.ts'
import { pipelineSettings, runRefresh } from './support/refresh-run.ts'
import { sharedPath } from './support/shared.ts'
import { tempDir } from './support/temp-dirs.ts'

const GA_REAL = 'GAR2026Q2FEB19.csv'
/** The Q1 file GA would have posted on 2025-11-20, derived from the real Q2 file. */
const GA_OLDER = 'GAR2026Q1NOV20.csv'
const SST_NAMES = ['GAR2026Q2FEB19.csv', 'MNR2026Q2FEB18.zip', 'WIR2026Q2FEB18.csv']

const state = (manifest: Manifest, code: string) => manifest.states.find((s) => s.code === code) as StateRecord

async function freshnessOf(artifacts: string, manifest: Manifest, code: string) {
  const envelope = FreshnessEnvelope.parse(JSON.parse(await readFile(`${snapshotDir(artifacts, manifest.snapshot)}/freshness.json`, 'utf8')))
  return envelope.states.find((s) => s.code === code.toLowerCase())!
}

async function answersOf(artifacts: string, snapshot: string, code: string) {
  const index = new RateIndex((await loadSnapshot(artifacts, snapshot)).files['rates.bin'])
  return defaultZipRates(index, '2026-11-21', new Set([code]))
}

/**
 * The file as it stood a quarter earlier: the Q2 changes (rows starting 2026-04-01) not yet known,
 * and the rows they close still open.
 */
async function olderGaEdition(): Promise<Buffer> {
  const lines = (await readFile(sharedPath('mirror/sst', GA_REAL), 'utf8')).split('\n')
  const older = lines
    .filter((line) => line.split(',')[7] !== undefined && line.split(',')[7]! < '20260401')
    .map((line) => line.replace(/,20260331$/, ',29991231'))
  expect(older.length).toBeLessThan(lines.length - 1)
  return Buffer.from(`${older.join('\n')}\n`)
}

describe('discovery of the newest edition from an index page', () => {
  let mirror: FaultMirror
  let artifacts: string
  let build: string
  let drops: string
  const run = async (now: string, extra: Record<string, string> = {}) =>
    (await runRefresh(pipelineSettings({ mirror: mirror.url, artifacts, build, drops, states: 'GA,WI', now, extra }))).manifest!
  const requestsOf = (path: string, from: number) => mirror.requests.slice(from).filter((r) => r.path === path)

  beforeAll(async () => {
    mirror = await startFaultMirror()
    mirror.files.set(`/sst/${GA_OLDER}`, await olderGaEdition())
    artifacts = await tempDir('artifacts')
    build = await tempDir('build')
    drops = await heldDrops('GA,WI')
  })
  afterAll(() => mirror.close())

  it('P2 a listing of two GA editions picks the newer; freshness shows its effective_through and changed', async () => {
    // First the page lists only the older edition: it is loaded.
    mirror.faults.set('/sst/', { kind: 'listing', names: [GA_OLDER, ...SST_NAMES.slice(1)] })
    const first = await run('2026-11-20T03:00:00.000Z')
    mirror.faults.clear()
    expect(state(first, 'GA')).toMatchObject({ status: 'ok', edition: '2026Q1NOV20', effective_through: '2026-01-01', pinned: false })
    expect(await freshnessOf(artifacts, first, 'GA')).toMatchObject({ effective_through: '2026-01-01', source_period: '2026Q1' })

    // Then the page lists both (the mirror's directory and the derived file): the newer wins.
    const before = mirror.requests.length
    const second = await run('2026-11-21T03:00:00.000Z')
    const ga = state(second, 'GA')
    expect(ga).toMatchObject({ status: 'changed', edition: '2026Q2FEB19', effective_through: '2026-04-01' })
    expect(ga.sources[0]).toMatchObject({ name: GA_REAL, url: `${mirror.url}/sst/${GA_REAL}` })
    expect(ga.notes[0]).toBe(`edition 2026Q2FEB19: ${GA_REAL}: the newest of 2 GA rate file(s) listed on ${mirror.url}/sst/`)
    expect(await freshnessOf(artifacts, second, 'GA')).toMatchObject({ status: 'changed', effective_through: '2026-04-01', source_period: '2026Q2', last_refreshed_at: '2026-11-21T03:00:00.000Z' })
    // Chattooga County (13055) went from 4% to 5% on 2026-04-01: only the newer edition knows it.
    const rateAt = (rows: { zip: string; combined: number }[], zip: string) => rows.find((r) => r.zip === zip)?.combined
    expect(rateAt(await answersOf(artifacts, first.snapshot, 'GA'), '30747')).toBe(8000)
    expect(rateAt(await answersOf(artifacts, second.snapshot, 'GA'), '30747')).toBe(9000)
    // GA and WI share the index page: it was asked for once in the run.
    expect(requestsOf('/sst/', before)).toHaveLength(1)
    expect(state(second, 'WI').status).toBe('ok')
  })

  it('with no newer edition: last_refreshed_at advances, effective_through stays, one conditional request and no re-parse', async () => {
    const before = mirror.requests.length
    const previous = await run('2026-11-22T03:00:00.000Z')
    const third = await run('2026-11-23T03:00:00.000Z')
    const ga = state(third, 'GA')
    expect(ga).toMatchObject({ status: 'ok', edition: '2026Q2FEB19', effective_through: '2026-04-01', last_refreshed_at: '2026-11-23T03:00:00.000Z', last_fetch: '2026-11-23' })
    expect(ga.data_from_snapshot).toBe(state(previous, 'GA').data_from_snapshot)
    expect(ga.notes[1]).toMatch(/^sources unchanged since snapshot .*: its data carried forward without re-parsing$/)
    expect(await freshnessOf(artifacts, third, 'GA')).toMatchObject({ status: 'ok', effective_through: '2026-04-01', last_refreshed_at: '2026-11-23T03:00:00.000Z' })
    expect(await answersOf(artifacts, third.snapshot, 'GA')).toEqual(await answersOf(artifacts, previous.snapshot, 'GA'))
    // the third run: one request for the file, conditional, and one for the shared page
    const fileRequests = requestsOf(`/sst/${GA_REAL}`, before).slice(-1)
    expect(requestsOf(`/sst/${GA_REAL}`, before)).toHaveLength(2)
    expect(fileRequests[0]!.ifNoneMatch).toBeTruthy()
    expect(requestsOf('/sst/', before)).toHaveLength(2)
  })

  it('an operator pin holds an older edition, and the manifest says it is pinned', async () => {
    const pinned = await run('2026-11-24T03:00:00.000Z', { TAXATLAS_PIN: `GA=${GA_OLDER}` })
    expect(state(pinned, 'GA')).toMatchObject({ status: 'changed', edition: '2026Q1NOV20', effective_through: '2026-01-01', pinned: true })
    expect(state(pinned, 'GA').notes[0]).toBe(`edition 2026Q1NOV20: ${GA_OLDER}: pinned by the operator (TAXATLAS_PIN); newer editions are not looked for`)
    const unpinned = await run('2026-11-25T03:00:00.000Z')
    expect(state(unpinned, 'GA')).toMatchObject({ status: 'changed', edition: '2026Q2FEB19', pinned: false })
  })

  it('a pin the feed cannot use fails the state with the pin named', async () => {
    const next = await run('2026-11-26T03:00:00.000Z', { TAXATLAS_PIN: 'GA=WIR2026Q2FEB18.csv' })
    expect(state(next, 'GA').status).toBe('failed')
    expect(state(next, 'GA').notes.join()).toMatch(/TAXATLAS_PIN names WIR2026Q2FEB18\.csv for GA/)
    expect(state(next, 'WI').status).toBe('ok')
  })
})

describe('listing and file faults fail only their state, which keeps its data', () => {
  let mirror: FaultMirror
  let artifacts: string
  let drops: string
  let baseline: Manifest
  const run = async (now: string) =>
    (await runRefresh(pipelineSettings({ mirror: mirror.url, artifacts, drops, build: await tempDir('build'), states: 'GA,WI,CA', now }))).manifest!
  const expectFailedKeepingData = async (next: Manifest, code: string, note: RegExp) => {
    expect(state(next, code).status, code).toBe('failed')
    expect(state(next, code).notes.join(' '), code).toMatch(note)
    expect(state(next, code).edition).toBe(state(baseline, code).edition)
    expect(await answersOf(artifacts, next.snapshot, code), code).toEqual(await answersOf(artifacts, baseline.snapshot, code))
  }

  beforeAll(async () => {
    mirror = await startFaultMirror()
    artifacts = await tempDir('artifacts')
    drops = await heldDrops('GA,WI,CA')
    baseline = await run('2026-11-21T03:00:00.000Z')
    for (const code of ['GA', 'WI', 'CA']) expect(state(baseline, code).status, code).toBe('ok')
  })
  afterAll(() => mirror.close())

  it('P35 an index page that lists no GA file, and an HTML page served with 200 in place of the workbook', async () => {
    mirror.faults.set('/sst/', { kind: 'listing', names: SST_NAMES.slice(1) })
    const notFoundPage = `<!DOCTYPE html>\n<html><head><title>Page Not Found | CDTFA</title></head><body>The page you requested has moved.</body></html>\n`
    mirror.faults.set('/cdtfa/SalesTaxRates1-1-26.xlsx', { kind: 'bytes', bytes: Buffer.from(notFoundPage) })
    const next = await run('2026-11-22T03:00:00.000Z')
    mirror.faults.clear()
    await expectFailedKeepingData(next, 'GA', /index page .*\/sst\/ lists no rate file for GA \(2 SST files of other states\)/)
    await expectFailedKeepingData(next, 'CA', /SalesTaxRates1-1-26\.xlsx: the server answered an HTML page \("Page Not Found \| CDTFA"\) in place of the file/)
    expect(state(next, 'WI').status).toBe('ok')
  })

  it('P35 a listed file that answers 404, and P4 a file ten times its usual size', async () => {
    mirror.faults.set('/sst/', { kind: 'listing', names: [...SST_NAMES, 'GAR2026Q3MAY20.csv'] })
    const wi = await readFile(sharedPath('mirror/sst/WIR2026Q2FEB18.csv'))
    mirror.faults.set('/sst/WIR2026Q2FEB18.csv', { kind: 'bytes', bytes: Buffer.concat(Array.from({ length: 10 }, () => wi)) })
    const next = await run('2026-11-23T03:00:00.000Z')
    mirror.faults.clear()
    await expectFailedKeepingData(next, 'GA', /GAR2026Q3MAY20\.csv: GET .*\/sst\/GAR2026Q3MAY20\.csv failed: .*404/)
    await expectFailedKeepingData(next, 'WI', /WIR2026Q2FEB18\.csv is 897,050 bytes, 10\.0 times the 89,705 bytes of WIR2026Q2FEB18\.csv in service: refused/)
    expect(state(next, 'CA').status).toBe('ok')
  })

  it('P35 an index page whose layout changed fails every state it serves, and no other', async () => {
    const changedLayout = SST_NAMES.map((name, i) => `<a href="/ratesandboundry/Rates/get/${i + 1}">${name.slice(0, 2)} rates</a>`).join('\n')
    mirror.faults.set('/sst/', { kind: 'bytes', bytes: Buffer.from(`<!DOCTYPE html><html><body>${changedLayout}</body></html>`) })
    const next = await run('2026-11-24T03:00:00.000Z')
    mirror.faults.clear()
    await expectFailedKeepingData(next, 'GA', /index page .*\/sst\/ lists no SST file names among its 3 links: its layout changed/)
    await expectFailedKeepingData(next, 'WI', /its layout changed/)
    expect(state(next, 'CA').status).toBe('ok')
  })

  it('P34 an edition older than the one in service never replaces it', async () => {
    mirror.files.set(`/sst/${GA_OLDER}`, await olderGaEdition())
    mirror.faults.set('/sst/', { kind: 'listing', names: [GA_OLDER, ...SST_NAMES.slice(1)] })
    const next = await run('2026-11-25T03:00:00.000Z')
    mirror.faults.clear()
    await expectFailedKeepingData(next, 'GA', /newest listed edition 2026Q1NOV20 \(GAR2026Q1NOV20\.csv\) is older than edition 2026Q2FEB19 in service: not replacing newer data/)
    expect(state(next, 'GA').effective_through).toBe('2026-04-01')
    expect(state(next, 'WI').status).toBe('ok')
  })
})
