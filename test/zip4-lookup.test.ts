// GET /v1/tax/mn with a ZIP+4 through a real server, on a snapshot the real refresh built from a
// mirror served over HTTP: the MN rate file and the MN boundary sample (rows reopened to be
// current), found by the same discovery as the rate file. Two fixture rows derived from the
// sample's own cover the pitfalls: a range overlapping another with a different county, and a
// district code with no rate row. Expected bindings are read from the sample rows.
import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { refresh } from '../pipeline/run/refresh.ts'
import { SST_BOUNDARY_URL, type StateDescriptor } from '../sources/descriptor.ts'
import { STATES } from '../sources/index.ts'
import { openSnapshot, type Snapshot } from '../server/snapshot/open-snapshot.ts'
import { readCurrentId } from '../snapshot-contract/snapshot-store.ts'
import { formatRate } from '../snapshot-contract/rate-units.ts'
import { fullLookup, simpleLookup, warningCodes, warningOf } from './support/lookup-bodies.ts'
import { startLookupServer, type LookupServer } from './support/lookup-server.ts'
import { pipelineSettings } from './support/refresh-run.ts'
import { sharedPath } from './support/shared.ts'
import { tempDir } from './support/temp-dirs.ts'
import { serveTempMirror, type TempMirror } from './support/temp-mirror.ts'

const MN_ZIP = 'MNR2026Q2FEB18.zip'
const SAMPLE = readFileSync(sharedPath('fixtures/sst/MNB2026Q2FEB18-sample.csv'), 'latin1').split('\n').filter((l) => l !== '')
const ROWS = SAMPLE.map((line) => line.replace(/^([^,]*,[^,]*,)20190331,/, '$129991231,').split(','))
const fourRows = (zip: string) => ROWS.filter((f) => f[0] === '4' && f[17] === zip && f[19] === zip)

// 55101's 4 rows bind ranges to Ramsey/St. Paul and to Dakota in turn.
const ST_PAUL = fourRows('55101').find((f) => f[25] !== '')!
const DAKOTA = fourRows('55101').find((f) => f[24] !== ST_PAUL[24])!
// Fixture: 55049's first 4 row again, in another county (overlapping-plus4-ranges-with-different-codes).
const OVERLAPPED = fourRows('55049')[0]!
const OVERLAP = [...OVERLAPPED.slice(0, 24), OVERLAPPED[24] === '147' ? '131' : '147', '', ...OVERLAPPED.slice(26)]
// Fixture: a 55079 row naming a district code the rate file lacks (boundary-district-without-rate-row).
const UNRATED_ROW = fourRows('55079')[0]!
const UNRATED_CODE = '89999'
const UNRATED = [...UNRATED_ROW.slice(0, 29), 'ST', UNRATED_CODE, '63', ...UNRATED_ROW.slice(32)]
const BOUNDARY = [...ROWS.map((f) => (f === UNRATED_ROW ? UNRATED : f)), OVERLAP].map((f) => f.join(',')).join('\n')

/**
 * MN with its boundary file listed. The sample's rows date from 2016–2019: reopened, they predate
 * districts 80008 and 80009 (2023), so MN's 2026 anchors, which count them, are not held against them.
 */
const withBoundary = (d: StateDescriptor): StateDescriptor =>
  d.code === 'MN' ? { ...d, anchors: [], feeds: d.feeds.map((feed) => (feed.kind === 'sst' ? { ...feed, boundaryUrl: SST_BOUNDARY_URL } : feed)) } : d

let mirror: TempMirror
let lookup: LookupServer
let snapshot: Snapshot

