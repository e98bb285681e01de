// Minnesota's district taxes (type 63) placed without a boundary file from the sourced facts table
// (sources/mn-district-areas.ts), and from a boundary file's records when one is listed. Rates and
// first days are read from the real rate file in the test.
import { copyFile, mkdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { readFileSync } from 'node:fs'
import { beforeAll, describe, expect, it } from 'vitest'
import { extractMember } from '../pipeline/fetch/archive.ts'
import { compileSstState } from '../pipeline/feeds/sst/compile.ts'
import { loadFeed } from '../pipeline/run/load-state.ts'
import { Listings } from '../pipeline/fetch/source-listing.ts'
import { decodeText } from '../pipeline/fetch/text-decoding.ts'
import type { Geography } from '../snapshot-contract/geography-model.ts'
import type { FeedResult } from '../snapshot-contract/model.ts'
import { RateIndex, writeRateIndex } from '../snapshot-contract/rate-index.ts'
import { SST_BOUNDARY_URL } from '../sources/descriptor.ts'
import { defineDistrictAreas, type DistrictAreaTable } from '../sources/district-area.ts'
import { districtAreasOf } from '../sources/district-areas.ts'
import { stateByCode } from '../sources/index.ts'
import { loadMiniGeography } from './support/mini-geography.ts'
import { pipelineSettings } from './support/refresh-run.ts'
import { sharedPath } from './support/shared.ts'
import { tempDir } from './support/temp-dirs.ts'

const MN_ZIP = 'MNR2026Q2FEB18.zip'
const member = extractMember(readFileSync(sharedPath('mirror/sst', MN_ZIP)), MN_ZIP)
const MN = { name: MN_ZIP, text: decodeText(member.bytes, member.member) }
const ROWS = MN.text.split(/\r?\n/).filter((l) => l !== '').map((l) => l.split(','))
const rateOf = (type: string, code: string) => {
  const row = ROWS.find((f) => f[1] === type && f[2] === code && f[8] === '29991231')!
  return Math.round(Number(row[3]) * 100_000)
}
const TABLE = districtAreasOf('MN')!

let geography: Geography
const compile = (districtAreas: DistrictAreaTable | undefined = TABLE) =>
  compileSstState({ state: 'MN', stateName: 'Minnesota', rateFile: MN, geography, ...(districtAreas ? { districtAreas } : {}) })
const indexOf = (result: FeedResult) => new RateIndex(writeRateIndex({ states: [{ code: 'MN', result }], zipMeta: () => undefined }))
const stackOf = (result: FeedResult, zip: string) => result.candidates.filter((c) => c.zip === zip && c.weight > 0.5).map((c) => c.stack.map((r) => `${r.level}:${r.code}`))

beforeAll(async () => {
  geography = await loadMiniGeography(['MN'])
})

describe('district taxes bound by the sourced facts table', () => {
  it('every fact row cites its source; the regional taxes cover the seven metro counties', () => {
    for (const area of TABLE.areas) expect(area.citation.length).toBeGreaterThan(20)
    expect(TABLE.areas.find((a) => a.rate === '0.00750')!.counties).toEqual(['Anoka', 'Carver', 'Dakota', 'Hennepin', 'Ramsey', 'Scott', 'Washington'])
  })

  it('Minneapolis 55401 = state + Hennepin + Minneapolis + county transportation + regional transportation + housing = 9.025%', () => {
    const result = compile()
    expect(stackOf(result, '55401')).toEqual([['state:27', 'county:053', 'district:80004', 'district:80008', 'district:80009', 'city:43000']])
    const expected = rateOf('45', '27') + rateOf('00', '053') + rateOf('01', '43000') + rateOf('63', '80004') + rateOf('63', '80008') + rateOf('63', '80009')
    expect(expected).toBe(9025)
    const entry = indexOf(result).lookupZip('55401')[0]!
    expect(indexOf(result).combinedRate(entry.candidates[0]!.stack, '2026-04-01')).toBe(expected)
    for (const code of ['80004', '80008', '80009']) expect(result.unplaced.some((u) => u.code === code), code).toBe(false)
  })

  it('a county whose own county row carries the tax (Ramsey 123: 0.5% from 2017-10-01) does not get the district on top: St. Paul 9.875%', () => {
    const ramsey = ROWS.find((f) => f[1] === '00' && f[2] === '123')!
    const transit = ROWS.find((f) => f[1] === '63' && f[2] === '80004')!
    expect([ramsey[3], ramsey[7]]).toEqual([transit[3], transit[7]])
    const result = compile()
    expect(stackOf(result, '55101')).toEqual([['state:27', 'county:123', 'district:80008', 'district:80009', 'city:58000']])
    expect(result.notes.some((n) => n.startsWith('district 80004 bound to 1 counties') && n.includes('not added in 27123'))).toBe(true)
  })

  it('a county outside the metro area gets none; codes no fact matches stay unplaced and disclosed', () => {
    const result = compile()
    expect(stackOf(result, '56139')).toEqual([['state:27']])
    const unmatched = [...new Set(ROWS.filter((f) => f[1] === '63').map((f) => f[2]!))].filter((c) => !['80004', '80008', '80009'].includes(c))
    expect(result.unplaced.filter((u) => u.level === 'district').map((u) => u.code).sort()).toEqual(unmatched.sort())
  })

  it('a place with no ZIP of its own in a metro county keeps the districts in its stack', () => {
    const result = compile()
    for (const stack of result.placeStacks ?? []) {
      const metro = ['27003', '27019', '27037', '27053', '27123', '27139', '27163'].includes(stack.countyFips)
      expect(stack.stack.some((r) => r.code === '80008'), stack.placeName).toBe(metro)
    }
  })

  it('a fact row whose county is unknown binds nothing and says so; its code stays unplaced', () => {
    const table = defineDistrictAreas({ ...TABLE, areas: TABLE.areas.map((a) => (a.rate === '0.00250' ? { ...a, counties: [...a.counties.slice(1), 'Hennepinn'] } : a)) })
    const result = compile(table)
    expect(result.notes).toContain(`${TABLE.source}: "Metropolitan-area housing sales tax" names "Hennepinn", no MN county in the geography; the row binds nothing`)
    expect(stackOf(result, '55401')[0]).not.toContain('district:80009')
    expect(result.unplaced.find((u) => u.code === '80009')?.reason).toBe('no boundary file: district cannot be bound to ZIPs')
  })

  it('two codes matching one fact bind neither (a rate and first day must name one tax)', () => {
    const housing = TABLE.areas.find((a) => a.rate === '0.00250')!
    const rates = { ...MN, text: MN.text.replace(/^27,63,80013,0\.0025,0\.0025,0\.0025,0\.0025,20250401,/m, `27,63,80013,0.0025,0.0025,0.0025,0.0025,${housing.firstDay.replaceAll('-', '')},`) }
    expect(rates.text).not.toBe(MN.text)
    const result = compileSstState({ state: 'MN', stateName: 'Minnesota', rateFile: rates, geography, districtAreas: TABLE })
    expect(result.notes).toContain(`district 80009 and 80013 all match "${housing.tax}" in ${TABLE.source}; none bound`)
    expect(stackOf(result, '55401')[0]).not.toContain('district:80009')
  })
})

describe('with a boundary file, its records bind the districts', () => {
  const sampleLines = () => decodeText(readFileSync(sharedPath('fixtures/sst/MNB2026Q2FEB18-sample.csv')), 'sample').split('\n').filter((l) => l !== '')
  const reopen = (line: string) => line.replace(/^([^,]*,[^,]*,)20190331,/, '$129991231,')

  it('P6 a ZIP only address rows bind takes its districts from them, weighed by range count', () => {
    // 55401's Z row, rewritten as two address ranges of that ZIP (field 16 is an address row's ZIP)
    const lines = sampleLines().map(reopen)
    const at = lines.findIndex((l) => l.split(',')[17] === '55401')
    const fields = lines[at]!.split(',')
    const addressRow = (low: string, high: string) => {
      const a = [...fields]
      a[0] = 'A'
      a.splice(3, 3, low, high, 'B')
      a[7] = 'MARQUETTE'
      a[15] = '55401'
      a.splice(17, 4, '', '', '', '')
      return a.join(',')
    }
    lines.splice(at, 1, addressRow('200', '298'), addressRow('300', '398'))
    const result = compileSstState({ state: 'MN', stateName: 'Minnesota', rateFile: MN, geography, boundaryFile: { name: 'MNB2026Q2FEB18.csv', lines } })
    expect(result.candidates.filter((c) => c.zip === '55401').map((c) => [c.stack.map((r) => `${r.level}:${r.code}`), c.weight])).toEqual([
      [['state:27', 'county:053', 'city:43000', 'district:80004'], 1],
    ])
    expect(result.notes).toContain('MNB2026Q2FEB18.csv: 0 rows ended before 2026-04-01, 2 current address rows (binding the ZIPs no Z or 4 row binds), 0 rows for another state')
  })

  it('a boundary file listed for MN is discovered and fetched, and its Z row binds 55401 to 80004; the facts table is not used', async () => {
    // The sample's rows all ended in 2019 (P12); reopened, they are a current boundary file made of real rows.
    const sample = decodeText(readFileSync(sharedPath('fixtures/sst/MNB2026Q2FEB18-sample.csv')), 'sample')
    const reopened = sample.replace(/^([^,]*,[^,]*,)20190331,/gm, '$129991231,')
    const mirror = await tempDir('boundary-mirror')
    await mkdir(path.join(mirror, 'sst'))
    await copyFile(sharedPath('mirror/sst', MN_ZIP), path.join(mirror, 'sst', MN_ZIP))
    await writeFile(path.join(mirror, 'sst', 'MNB2026Q2FEB18.csv'), reopened)
    const mn = stateByCode('MN')!
    const sst = mn.feeds[0]!
    if (sst.kind !== 'sst') throw new Error('MN prefers the SST feed')
    const settings = pipelineSettings({ mirror, artifacts: await tempDir('art'), build: await tempDir('build'), drops: await tempDir('no-drops') })
    const result = await loadFeed(mn, { ...sst, boundaryUrl: SST_BOUNDARY_URL }, { settings, geography, listings: new Listings(settings) })
    expect(result.files.map((f) => f.name)).toEqual([MN_ZIP, 'MNB2026Q2FEB18.csv'])
    expect(stackOf(result, '55401')).toEqual([['state:27', 'county:053', 'city:43000', 'district:80004']])
    expect(result.notes.some((n) => n.includes('bound to') && n.includes('counties by'))).toBe(false)
  })
})
