// Every SST member's quirks (publisher-evidence.md A.4-A.6) read by the rules of its descriptor:
// each fixture is built from the documented row shapes, in the 9-column layout and date forms of the
// real GA/MN/WI files, and compiled against the real geography of the state.
import { zipSync } from 'fflate'
import { rm } from 'node:fs/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { extractMember } from '../pipeline/fetch/archive.ts'
import { compileSstState } from '../pipeline/feeds/sst/compile.ts'
import { decodeText } from '../pipeline/fetch/text-decoding.ts'
import { checkInvariants, defaultCombinedRate } from '../pipeline/run/validate-state.ts'
import type { Geography, GeoZip } from '../snapshot-contract/geography-model.ts'
import type { FeedResult } from '../snapshot-contract/model.ts'
import { RateIndex, writeRateIndex } from '../snapshot-contract/rate-index.ts'
import type { StateDescriptor } from '../sources/descriptor.ts'
import { stateByCode } from '../sources/index.ts'
import { sstReading } from '../sources/sst-reading.ts'
import { startFaultMirror, type FaultMirror } from './support/fault-mirror.ts'
import { heldDrops } from './support/held-drops.ts'
import { loadMiniGeography } from './support/mini-geography.ts'
import { pipelineSettings, runRefresh, tempDir } from './support/refresh-run.ts'

const STATES = ['KS', 'SD', 'NV', 'IA', 'WA', 'OK', 'TN', 'VT', 'WY', 'NE', 'NC', 'WV', 'AR']
const ON = '2026-11-01'
let geography: Geography

beforeAll(async () => {
  geography = await loadMiniGeography(STATES)
})

/** A rate row in the real files' layout: `13,00,121,0.03,0.03,0.03,0.03,20110101,29991231`. */
const row = (fips: string, type: string, code: string, rate: string, from = '20190101', to = '99991231', food = rate) =>
  [fips, type, code, rate, rate, food, food, from, to].join(',')

/**
 * Rate rows of one state, one `type code rate [from [to [food]]]` a line (defaults as in `row`), so
 * a fixture reads as the table of the file it stands for.
 */
const rateRows = (fips: string, table: string): string[] =>
  table
    .trim()
    .split('\n')
    .map((line) => {
      const [type, code, rate, from, to, food] = line.trim().split(/\s+/)
      return row(fips, type!, code!, rate!, from, to, food)
    })

/** `lines` with the row that starts `prefix` replaced: a fixture's variant with one rate changed. */
const replacing = (lines: string[], prefix: string, replacement: string) => lines.map((line) => (line.startsWith(prefix) ? replacement : line))

const descriptor = (state: string): StateDescriptor => stateByCode(state)!

/** A rate file compiled by the reading of its state's descriptor (the state: the file name's first two letters). */
function compile(name: string, lines: string[], boundaryFile?: { name: string; lines: string[] }): FeedResult {
  const state = name.slice(0, 2)
  const d = descriptor(state)
  const feed = d.feeds[0]
  if (feed.kind !== 'sst') throw new Error(`${state} prefers ${feed.kind}`)
  const rateFile = { name, text: lines.join('\r\n') + '\r\n' }
  return compileSstState({ state, stateName: d.name, rateFile, geography, ...(boundaryFile ? { boundaryFile } : {}), ...(feed.reading ? { reading: feed.reading } : {}) })
}

/** `compile`, with each ZIP's default combined rate. */
function read(name: string, lines: string[], boundaryFile?: { name: string; lines: string[] }) {
  const result = compile(name, lines, boundaryFile)
  return { result, rate: answers(name.slice(0, 2), result) }
}

const indexOf = (state: string, result: FeedResult) => new RateIndex(writeRateIndex({ states: [{ code: state, result }], zipMeta: () => undefined }))

/** The combined rate of each ZIP's default answer, and that no level is summed twice. */
function answers(state: string, result: FeedResult) {
  const index = indexOf(state, result)
  expect(checkInvariants(index, descriptor(state), ON).filter((v) => v.structural)).toEqual([])
  return (zip: string) => defaultCombinedRate(index, zip, state, ON)
}

/** Where a ZIP lies: inside a place (its GEOID), in none (null), or in any place but the one given (`not`). */
type PlaceFilter = string | null | { not: string }

