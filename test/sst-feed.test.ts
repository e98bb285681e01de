import { readFileSync } from 'node:fs'
import Papa from 'papaparse'
import { beforeAll, describe, expect, it } from 'vitest'
import { extractMember } from '../pipeline/fetch/archive.ts'
import { compileSstState, compileSstStateStreaming } from '../pipeline/feeds/sst/compile.ts'
import type { Geography } from '../snapshot-contract/geography-model.ts'
import { JurisdictionRate, ZipCandidate, type FeedResult } from '../snapshot-contract/model.ts'
import { decodeText } from '../pipeline/fetch/text-decoding.ts'
import { sstReading } from '../sources/sst-reading.ts'
import { loadMiniGeography } from './support/mini-geography.ts'
import { sharedPath } from './support/shared.ts'

const GA = { name: 'GAR2026Q2FEB19.csv', text: decodeText(readFileSync(sharedPath('mirror/sst/GAR2026Q2FEB19.csv')), 'GAR2026Q2FEB19.csv') }
const WI = { name: 'WIR2026Q2FEB18.csv', text: decodeText(readFileSync(sharedPath('mirror/sst/WIR2026Q2FEB18.csv')), 'WIR2026Q2FEB18.csv') }
const MN_MEMBER = extractMember(readFileSync(sharedPath('mirror/sst/MNR2026Q2FEB18.zip')), 'MNR2026Q2FEB18.zip')
const MN = { name: 'MNR2026Q2FEB18.zip', text: decodeText(MN_MEMBER.bytes, MN_MEMBER.member) }
const BOUNDARY_NAME = 'MNB2026Q2FEB18-sample.csv'
const BOUNDARY_LINES = decodeText(readFileSync(sharedPath('fixtures/sst', BOUNDARY_NAME)), BOUNDARY_NAME).split('\n').filter((l) => l !== '')

const fieldsOf = (text: string) => text.split(/\r?\n/).filter((line) => line !== '').map((line) => line.split(','))
const isoOf = (yyyymmdd: string) => `${yyyymmdd.slice(0, 4)}-${yyyymmdd.slice(4, 6)}-${yyyymmdd.slice(6)}`
/** The sample's rows all ended in 2019; reopening them makes a current boundary file from real rows. */
const reopened = (lines: string[]) => lines.map((line) => line.replace(/^([^,]*,[^,]*,)20190331,/, '$129991231,'))

let geography: Geography

beforeAll(async () => {
  geography = await loadMiniGeography(['GA', 'WI', 'MN', 'IA'])
})

function expectWellFormed(result: FeedResult) {
  for (const jurisdiction of result.jurisdictions) JurisdictionRate.parse(jurisdiction)
  const weightByZip = new Map<string, number>()
  for (const candidate of result.candidates) {
    ZipCandidate.parse(candidate)
    weightByZip.set(candidate.zip, (weightByZip.get(candidate.zip) ?? 0) + candidate.weight)
    // Never two authorities of one level in one stack (pitfall P24).
    const levels = candidate.stack.filter((ref) => ref.level !== 'district').map((ref) => ref.level)
    expect(new Set(levels).size).toBe(levels.length)
  }
  for (const [zip, total] of weightByZip) expect(total, zip).toBeCloseTo(1, 9)
}

const candidatesOf = (result: FeedResult, zip: string) => result.candidates.filter((c) => c.zip === zip)
const stackOf = (result: FeedResult, zip: string) => candidatesOf(result, zip).map((c) => c.stack.map((ref) => `${ref.level}:${ref.code}`))