beforeAll(async () => {
  mirror = await serveTempMirror({ [`sst/${MN_ZIP}`]: readFileSync(sharedPath('mirror/sst', MN_ZIP)), 'sst/MNB2026Q2FEB18.csv': BOUNDARY })
  const artifacts = await tempDir('zip4-artifacts')
  const settings = pipelineSettings({ mirror: mirror.url, artifacts, build: await tempDir('zip4-build'), drops: await tempDir('zip4-no-drops'), states: 'MN' })
  const silent = { start() {}, state() {}, info() {}, finish() {} }
  const run = await refresh(settings, silent, STATES.map(withBoundary))
  if (!run.manifest) throw new Error(`no snapshot: ${run.reason}: ${JSON.stringify(run.states.find((s) => s.code === "MN")?.notes)}`)
  snapshot = await openSnapshot(artifacts, (await readCurrentId(artifacts))!, Date.now())
  lookup = await startLookupServer({ dir: artifacts })
}, 300_000)
afterAll(async () => {
  await lookup?.close()
  await mirror?.close()
})

const full = (path: string) => fullLookup(lookup, `${path}&mode=full`)
const simple = (path: string) => simpleLookup(lookup, path)
const codes = warningCodes
const plus4 = (row: string[]) => row[18]!.padStart(4, '0')

describe('the boundary file came through discovery', () => {
  it('the MN record lists both files, and the snapshot holds MN ZIP+4 ranges', () => {
    const record = snapshot.manifest.states.find((s) => s.code === 'MN')!
    expect(record.feed).toBe('sst')
    expect(record.sources.map((s) => s.name)).toEqual([MN_ZIP, 'MNB2026Q2FEB18.csv'])
    expect(snapshot.rates.hasPlus4('MN')).toBe(true)
  })
})

describe('zip=NNNNN-NNNN in a state with a boundary file', () => {
  it('answers the binding of the 4 row holding the +4, exactly: St. Paul and Dakota parts of 55101 differ', async () => {
    for (const row of [ST_PAUL, DAKOTA]) {
      const body = await full(`/v1/tax/mn?zip=55101-${plus4(row)}`)
      expect(body.meta.confidence).toBe('exact')
      expect(body.meta.resolved_via).toBe('zip4')
      expect(body.resolved_place.zip4).toBe(plus4(row))
      expect(body.resolved_place.county?.fips).toBe(`27${row[24]}`)
      expect(body.resolved_place.city?.geoid ?? null).toBe(row[25] ? `27${row[25]}` : null)
      expect(codes(body.warnings)).not.toContain('unplaced_jurisdictions')
      expect(codes(body.warnings)).not.toContain('zip4_not_used')
      // The rows answered are the layers of the binding, and nothing else.
      const [match] = snapshot.rates.plus4Matches('55101', Number(row[18]), 'MN', body.meta.effective_date ?? '2026-04-01').filter((m) => m.record === '4')
      expect(body.rows.map((r) => `${r.level}:${r.code}`).sort()).toEqual(
        snapshot.rates.authoritiesOn(match!.candidate.stack, '2026-11-21').map((a) => `${a.level}:${a.code}`).sort(),
      )
      expect(body.rate.combined_rate).toBe(formatRate(snapshot.rates.combinedRate(match!.candidate.stack, '2026-11-21')))
    }
    const [stPaul, dakota] = [await simple(`/v1/tax/mn?zip=55101-${plus4(ST_PAUL)}`), await simple(`/v1/tax/mn?zip=55101-${plus4(DAKOTA)}`)]
    expect(stPaul.rate.city).not.toBe(dakota.rate.city)
  })

  it('a +4 no 4 row lists answers the Z row of its ZIP (Minneapolis 55401), exactly', async () => {
    const z = ROWS.find((f) => f[0].toUpperCase() === 'Z' && f[17] === '55401')!
    const body = await full('/v1/tax/mn?zip=55401-0001')
    expect(body.meta.confidence).toBe('exact')
    expect(body.resolved_place.city?.geoid).toBe(`27${z[25]}`)
    expect(body.rows.map((r) => r.code)).toContain(z[30])
  })

  it('a +4 in no range falls back to the ZIP5 answer at its own confidence, with zip4_not_covered', async () => {
    const rows = fourRows('55025')
    const gap = String(Number(rows[1]![20]) + 1).padStart(4, '0')
    const zip5 = await simple('/v1/tax/mn?zip=55025')
    const body = await simple(`/v1/tax/mn?zip=55025-${gap}`)
    expect(warningOf(body.meta.warnings, 'zip4_not_covered')).toMatchObject({ zip4: gap })
    expect(body.meta.resolved_via).toBe('zip5')
    expect(body.meta.confidence).toBe(zip5.meta.confidence)
    expect(body.rate).toEqual(zip5.rate)
  })

  it('overlapping-plus4-ranges-with-different-codes: ambiguous, answered as the ZIP5 at medium, not a guess', async () => {
    const body = await simple(`/v1/tax/mn?zip=55049-${plus4(OVERLAPPED)}`)
    const ambiguous = warningOf(body.meta.warnings, 'zip4_ambiguous')
    expect(ambiguous.bindings.map((b: { county: string }) => b.county).sort()).toHaveLength(2)
    expect(body.meta.confidence).not.toBe('exact')
    expect(['medium', 'low']).toContain(body.meta.confidence)
    expect(body.meta.resolved_via).toBe('zip5')
  })

  it('boundary-district-without-rate-row: the binding answers, names the unrated district, and is low, never exact', async () => {
    const body = await simple(`/v1/tax/mn?zip=55079-${plus4(UNRATED_ROW)}`)
    expect(warningOf(body.meta.warnings, 'zip4_unrated_district')).toMatchObject({ districts: [UNRATED_CODE] })
    expect(body.meta.confidence).toBe('low')
    expect(body.meta.resolved_via).toBe('zip4')
  })

  it('an address with its ZIP+4 is answered by that ZIP+4', async () => {
    const body = await simple(`/v1/tax/mn?address=${encodeURIComponent(`100 Main St, Saint Paul, MN 55101-${plus4(DAKOTA)}`)}`)
    expect(body.meta.resolved_via).toBe('zip4')
    expect(body.meta.confidence).toBe('exact')
    expect(body.rate.county).toBe((await simple(`/v1/tax/mn?zip=55101-${plus4(DAKOTA)}`)).rate.county)
  })
})