const inPlace = (zip: GeoZip, place: PlaceFilter) =>
  place === null ? zip.places.length === 0 : typeof place === 'string' ? zip.places.some((p) => p.geoid === place) : !zip.places.some((p) => p.geoid === place.not)

/** In-state ZIPs wholly in one county (any county: null), placed as `place` says. */
const zipsIn = (state: string, countyFips: string | null, place: PlaceFilter): GeoZip[] =>
  [...geography.zips.values()].filter(
    (zip) => zip.state === state && zip.counties.length === 1 && (countyFips === null || zip.counties[0].fips === countyFips) && inPlace(zip, place),
  )

const firstZip = (state: string, countyFips: string | null, place: PlaceFilter): string => {
  const zips = zipsIn(state, countyFips, place)
  expect(zips.length, `${state} ZIPs in ${countyFips}/${JSON.stringify(place)}`).toBeGreaterThan(0)
  return zips[0].zip
}

/** County rows at one rate for every county of the state's geography (the files list them all). */
const everyCounty = (state: string, fips: string, rate: string) =>
  [...geography.counties.values()].filter((county) => county.state === state).map((county) => row(fips, '00', county.fips.slice(2), rate))

const stacksCarrying = (result: FeedResult, code: string) => result.candidates.filter((c) => c.stack.some((ref) => ref.code === code))