describe('SST feed without a boundary file', () => {
  it('GA: state row 0.04 → 4000 open-ended; every row kept with its window; edition and effectiveThrough from the file', () => {
    const result = compileSstState({ state: 'GA', stateName: 'Georgia', rateFile: GA, geography })
    expectWellFormed(result)
    const fields = fieldsOf(GA.text)
    const stateLine = fields.find((f) => f[1] === '45')!
    expect(stateLine.slice(3, 5)).toEqual(['0.04', '0.04'])
    expect(stateLine[8]).toBe('29991231')
    expect(result.jurisdictions.filter((j) => j.level === 'state')).toEqual([
      { state: 'GA', level: 'state', code: '13', name: 'Georgia', rate: 4000, from: isoOf(stateLine[7]), to: null, source: GA.name },
    ])
    expect(result.jurisdictions).toHaveLength(fields.length)
    expect(result.jurisdictions.filter((j) => j.to !== null)).toHaveLength(fields.filter((f) => f[8] !== '29991231').length)
    expect(result.edition).toBe('2026Q2FEB19')
    expect(result.effectiveThrough).toBe(isoOf(fields.map((f) => f[7]).sort().at(-1)!))
    expect(result.effectiveDateBasis).toBe('publisher_effective_date')
    expect([result.rowsRead, result.rowsParsed]).toEqual([fields.length, fields.length])
  })

  it('GA: a Fulton ZIP stacks state + Fulton county (code 121, named from geography); Atlanta ZIPs add the city', () => {
    const result = compileSstState({ state: 'GA', stateName: 'Georgia', rateFile: GA, geography })
    expect(fieldsOf(GA.text).some((f) => f[1] === '00' && f[2] === '121')).toBe(true)
    expect(result.jurisdictions.find((j) => j.level === 'county' && j.code === '121')?.name).toBe('Fulton')
    const fultonOnly = [...geography.zips.values()].filter((z) => z.state === 'GA' && z.counties.length === 1 && z.counties[0].fips === '13121')
    const unincorporated = fultonOnly.find((z) => z.places.length === 0)
    const atlanta = fultonOnly.find((z) => z.places.some((p) => p.geoid === '1304000'))
    expect(unincorporated && atlanta).toBeTruthy()
    expect(stackOf(result, unincorporated!.zip)).toEqual([['state:13', 'county:121']])
    expect(stackOf(result, atlanta!.zip)).toEqual([['state:13', 'county:121', 'city:04000']])
    expect(candidatesOf(result, atlanta!.zip)[0]).toMatchObject({ countyFips: '13121', countyName: 'Fulton', placeFips: '1304000', placeName: 'Atlanta', weight: 1 })
  })

  it('GA: a ZIP spanning counties gets one candidate per county, weighted by HUD address share', () => {
    const result = compileSstState({ state: 'GA', stateName: 'Georgia', rateFile: GA, geography })
    const split = [...geography.zips.values()].find((z) => z.state === 'GA' && z.counties.length === 2 && z.counties.every((c) => c.weight > 0.1))!
    const candidates = candidatesOf(result, split.zip)
    expect(candidates.map((c) => c.countyFips).sort()).toEqual(split.counties.map((c) => c.fips).sort())
    const total = split.counties[0].weight + split.counties[1].weight
    const first = candidates.filter((c) => c.countyFips === split.counties[0].fips).reduce((sum, c) => sum + c.weight, 0)
    expect(first).toBeCloseTo(split.counties[0].weight / total, 9)
  })

  it('WI: 1,852 of 1,853 type-01 rows are 0 rates, and all are kept as jurisdictions', () => {
    const cityLines = fieldsOf(WI.text).filter((f) => f[1] === '01')
    const zeroLines = cityLines.filter((f) => Number(f[3]) === 0)
    expect([cityLines.length, zeroLines.length]).toEqual([1853, 1852])
    const result = compileSstState({ state: 'WI', stateName: 'Wisconsin', rateFile: WI, geography })
    expectWellFormed(result)
    const cities = result.jurisdictions.filter((j) => j.level === 'city')
    expect(cities).toHaveLength(1853)
    expect(cities.filter((j) => j.rate === 0)).toHaveLength(1852)
    const taxing = cityLines.find((f) => Number(f[3]) !== 0)!
    expect(cities.find((j) => j.rate !== 0)).toMatchObject({ code: taxing[2], rate: 2000, name: 'Milwaukee' })
    expect(stackOf(result, '53202')).toEqual([['state:55', 'county:079', 'city:53000']])
  })

  it("WI: county 078's 0% row ends on the day its 0.5% row starts: both kept, the later start serves that day, with a note (not a contradiction)", () => {
    const rows = fieldsOf(WI.text).filter((f) => f[1] === '00' && f[2] === '078')
    expect(rows.map((f) => [f[3], f[7], f[8]])).toEqual([['0.0', '19800101', '20200331'], ['0.005', '20200331', '99991231']])
    const result = compileSstState({ state: 'WI', stateName: 'Wisconsin', rateFile: WI, geography })
    expect(result.jurisdictions.filter((j) => j.level === 'county' && j.code === '078').map((j) => [j.rate, j.from, j.to])).toEqual([
      [0, '1980-01-01', '2020-03-31'],
      [500, '2020-03-31', null],
    ])
    expect(result.notes.join(' ')).toMatch(/line \d+ ends on 2020-03-31, the day line \d+ starts; the later row's rate is served on that day/)
  })

  it('MN: districts are reported unplaced, never summed into stacks', () => {
    const result = compileSstState({ state: 'MN', stateName: 'Minnesota', rateFile: MN, geography })
    expectWellFormed(result)
    const districtCodes = [...new Set(fieldsOf(MN.text).filter((f) => f[1] === '63').map((f) => f[2]))]
    expect(districtCodes.length).toBeGreaterThan(0)
    const unplacedDistricts = result.unplaced.filter((u) => u.level === 'district')
    expect(unplacedDistricts.map((u) => u.code).sort()).toEqual(districtCodes.sort())
    for (const district of unplacedDistricts) {
      expect(district).toMatchObject({ reason: 'no boundary file: district cannot be bound to ZIPs', name: `District ${district.code}` })
    }
    expect(result.candidates.some((c) => c.stack.some((ref) => ref.level === 'district'))).toBe(false)
  })

  it('MN: a city no ZIP is bound to keeps its own stack in each of its counties, its tax still listed unplaced for ZIP answers', () => {
    const result = compileSstState({ state: 'MN', stateName: 'Minnesota', rateFile: MN, geography })
    const unboundCities = result.unplaced.filter((u) => u.level === 'city' && geography.places.get(`27${u.code}`)?.kind === 'incorporated')
    expect(unboundCities.length).toBeGreaterThan(0)
    const stacks = result.placeStacks ?? []
    expect(new Set(stacks.map((p) => p.placeFips))).toEqual(new Set(unboundCities.map((u) => `27${u.code}`)))
    // North Mankato lies in Nicollet and Blue Earth counties: one stack in each, with its own city row.
    const northMankato = geography.places.get('2747068')!
    expect(northMankato.name).toBe('North Mankato')
    const own = stacks.filter((p) => p.placeFips === northMankato.geoid)
    expect(own.map((p) => p.countyFips).sort()).toEqual(northMankato.counties.map((c) => c.fips).sort())
    for (const { countyFips, stack } of own) {
      expect(stack).toEqual([{ level: 'state', code: '27' }, { level: 'county', code: countyFips.slice(2) }, { level: 'city', code: '47068' }])
    }
    expect(fieldsOf(MN.text).some((f) => f[1] === '01' && f[2] === '47068' && Number(f[3]) > 0)).toBe(true)
    // A place some ZIP is bound to has no stack of its own.
    const bound = new Set(result.candidates.map((c) => c.placeFips))
    expect(stacks.some((p) => bound.has(p.placeFips))).toBe(false)
  })

  it("MN: one answer set per ZIP HUD puts in MN, and none for another state's ZIPs", () => {
    const hud = Papa.parse<{ ZIP: string; USPS_ZIP_PREF_STATE: string }>(readFileSync(sharedPath('geo/hud/ZIP_COUNTY_032023.csv'), 'utf8'), { header: true, skipEmptyLines: true }).data
    const hudMn = new Set(hud.filter((row) => row.USPS_ZIP_PREF_STATE === 'MN').map((row) => row.ZIP))
    const result = compileSstState({ state: 'MN', stateName: 'Minnesota', rateFile: MN, geography })
    const zips = new Set(result.candidates.map((c) => c.zip))
    expect(zips.size).toBe(hudMn.size)
    expect([...zips].every((zip) => hudMn.has(zip))).toBe(true)
  })

  it('P13 an unknown type code fails the build; a per-state reading accepts it', () => {
    const lines = GA.text.split('\n')
    const district = lines.findIndex((line) => line.startsWith('13,63,'))
    lines[district] = lines[district].replace('13,63,', '13,79,')
    const rateFile = { name: GA.name, text: lines.join('\n') }
    expect(() => compileSstState({ state: 'GA', stateName: 'Georgia', rateFile, geography })).toThrow(`unknown jurisdiction type codes 79×1 (lines ${district + 1})`)
    const reading = sstReading([{ type: '79', read: 'district' }])
    const result = compileSstState({ state: 'GA', stateName: 'Georgia', rateFile, geography, reading })
    expect(result.jurisdictions.filter((j) => j.level === 'district')).toHaveLength(fieldsOf(GA.text).filter((f) => f[1] === '63').length)
  })

  it('refuses a rate file for another state or with an unhealthy layout', () => {
    expect(() => compileSstState({ state: 'GA', stateName: 'Georgia', rateFile: { name: GA.name, text: WI.text }, geography })).toThrow(/55.*13|13.*55/)
    expect(() => compileSstState({ state: 'MN', stateName: 'Minnesota', rateFile: GA, geography })).toThrow(/not an SST rate file name for MN/)
    const tenColumns = MN.text.replace(/\r\n/g, ',0\r\n')
    expect(() => compileSstState({ state: 'MN', stateName: 'Minnesota', rateFile: { name: MN.name, text: tenColumns }, geography })).toThrow(/10 fields/)
  })
})

describe('SST feed with a boundary file (real MN sample rows)', () => {
  const compileMn = (lines: string[]) =>
    compileSstState({ state: 'MN', stateName: 'Minnesota', rateFile: MN, geography, boundaryFile: { name: BOUNDARY_NAME, lines } })

  it('P12 the sample as published is all expired: nothing binds, every ZIP falls back to geography', () => {
    const result = compileMn(BOUNDARY_LINES)
    expectWellFormed(result)
    expect(result.notes).toContain(`${BOUNDARY_NAME}: 100 rows ended before 2026-04-01, 0 current address rows (binding the ZIPs no Z or 4 row binds), 0 rows for another state`)
    expect(result.candidates).toEqual(compileSstState({ state: 'MN', stateName: 'Minnesota', rateFile: MN, geography }).candidates)
    expect(result.rowsRead).toBe(fieldsOf(MN.text).length + 100)
  })

  it('binds Minneapolis ZIPs to state + Hennepin + Minneapolis + district 80004 from the Z row', () => {
    const result = compileMn(reopened(BOUNDARY_LINES))
    expectWellFormed(result)
    const row = BOUNDARY_LINES.map((l) => l.split(',')).find((f) => f[17] === '55401')!
    expect([row[24], row[25], row.slice(29, 32)]).toEqual(['053', '43000', ['ST', '80004', '63']])
    expect(stackOf(result, '55401')).toEqual([['state:27', 'county:053', 'city:43000', 'district:80004']])
    expect(candidatesOf(result, '55401')[0]).toMatchObject({ countyFips: '27053', countyName: 'Hennepin', placeFips: '2743000', placeName: 'Minneapolis', weight: 1 })
    expect(result.unplaced.some((u) => u.code === '80004')).toBe(false)
    expect(result.unplaced.find((u) => u.code === '80001')?.reason).toBe(`not bound to any in-state ZIP by ${BOUNDARY_NAME}`)
  })

  it('P7/P26 4 rows weigh by integer plus-4 width: 55025 splits 99 : 2028 : 1 over counties 003, 163, 025', () => {
    const rows = BOUNDARY_LINES.map((l) => l.split(',')).filter((f) => f[0] === '4' && f[17] === '55025')
    expect(rows.map((f) => [f[18], f[20], f[24]])).toEqual([['0001', '0099', '003'], ['0100', '2127', '163'], ['8554', '8554', '025']])
    const result = compileMn(reopened(BOUNDARY_LINES))
    const weights = Object.fromEntries(candidatesOf(result, '55025').map((c) => [c.countyFips, c.weight]))
    expect(weights['27003']).toBeCloseTo(99 / 2128, 12)
    expect(weights['27163']).toBeCloseTo(2028 / 2128, 12)
    expect(weights['27025']).toBeCloseTo(1 / 2128, 12)
    // Unpadded bounds give the same widths: 1 is 0001.
    const unpadded = reopened(BOUNDARY_LINES).map((l) => l.replace(',55025,0001,55025,0099,', ',55025,1,55025,99,'))
    expect(candidatesOf(compileMn(unpadded), '55025')).toEqual(candidatesOf(result, '55025'))
  })

  it('Z rows are the default for plus-4s no 4 row lists; the same binding in both merges', () => {
    const result = compileMn(reopened(BOUNDARY_LINES))
    // 55012: Z 55012-55013 county 025 and 4 55012 0011-9999 county 025 → one candidate.
    expect(candidatesOf(result, '55012').map((c) => [c.countyFips, c.weight])).toEqual([['27025', 1]])
  })

  it('P8 type-45 location-code triplets never join the stack', () => {
    const lines = reopened(BOUNDARY_LINES).map((line) => {
      if (line.split(',')[17] !== '55401') return line
      const fields = line.split(',')
      fields.splice(32, 15, 'ST', 'L1704', '45', 'ST', 'L1705', '45', 'ST', 'L1706', '45', 'ST', 'L1707', '45', 'ST', 'L1708', '45')
      return fields.join(',')
    })
    const result = compileMn(lines)
    expect(stackOf(result, '55401')).toEqual([['state:27', 'county:053', 'city:43000', 'district:80004']])
    expect(result.notes.some((note) => /type-45 location codes/.test(note))).toBe(true)
  })

  it('P22 a Z range reaching into Iowa binds only MN ZIPs and reports the foreign ones', () => {
    const first = reopened(BOUNDARY_LINES)[0].split(',')
    first[17] = '51001' // an SD-style wide row on a real MN row (was 55012-55013)
    const result = compileMn([first.join(','), ...reopened(BOUNDARY_LINES).slice(1)])
    expectWellFormed(result)
    expect(result.candidates.every((c) => geography.zips.get(c.zip)?.state === 'MN')).toBe(true)
    const foreignInRange = [...geography.zips.values()].filter((z) => z.state !== 'MN' && z.zip >= '51001' && z.zip <= first[19])
    expect(new Set(foreignInRange.map((z) => z.state))).toEqual(new Set(['IA', 'WI']))
    expect(result.notes.some((note) => note.includes(`reach ${foreignInRange.length} ZIPs of other states`))).toBe(true)
    // MN ZIPs inside the widened range that no other row binds now carry that row's county.
    const newlyBound = [...geography.zips.values()].find((z) => z.state === 'MN' && z.zip < '55012')!
    expect(candidatesOf(result, newlyBound.zip).map((c) => c.countyFips)).toEqual(['27025'])
  })

  it('streaming and whole-text input compile to the same result', async () => {
    const lines = reopened(BOUNDARY_LINES)
    async function* stream() {
      yield* lines
    }
    const streamed = await compileSstStateStreaming({ state: 'MN', stateName: 'Minnesota', rateFile: MN, geography, boundaryFile: { name: BOUNDARY_NAME, lines: stream() } })
    expect(streamed).toEqual(compileMn(lines))
  })
})