describe('ZIP5 answers in a state with a boundary file', () => {
  it('lists the ZIP bindings as candidates with their +4 shares (basis boundary_share), without unplaced_jurisdictions', async () => {
    const rows = fourRows('55025')
    const width = (f: string[]) => Number(f[20]) - Number(f[18]) + 1
    const total = rows.reduce((sum, f) => sum + width(f), 0)
    const body = await full('/v1/tax/mn?zip=55025')
    const shares = Object.fromEntries(body.ambiguous_zip5.candidates.map((c) => [c.county_fips, c.weight]))
    for (const f of rows) expect(shares[`27${f[24]}`]).toBeCloseTo(width(f) / total, 4)
    expect(body.ambiguous_zip5.candidates.map((c) => c.basis)).toEqual(rows.map(() => 'boundary_share'))
    expect(codes(body.warnings)).not.toContain('unplaced_jurisdictions')
  })

  it('a ZIP the boundary file does not bind keeps the unplaced_jurisdictions warning', async () => {
    const unbound = [...snapshot.rates.entriesOfState('MN')].map((i) => snapshot.rates.entryAt(i)).find((e) => e.candidates.every((c) => c.basis !== 'boundary_share'))!
    const body = await simple(`/v1/tax/mn?zip=${unbound.zip}`)
    expect(codes(body.meta.warnings)).toContain('unplaced_jurisdictions')
    const bound = await simple('/v1/tax/mn?zip=55401')
    expect(codes(bound.meta.warnings)).not.toContain('unplaced_jurisdictions')
    expect(bound.meta.confidence).toBe('high')
  })
})