describe('SST members read by their own rules', () => {
  it('ks-type-79-undecoded: Kansas files with type-79 rows fail the state, naming the quirk', () => {
    const lines = rateRows(
      '20',
      `45 20    0.065  20150701 99991231 0.0
       00 173   0.01
       01 79000 0.01
       79 11KAN 0.0915
       79 AEATC 0.0865
       63 CID01 0.02`,
    )
    expect(() => compile('KSR2026Q4AUG19.csv', lines)).toThrow(/cannot be read safely, 2 type-79 rows \(e\.g\. 11KAN, AEATC\): type-79 rows .* not decoded/)
    // without them, the CID/TDD district is listed unplaced and never summed ZIP-wide
    const { result, rate } = read('KSR2026Q4AUG19.csv', lines.filter((line) => !line.startsWith('20,79,')))
    const wichita = firstZip('KS', '20173', '2079000')
    expect(rate(wichita)).toBe(8500)
    expect(stacksCarrying(result, 'CID01')).toEqual([])
    expect(result.unplaced.map((u) => u.code)).toContain('CID01')
  })

  it('sd-type-49-replaces-state-rate: a special jurisdiction row is never added on top of the state rate', () => {
    const lines = [
      row('46', '45', '46', '0.042', '20230701'),
      ...everyCounty('SD', '46', '0.0'),
      row('46', '01', '59020', '0.02'),
      row('46', '49', '00001', '0.042'),
      row('46', '49', '00002', '0.042'),
    ]
    const { result, rate } = read('SDR2026Q3JUN02.csv', lines)
    const siouxFalls = zipsIn('SD', '46099', '4659020').map((zip) => zip.zip)
    expect(siouxFalls.length).toBeGreaterThan(0)
    for (const zip of siouxFalls) expect(rate(zip)).toBe(6200)
    expect(rate(firstZip('SD', null, null))).toBe(4200)
    expect(stacksCarrying(result, '00001')).toEqual([])
    // not listed as a tax that may add either: it replaces
    expect(result.unplaced.map((u) => u.code)).not.toContain('00001')
    expect(result.notes.join('\n')).toMatch(/2 type-49 rows .* read as replaces-state: special jurisdiction \(tribal\) tax/)
    expect(result.notes.join('\n')).toMatch(/2 special jurisdictions replacing the state rate are bound to no ZIP/)
  })

  it('sd-type-49-replaces-state-rate, with a boundary file: a ZIP bound to the special jurisdiction carries it instead of the state rate', () => {
    const lines = [row('46', '45', '46', '0.042', '20230701'), ...everyCounty('SD', '46', '0.0'), row('46', '49', '00001', '0.042')]
    const [inArea, outside] = zipsIn('SD', null, null)
    // a Z record in the MN sample's layout: type, dates, ZIP range at 17/19, state 22-23, county 24, triplets from 29
    const zRecord = (zip: string, county: string, triplet: string[]) => {
      const fields = Array<string>(89).fill('')
      Object.assign(fields, { 0: 'Z', 1: '20230701', 2: '99991231', 17: zip, 19: zip, 22: '46', 23: '46', 24: county })
      triplet.forEach((value, i) => (fields[29 + i] = value))
      return fields.join(',')
    }
    const boundary = [zRecord(inArea.zip, inArea.counties[0].fips.slice(2), ['ST', '00001', '49']), zRecord(outside.zip, outside.counties[0].fips.slice(2), [])]
    const { result, rate } = read('SDR2026Q3JUN02.csv', lines, { name: 'SDB2026Q4SEP08.csv', lines: boundary })
    expect(rate(inArea.zip)).toBe(4200)
    expect(rate(outside.zip)).toBe(4200)
    expect(result.candidates.find((c) => c.zip === inArea.zip)?.stack.map((ref) => ref.level)).toEqual(['county', 'district'])
    expect(result.candidates.find((c) => c.zip === outside.zip)?.stack.map((ref) => ref.level)).toEqual(['state', 'county'])
  })

  it('nv-state-row-zero-county-carries-full-rate: 0% state row, single-digit county type, TID rows excluded', () => {
    const counties = [
      ['003', '0.08375'],
      ['031', '0.08265'],
      ['510', '0.076'],
    ]
    const lines = [row('32', '45', '32', '0.0', '20091001'), ...counties.map(([code, rate]) => row('32', '0', code, rate, '20240101')), row('32', '63', '32601', '0.08375', '20240101')]
    const { result, rate } = read('NVR2025Q4NOV05.csv', lines)
    expect(rate(firstZip('NV', '32003', null))).toBe(8375)
    expect(rate(firstZip('NV', '32031', null))).toBe(8265)
    expect(rate(firstZip('NV', '32510', { not: '' }))).toBe(7600)
    expect(result.jurisdictions.some((j) => j.code === '32601')).toBe(false)
    expect(result.unplaced.map((u) => u.code)).not.toContain('32601')
    expect(result.notes.join('\n')).toMatch(/1 type-63 rows .* read as excluded: Tourism Improvement District/)
    // the two-digit form of the county type (a conflicting source) reads the same
    const padded = compile('NVR2025Q4NOV05.csv', lines.map((line) => line.replace(/^32,0,/, '32,00,')))
    expect(padded.candidates).toEqual(result.candidates)
  })

  it('ia-lost-in-98xxx-rows: the 1% LOST binds to the county its code names, once per stack; 98199 names no county', () => {
    const lines = rateRows(
      '19',
      `45 19    0.06 20080701
       00 153   0.0
       00 181   0.0
       00 199   0.0
       01 21000 0.0
       63 98153 0.01 20090101
       63 98181 0.01 20090101
       63 98199 0.01 20090101`,
    )
    const { result, rate } = read('IAR2025Q3MAY30.csv', lines)
    expect(rate(firstZip('IA', '19153', '1921000'))).toBe(7000)
    expect(rate(firstZip('IA', '19181', null))).toBe(7000)
    // a ZIP spanning Polk and Warren: one LOST per county candidate, never both
    for (const candidate of result.candidates.filter((c) => c.countyFips === '19153' || c.countyFips === '19181')) {
      expect(candidate.stack.filter((ref) => ref.level === 'district')).toHaveLength(1)
    }
    expect(result.jurisdictions.some((j) => j.code === '98199')).toBe(false)
    expect(result.notes.join('\n')).toMatch(/codes 98199 name no county of the geography: kept out/)
    // a city tax beside the LOST would pass the 1% local cap: a layer counted twice fails the state
    const doubled = replacing(lines, '19,01,21000', row('19', '01', '21000', '0.01'))
    expect(() => compile('IAR2025Q3MAY30.csv', doubled)).toThrow(/sum to 0\.02000 .* above the IA local cap of 0\.01000: a layer would be counted twice/)
  })

  it('ia-lost-local-cap-on-a-zip4-binding: a Z record no +4 falls to still binds ZIP+4s on other days, so its stack is checked too', () => {
    // city 99990 is no place of the geography: only the boundary file can bind it
    const lines = rateRows('19', `45 19 0.06 20080701\n       00 153 0.0\n       01 99990 0.01\n       63 98153 0.01 20090101`)
    const zip = firstZip('IA', '19153', null)
    // Z and 4 records in the MN sample's layout: the 4 record lists every +4 of the ZIP (county only), the Z record binds city 99990
    const record = (type: string, from: string, county: string, place: string, plus4: [string, string] | null) => {
      const fields = Array<string>(89).fill('')
      Object.assign(fields, { 0: type, 1: from, 2: '99991231', 17: zip, 19: zip, 22: '19', 23: '19', 24: county, 25: place })
      if (plus4) Object.assign(fields, { 18: plus4[0], 20: plus4[1] })
      return fields.join(',')
    }
    const boundary = [record('4', '20260101', '153', '', ['0000', '9999']), record('Z', '20200101', '153', '99990', null)]
    // The ZIP answer weighs the Z record at 0 (every +4 is listed), yet before 2026 its ZIP+4s answer the city's 1% beside the LOST.
    expect(compile('IAR2025Q3MAY30.csv', lines, { name: 'IAB2025Q3MAY19.csv', lines: [boundary[0]!] }).plus4?.bindings).toHaveLength(1)
    expect(() => compile('IAR2025Q3MAY30.csv', lines, { name: 'IAB2025Q3MAY19.csv', lines: boundary })).toThrow(/local layers of ZIP\+4 binding 1 \(Polk\) sum to 0\.02000 .* above the IA local cap of 0\.01000/)
  })

  it('wa-county-codes-079-087-not-counties: read as special areas, alphanumeric L codes accepted, neither summed', () => {
    const lines = rateRows(
      '53',
      `45 53    0.065 20090401
       00 033   0.0
       01 63000 0.0385
       00 079   0.001
       00 087   0.003
       63 L1726 0.0385`,
    )
    const { result, rate } = read('WAR2026Q4AUG27.csv', lines)
    expect(rate(firstZip('WA', '53033', '5363000'))).toBe(10350)
    const special = result.unplaced.filter((u) => ['079', '087', 'L1726'].includes(u.code))
    expect(special.map((u) => u.level)).toEqual(['district', 'district', 'district'])
    expect(result.jurisdictions.filter((j) => j.level === 'county').map((j) => j.code)).toEqual(['033'])
  })

  it('ok-98xxx-composite-codes: composite city+county rows are excluded, never counted twice', () => {
    const lines = [
      '40,45,40,0.045,0.045,0.045,0.045,20240829,99991231',
      ...rateRows(
        '40',
        `00 143   0.00367
         01 75000 0.0365
         01 06400 0.0405
         01 99999 0.0355
         63 98193 0.04017`,
      ),
    ]
    const { result, rate } = read('OKR2026Q4AUG17.csv', lines)
    expect(rate(firstZip('OK', '40143', '4075000'))).toBe(8517)
    // one city appears under two codes (Bixby): only the code of its Census place binds it
    const bixby = result.candidates.filter((c) => c.placeFips === '4006400' && c.countyFips === '40143')
    expect(bixby.length).toBeGreaterThan(0)
    for (const candidate of bixby) expect(candidate.stack.map((ref) => ref.code)).toEqual(['40', '143', '06400'])
    expect(stacksCarrying(result, '99999')).toEqual([])
    expect(result.jurisdictions.some((j) => j.code === '98193')).toBe(false)
    expect(result.notes.join('\n')).toMatch(/1 type-63 rows coded 98\\d\{3\} .* read as excluded: composite city\+county/)
  })

  it('tn-type-63-folded-into-city-rates: 63 excluded, the city rate folds the county rate, 79 transit adds', () => {
    const lines = rateRows(
      '47',
      `45 47    0.07   20020801
       0  179   0.025
       1  38320 0.025
       63 38320 0.025
       0  037   0.0225
       79 99037 0.005  20250201`,
    )
    const { result, rate } = read('TNR2026Q4AUG21.csv', lines)
    expect(rate(firstZip('TN', '47179', '4738320'))).toBe(9500)
    expect(rate(firstZip('TN', '47179', null))).toBe(9500)
    expect(result.jurisdictions.filter((j) => j.level === 'district').map((j) => j.code)).toEqual(['99037'])
    expect(result.unplaced.map((u) => u.code)).toContain('99037')
    // a city rate below its county's does not fold it: the county layer would go missing
    const unfolded = replacing(lines, '47,1,38320', row('47', '1', '38320', '0.005'))
    expect(() => compile('TNR2026Q4AUG21.csv', unfolded)).toThrow(/city 38320 at 0\.00500 .* below county 179 at 0\.02500/)
    // a local rate above the 2.75% cap means a layer is counted twice: the state fails
    const capped = replacing(replacing(lines, '47,0,179', row('47', '0', '179', '0.03')), '47,1,38320', row('47', '1', '38320', '0.03'))
    expect(() => compile('TNR2026Q4AUG21.csv', capped)).toThrow(/above the TN local cap of 0\.02750/)
  })

  it('vt-bom-and-type-02-local-option: a BOM (also inside a ZIP member) is stripped; 01 and 02 read as one layer', () => {
    const lines = [row('50', '45', '50', '0.06', '20060101'), row('50', '01', '10675', '0.01', '20080701', '99991231', '')]
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(lines.join('\r\n') + '\r\n')])
    const member = extractMember(Buffer.from(zipSync({ 'VTR2026Q4AUG20.csv': new Uint8Array(bytes) })), 'VTR2026Q4AUG20.zip')
    for (const text of [decodeText(bytes, 'VTR2026Q4AUG20.csv'), decodeText(member.bytes, `VTR2026Q4AUG20.zip:${member.member}`)]) {
      const { result, rate } = read('VTR2026Q4AUG20.csv', text.split('\r\n').filter(Boolean))
      expect(rate(firstZip('VT', '50007', '5010675'))).toBe(7000)
      // a blank food cell stays blank, never a 0 general rate
      expect(result.jurisdictions.find((j) => j.code === '10675')?.rate).toBe(1000)
    }
    const as02 = read('VTR2026Q4AUG20.csv', [...lines, row('50', '02', '10675', '0.01', '20080701', '99991231', '')])
    expect(as02.rate(firstZip('VT', '50007', '5010675'))).toBe(7000)
    expect(as02.result.notes.join('\n')).toMatch(/type-02 rows .* read as city: the town's 1% local option/)
    // a general rate left blank rejects the row rather than reading 0 (here, a third of the file: refused)
    expect(() => compile('VTR2026Q4AUG20.csv', [...lines, '50,01,10675,,,,,20080701,99991231'])).toThrow(/line 3: generalIntra: not a decimal rate: ""/)
  })

  it('wy-type-69-undecoded: Wyoming files with type-69 rows fail the state; dated county rows alone read', () => {
    const lines = rateRows(
      '56',
      `45 56    0.04 20080101 29991231
       00 025   0.01 20100101 20221231
       00 025   0.01 20230101 29991231
       00 021   0.01 20100101 29991231
       69 02290 0.02
       69 02291 0.02`,
    )
    expect(() => compile('WYR2026Q4AUG20.CSV', lines)).toThrow(/cannot be read safely, 2 type-69 rows \(e\.g\. 02290, 02291\): .* possibly Wind River/)
    const { rate } = read('WYR2026Q4AUG20.CSV', lines.slice(0, 4))
    expect(rate(firstZip('WY', '56021', null))).toBe(5000)
  })

  it('ar-type-69-undecoded: Arkansas type-69 rows fail the state, naming the quirk', () => {
    expect(() => compile('ARR2026Q4AUG28.csv', [row('05', '45', '05', '0.065', '20130701'), row('05', '69', '00001', '0.01')])).toThrow(/type-69 special rows, whose meaning no source documents/)
  })

  it('ne-county-tax-outside-taxing-cities: the Dakota County row yields to a city that levies its own; GL codes accepted', () => {
    const lines = [row('31', '45', '31', '0.055', '20021001'), row('31', '00', '043', '0.005'), row('31', '01', '46030', '0.02'), row('31', '63', 'GL801', '0.005')]
    const { result, rate } = read('NER2026Q4AUG21.csv', lines)
    expect(rate(firstZip('NE', '31043', '3146030'))).toBe(7500)
    expect(rate(firstZip('NE', '31043', { not: '3146030' }))).toBe(6000)
    expect(result.unplaced.map((u) => u.code)).toContain('GL801')
  })

  it('nc-99xxx-transit-type-79: transit rows read as districts, listed unplaced, never summed ZIP-wide', () => {
    const lines = [row('37', '45', '37', '0.0475', '20131001'), row('37', '0', '063', '0.02'), row('37', '79', '99063', '0.005')]
    const { result, rate } = read('NCR2026Q3APR23.csv', lines)
    expect(rate(firstZip('NC', '37063', null))).toBe(6750)
    expect(stacksCarrying(result, '99063')).toEqual([])
    expect(result.unplaced.find((u) => u.code === '99063')?.level).toBe('district')
  })

  it('wv-no-county-rows: a state and city file answers the state rate outside cities, never zero', () => {
    const lines = [row('54', '45', '54', '0.06', '20030101'), row('54', '01', '14600', '0.01', '20200701')]
    const { result, rate } = read('WVR2026Q3FEB25.csv', lines)
    expect(rate(firstZip('WV', '54039', '5414600'))).toBe(7000)
    expect(rate(firstZip('WV', '54039', null))).toBe(6000)
  })

  it('a reading that excludes, replaces, binds by county or calls rows undecoded must quote its evidence', () => {
    expect(() => sstReading([{ type: '79', read: 'undecoded' }])).toThrow(/needs its evidence/)
    expect(() => sstReading([{ type: '63', codes: '98\\d{3}', read: 'county-district', why: 'LOST' }])).toThrow(/first group is the county FIPS/)
    expect(sstReading([{ type: '63', codes: '98(\\d{3})', read: 'county-district', why: 'LOST' }]).rules).toHaveLength(5)
  })

  it('all 24 members prefer the SST feed', () => {
    const members = ['AR', 'GA', 'IN', 'IA', 'KS', 'KY', 'MI', 'MN', 'NE', 'NV', 'NJ', 'NC', 'ND', 'OH', 'OK', 'RI', 'SD', 'TN', 'UT', 'VT', 'WA', 'WV', 'WI', 'WY']
    for (const state of members) expect(descriptor(state).feeds[0].kind, state).toBe('sst')
  })
})

