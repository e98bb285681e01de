// The whole pipeline against the real files, served over HTTP as CI does.
import { readFile } from 'node:fs/promises'
import Papa from 'papaparse'
import { beforeAll, describe, expect, inject, it } from 'vitest'
import { sha256Hex } from '../snapshot-contract/file-bytes.ts'
import { FRESHNESS_STATUSES, FreshnessEnvelope, freshnessEnvelope, type Manifest } from '../snapshot-contract/manifest.ts'
import { RateIndex } from '../snapshot-contract/rate-index.ts'
import { staleExplanation, summaryTable } from '../pipeline/run/reporter.ts'
import { defaultZipRates } from '../pipeline/run/snapshot-diff.ts'
import { INDEX_FILES, loadSnapshot, readCurrentId, snapshotDir } from '../snapshot-contract/snapshot-store.ts'
import { STATES } from '../sources/index.ts'
import { pipelineSettings, runRefresh } from './support/refresh-run.ts'
import { sharedPath } from './support/shared.ts'
import { tempDir } from './support/temp-dirs.ts'

async function hudZipsOf(state: string): Promise<Set<string>> {
  const text = await readFile(sharedPath('geo/hud/ZIP_COUNTY_032023.csv'), 'utf8')
  const rows = Papa.parse<Record<string, string>>(text, { header: true, skipEmptyLines: true }).data
  return new Set(rows.filter((row) => row.USPS_ZIP_PREF_STATE === state).map((row) => row.ZIP))
}