describe('an SST file that cannot be read safely, in a refresh through the HTTP mirror', () => {
  let mirror: FaultMirror
  let artifacts: string
  beforeAll(async () => {
    mirror = await startFaultMirror()
    artifacts = await tempDir('artifacts')
  })
  afterAll(async () => {
    await mirror.close()
    await rm(artifacts, { recursive: true, force: true })
  })

  it('ks-type-79-undecoded and wy-type-69-undecoded: the SST feed fails naming the quirk, the Avalara drop serves', async () => {
    const ks = [row('20', '45', '20', '0.065', '20150701', '99991231', '0.0'), row('20', '00', '173', '0.01'), row('20', '79', '11KAN', '0.0915')]
    const wy = [row('56', '45', '56', '0.04', '20080101', '29991231'), row('56', '00', '025', '0.01'), row('56', '69', '02290', '0.02')]
    mirror.files.set('/sst/KSR2026Q4AUG19.csv', Buffer.from(ks.join('\r\n') + '\r\n'))
    mirror.files.set('/sst/WYR2026Q4AUG20.CSV', Buffer.from(wy.join('\r\n') + '\r\n'))
    const build = await tempDir('build')
    try {
      const { manifest } = await runRefresh(pipelineSettings({ mirror: mirror.url, artifacts, build, drops: await heldDrops('KS,WY'), states: 'KS,WY' }))
      for (const [code, quirk] of [
        ['KS', /1 type-79 rows \(e\.g\. 11KAN\): type-79 rows .* not decoded/],
        ['WY', /1 type-69 rows \(e\.g\. 02290\): .* possibly Wind River/],
      ] as const) {
        const record = manifest!.states.find((s) => s.code === code)!
        expect(record.feed, code).toBe('avalara-zip5')
        expect(record.feeds_tried[0]).toMatchObject({ feed: 'sst', outcome: 'failed' })
        expect(record.feeds_tried[0].message).toMatch(quirk)
        expect(record.fallback_reason).toMatch(/^sst failed: .*cannot be read safely/)
        expect(record.zips).toBeGreaterThan(0)
      }
    } finally {
      await rm(build, { recursive: true, force: true })
    }
  })
})