const daysBetween = (from: string, to: string) => Math.floor((Date.parse(to) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000)

describe('a full refresh from the HTTP mirror', () => {
  const firstNow = '2026-11-21T03:00:00.000Z'
  let artifacts: string
  let first: Manifest
  beforeAll(async () => {
    artifacts = await tempDir('artifacts')
    const result = await runRefresh(pipelineSettings({ mirror: inject('mirrorUrl'), artifacts, build: await tempDir('build'), now: firstNow }))
    expect(result.manifest).not.toBeNull()
    first = result.manifest!
  })

  it('publishes a snapshot with every state in a status of spec 3.1 and moves the pointer', async () => {
    expect(await readCurrentId(artifacts)).toBe(first.snapshot)
    expect(first.states.map((s) => s.code)).toEqual(STATES.map((d) => d.code))
    for (const state of first.states) expect(FRESHNESS_STATUSES).toContain(state.status)
    for (const d of STATES.filter((d) => d.klass === 'static')) {
      expect(first.states.find((s) => s.code === d.code)?.status, d.code).toBe('static')
    }
    for (const code of ['GA', 'MN', 'WI', 'CA']) expect(first.states.find((s) => s.code === code)?.status, code).toBe('ok')
    // a manual drop is as old as its edition: the 2025-12 tables are past the 40-day threshold
    for (const state of first.states.filter((s) => s.klass === 'reload')) {
      expect(state.last_fetch, state.code).toBe('2025-12-01')
      expect(state.status, state.code).toBe('stale')
    }
  })

  it('records every file with the sha256 of the bytes the publisher served', async () => {
    const ga = first.states.find((s) => s.code === 'GA')!
    const original = await readFile(sharedPath('mirror/sst/GAR2026Q2FEB19.csv'))
    const drop = await readFile(sharedPath('drops/avalara-zip5/202512/TAXRATES_ZIP5_GA202512.csv'))
    expect(ga.sources).toEqual([
      { url: `${inject('mirrorUrl')}/sst/GAR2026Q2FEB19.csv`, name: 'GAR2026Q2FEB19.csv', sha256: sha256Hex(original), size: original.length },
      // The drop whose region names placed the ZIPs the geography lacks (feeds/unlisted-zips.ts), named
      // by its place in TAXATLAS_DROPS, never by a path of the machine.
      { url: 'manual-drops:avalara-zip5/202512/TAXRATES_ZIP5_GA202512.csv', name: 'TAXRATES_ZIP5_GA202512.csv', sha256: sha256Hex(drop), size: drop.length },
    ])
    const mn = first.states.find((s) => s.code === 'MN')!
    expect(mn.sources[0].member).toBe('MNR2026Q2FEB18.csv')
    const loaded = await loadSnapshot(artifacts, first.snapshot)
    for (const name of INDEX_FILES) expect(sha256Hex(loaded.files[name])).toBe(first.files.find((f) => f.name === name)?.sha256)
  })

  it('writes the freshness envelope of spec 2.5', async () => {
    const text = await readFile(`${snapshotDir(artifacts, first.snapshot)}/freshness.json`, 'utf8')
    const envelope = FreshnessEnvelope.parse(JSON.parse(text))
    expect(envelope).toEqual(freshnessEnvelope(first))
    const ga = envelope.states.find((s) => s.code === 'ga')!
    expect(ga).toMatchObject({ name: 'Georgia', klass: 'auto', effective_through: '2026-04-01', source_period: '2026Q2', rows: 449 })
    const dc = envelope.states.find((s) => s.code === 'dc')!
    expect(dc.name).toBe('District of Columbia')
    for (const state of envelope.states) expect(state.source_period, state.code).toMatch(/^\d{4}Q[1-4]$/)
  })

  it('holds every pinned anchor that applies', () => {
    const anchors = first.states.flatMap((s) => s.anchors.map((a) => ({ state: s.code, ...a })))
    expect(anchors.length).toBeGreaterThanOrEqual(STATES.length)
    expect(anchors.filter((a) => a.outcome === 'diverged')).toEqual([])
  })

  it('answers every HUD ZIP of a state from its own feed (P28: PO-box ZIPs included)', async () => {
    const index = new RateIndex((await loadSnapshot(artifacts, first.snapshot)).files['rates.bin'])
    for (const state of ['GA', 'CT', 'MA']) {
      const served = new Set(defaultZipRates(index, '2026-11-21', new Set([state])).map((r) => r.zip))
      for (const zip of await hudZipsOf(state)) expect(served.has(zip), `${state} ${zip}`).toBe(true)
    }
    // 01101 is a Springfield MA PO-box ZIP, not a ZCTA
    const [entry] = index.lookupZip('01101')
    expect(entry.zcta).toBe(false)
    expect(index.combinedRate(entry.candidates[0].stack, '2026-11-21')).toBe(6250)
  })

  it('withholds the few ZIPs whose aggregator figure breaks the legal bounds, lists them, and answers their state and county layers where those hold', async () => {
    const index = new RateIndex((await loadSnapshot(artifacts, first.snapshot)).files['rates.bin'])
    const withheld = first.states.flatMap((s) => s.withheld.map((w) => ({ state: s.code, ...w })))
    expect(withheld.length).toBeGreaterThan(0)
    const bounds = new Map(STATES.map((d) => [d.code, d.combinedBounds]))
    for (const { state, zip, reason, known_layers, carried_from } of withheld) {
      // A figure outside the bounds, or every row of the ZIP rejected (carried when it had an answer).
      expect(reason).toMatch(/outside the legal bounds|zero|row rejected/)
      const entry = index.lookupZip(zip).find((e) => e.state === state)
      expect(entry !== undefined, `${state} ${zip}`).toBe(known_layers === true || carried_from !== undefined)
      if (!entry || carried_from) continue
      // Only the state and county layers, within the bounds on their own.
      for (const candidate of entry.candidates) {
        expect(candidate.basis).toBe('known_layers')
        const levels = index.authoritiesOn(candidate.stack, '2026-11-21').map((a) => a.level)
        expect(levels.every((level) => level === 'state' || level === 'county'), `${state} ${zip} ${levels}`).toBe(true)
        const combined = index.combinedRate(candidate.stack, '2026-11-21')
        const [low, high] = bounds.get(state)!
        expect(combined >= low && combined <= high && combined > 0, `${state} ${zip} ${combined}`).toBe(true)
      }
    }
    // the figure really is in the drop file: 89431 (Reno-Sparks Indian Colony) at 16.89%, with
    // Nevada's 4.6% and Washoe County's 3.665% in its state and county columns
    const nv = await readFile(sharedPath('drops/avalara-zip5/202512/TAXRATES_ZIP5_NV202512.csv'), 'utf8')
    expect(nv).toMatch(/^NV,89431,.*0\.168900,0\.046000,0\.036650/m)
    expect(withheld).toContainEqual({ state: 'NV', zip: '89431', reason: expect.stringContaining('0.16890'), known_layers: true })
    const [sparks] = index.lookupZip('89431')
    expect(index.combinedRate(sparks!.candidates[0]!.stack, '2026-11-21')).toBe(8265)
  })

  it('writes byte-identical indexes for the same inputs, and a no-change run is ok rather than changed', async () => {
    const second = await runRefresh(
      pipelineSettings({ mirror: inject('mirrorUrl'), artifacts, build: await tempDir('build'), now: '2026-11-21T09:00:00.000Z' }),
    )
    expect(second.manifest!.snapshot).not.toBe(first.snapshot)
    for (const name of INDEX_FILES) {
      expect(second.manifest!.files.find((f) => f.name === name)?.sha256, name).toBe(first.files.find((f) => f.name === name)?.sha256)
    }
    for (const code of ['GA', 'MN', 'WI', 'CA']) expect(second.states.find((s) => s.code === code)?.status, code).toBe('ok')
    expect(await readCurrentId(artifacts)).toBe(second.manifest!.snapshot)
  })

  it('the summary says a fresh build\'s stale states are old data against their class limit, not failures', () => {
    const now = new Date(firstNow)
    const reload = first.states.filter((s) => s.klass === 'reload')
    const age = daysBetween(reload[0].last_fetch!, firstNow)
    const table = summaryTable(first.states, now)
    for (const state of reload) {
      const row = table.split('\n').find((line) => line.startsWith(`${state.code} `))!
      expect(row, state.code).toContain(`${age} d (40)`)
      expect(row, state.code).toContain(`edition ${state.last_fetch} is ${age} days old, past the 40-day reload limit: data age, not a failure`)
    }
    expect(table).toContain(`${reload.length} states are stale: the data in service is older than its class allows`)
    expect(table).toContain(`reload (manual drop, stale after 40 days): ${reload.length} states on the edition of 2025-12-01, ${age} days old: ${reload.map((s) => s.code).join(' ')}.`)
    // states that are not stale get no such line, and a run with none stale prints no explanation
    const ga = table.split('\n').find((line) => line.startsWith('GA '))!
    expect(ga).toMatch(/^GA\s+auto\s+sst\s+ok\s.*\s0 d \(5\)\s/)
    expect(ga).not.toContain('not a failure')
    expect(staleExplanation(first.states.filter((s) => s.status !== 'stale'), now)).toBe('')
  })

  it('a fetched state that later runs do not refresh ages into stale, and the summary gives its last fetch against 5 days', async () => {
    const later = '2026-11-30T03:00:00.000Z'
    const third = await runRefresh(pipelineSettings({ mirror: inject('mirrorUrl'), artifacts, build: await tempDir('build'), now: later, states: 'CT' }))
    const aged = third.states.filter((s) => s.klass === 'auto')
    expect(aged.map((s) => s.code).sort()).toEqual(['CA', 'GA', 'IL', 'MN', 'WI'])
    for (const state of aged) expect(state.status, state.code).toBe('stale')
    const lastFetch = aged[0].last_fetch!
    const explanation = staleExplanation(third.states, new Date(later))
    expect(explanation).toContain(`auto (fetched, stale after 5 days): 5 states last fetched ${lastFetch}, ${daysBetween(lastFetch, later)} days ago: ${aged.map((s) => s.code).join(' ')}.`)
    expect(explanation).toContain('The next refresh that fetches them makes them current again.')
  })
})
