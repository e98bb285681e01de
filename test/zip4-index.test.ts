// The ZIP+4 index compiled from an SST boundary file into rates.bin (x.* and q.* sections): the
// real Minnesota sample rows, reopened to be current, and fixtures derived from them for the
// boundary-file pitfalls. Expected bindings are read from the sample's own rows.
import { readFileSync } from 'node:fs'
import { beforeAll, describe, expect, it } from 'vitest'
import { extractMember } from '../pipeline/fetch/archive.ts'
import { dataFromIndex } from '../pipeline/run/carry-over.ts'
import { compileSstState } from '../pipeline/feeds/sst/compile.ts'
import { decodeText } from '../pipeline/fetch/text-decoding.ts'
import type { Geography } from '../snapshot-contract/geography-model.ts'
import type { FeedResult } from '../snapshot-contract/model.ts'
import { RateIndex, writeRateIndex } from '../snapshot-contract/rate-index.ts'
import { FormatError } from '../snapshot-contract/format.ts'
import { loadMiniGeography } from './support/mini-geography.ts'
import { sectionExtent } from './support/reliability-damaged-snapshot.ts'
import { sharedPath } from './support/shared.ts'

const MN_ZIP = 'MNR2026Q2FEB18.zip'
const MEMBER = extractMember(readFileSync(sharedPath('mirror/sst', MN_ZIP)), MN_ZIP)
const MN = { name: MN_ZIP, text: decodeText(MEMBER.bytes, MEMBER.member) }
const BOUNDARY_NAME = 'MNB2026Q2FEB18.csv'
const SAMPLE = decodeText(readFileSync(sharedPath('fixtures/sst/MNB2026Q2FEB18-sample.csv')), 'sample').split('\n').filter((l) => l !== '')
/** The sample's rows all ended in 2019 (pitfall P12); reopened, they are a current boundary file made of real rows. */
const REOPENED = SAMPLE.map((line) => line.replace(/^([^,]*,[^,]*,)20190331,/, '$129991231,'))
const fieldsOf = (line: string) => line.split(',')
const DAY = '2026-04-01'

let geography: Geography
beforeAll(async () => {
  geography = await loadMiniGeography(['MN'])
})

const compile = (lines: string[]): FeedResult =>
  compileSstState({ state: 'MN', stateName: 'Minnesota', rateFile: MN, geography, boundaryFile: { name: BOUNDARY_NAME, lines } })
const write = (result: FeedResult) => writeRateIndex({ states: [{ code: 'MN', result }], zipMeta: () => undefined })
const refs = (index: RateIndex, stack: number[]) => index.authoritiesOn(stack, DAY).map((a) => `${a.level}:${a.code}`)
/** What the index answers for ZIP+4 zip-plus4: each match's record kind, county FIPS, place GEOID. */
const matchesOf = (index: RateIndex, zip: string, plus4: number) =>
  index.plus4Matches(zip, plus4, 'MN', DAY).map((m) => ({ record: m.record, county: m.candidate.county?.fips ?? null, place: m.candidate.place?.geoid ?? null, unrated: m.unrated }))
/** The first `4` row of a ZIP in the sample whose range holds more than one +4. */
const fourRowOf = (zip: string) => REOPENED.map(fieldsOf).find((f) => f[0] === '4' && f[17] === zip && f[19] === zip && Number(f[20]) > Number(f[18]))!

describe('ZIP+4 index from the MN boundary sample', () => {
  it('holds each 4 row as a +4 range of its ZIP, bound to the row county, place and districts', () => {
    const result = compile(REOPENED)
    const index = new RateIndex(write(result))
    for (const zip of ['55101', '55025', '55049']) {
      const row = fourRowOf(zip)
      const middle = Math.floor((Number(row[18]) + Number(row[20])) / 2)
      // A 4 row wins over the Z row of its ZIP (55101 has one): the index holds both.
      const [match] = matchesOf(index, zip, middle).filter((m) => m.record === '4')
      expect(match).toEqual({ record: '4', county: row[24] ? `27${row[24]}` : null, place: row[25] ? `27${row[25]}` : null, unrated: [] })
    }
    // 55049-1100…2302 is in Faribault city (41426) of county 147: the stack holds both layers of the row.
    const faribault = REOPENED.map(fieldsOf).find((f) => f[0] === '4' && f[17] === '55049' && f[25] !== '')!
    const [binding] = index.plus4Matches('55049', Number(faribault[18]), 'MN', DAY).filter((m) => m.record === '4')
    expect(refs(index, binding!.candidate.stack).sort()).toEqual(['state:27', `county:${faribault[24]}`, `city:${faribault[25]}`].sort())
  })

  it('a +4 no 4 row lists falls to the Z row of its ZIP; a ZIP with neither has no range', () => {
    const index = new RateIndex(write(compile(REOPENED)))
    // 55401: Z row 55401–55405 (Hennepin, Minneapolis, district 80004), no 4 row.
    const z = REOPENED.map(fieldsOf).find((f) => f[0].toUpperCase() === 'Z' && f[17] === '55401')!
    expect(matchesOf(index, '55401', 1234)).toEqual([{ record: 'Z', county: `27${z[24]}`, place: `27${z[25]}`, unrated: [] }])
    const [match] = index.plus4Matches('55401', 1234, 'MN', DAY)
    expect(refs(index, match!.candidate.stack)).toContain(`district:${z[30]}`)
    // 55025 has 4 rows only: a +4 between them lies in no range.
    const rows = REOPENED.map(fieldsOf).filter((f) => f[0] === '4' && f[17] === '55025')
    const gap = Number(rows[1]![20]) + 1
    expect(rows.some((f) => Number(f[18]) <= gap && gap <= Number(f[20]))).toBe(false)
    expect(matchesOf(index, '55025', gap)).toEqual([])
  })

  it('keeps the windows the file gives: the sample as published (all ended in 2019) answers 2018 dates, not 2026', () => {
    // As published the rows ended before the rate file's quarter, so the binder keeps none of them (P12).
    expect(compile(SAMPLE).plus4).toBeUndefined()
    const result = compile(REOPENED)
    const index = new RateIndex(write(result))
    const row = fourRowOf('55101')
    const from = `${row[1]!.slice(0, 4)}-${row[1]!.slice(4, 6)}-${row[1]!.slice(6)}`
    const dayBefore = new Date(Date.parse(`${from}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10)
    expect(index.plus4Matches('55101', Number(row[18]), 'MN', from).map((m) => m.record)).toEqual(['Z', '4'])
    // The day before the 4 row starts, only the Z default of 55092–55102 is in force.
    expect(index.plus4Matches('55101', Number(row[18]), 'MN', dayBefore).map((m) => m.record)).toEqual(['Z'])
  })

  it('is deterministic, and carried forward through the index it writes byte for byte', () => {
    const first = write(compile(REOPENED))
    expect(write(compile(REOPENED)).equals(first)).toBe(true)
    const carried = dataFromIndex(new RateIndex(first), 'MN')
    const again = write({ ...compile(REOPENED), ...carried })
    expect(new RateIndex(again).plus4OfState('MN')).toEqual(new RateIndex(first).plus4OfState('MN'))
    expect(carried.plus4!.ranges.zip.length).toBe(compile(REOPENED).plus4!.ranges.zip.length)
  })

  it('a damaged range (reversed, or naming no binding) refuses the whole file when opened', () => {
    const bytes = write(compile(REOPENED))
    const damage = (section: string, value: (view: DataView, at: number) => void) => {
      const copy = Buffer.from(bytes)
      value(new DataView(copy.buffer, copy.byteOffset, copy.length), sectionExtent(copy, section).offset)
      return () => new RateIndex(copy)
    }
    const hiOf = (view: DataView) => view.getUint16(sectionExtent(bytes, 'x.hi').offset, true)
    expect(damage('x.lo', (view, at) => view.setUint16(at, hiOf(view) + 1, true))).toThrow(FormatError)
    expect(damage('x.lo', (view, at) => view.setUint16(at, hiOf(view) + 1, true))).toThrow(/x.lo row 0: \+4 range .* is reversed/)
    expect(damage('x.q', (view, at) => view.setUint32(at, 0xfffffff0, true))).toThrow(/x.q row 0/)
  })

  it('ZIP5 candidates of a bound ZIP carry basis boundary_share, weighed by +4 width', () => {
    const result = compile(REOPENED)
    const candidates = result.candidates.filter((c) => c.zip === '55025')
    expect(candidates.map((c) => c.basis)).toEqual(candidates.map(() => 'boundary_share'))
    expect(candidates.reduce((sum, c) => sum + c.weight, 0)).toBeCloseTo(1, 12)
  })
})

describe('boundary-file pitfalls, on fixtures derived from the sample', () => {
  it('plus4-range-reversed: the row is rejected and its +4s lie in no range, never in a reversed one', () => {
    const row = fourRowOf('55025')
    const reversed = REOPENED.map((line) => (line === row.join(',') ? line.replace(`,${row[18]},55025,${row[20]},`, `,${row[20]},55025,${row[18]},`) : line))
    expect(reversed).not.toEqual(REOPENED)
    const result = compile(reversed)
    expect(result.notes.some((n) => n.includes(`${REOPENED.length - 1} of ${REOPENED.length} boundary rows parsed`))).toBe(true)
    const index = new RateIndex(write(result))
    expect(matchesOf(index, '55025', Number(row[18]))).toEqual([])
  })

  it('overlapping-plus4-ranges-with-different-codes: both ranges are kept, noted, and a +4 in both matches two bindings', () => {
    const row = fourRowOf('55101')
    const other = [...row]
    other[24] = row[24] === '037' ? '123' : '037'
    other[25] = ''
    const result = compile([...REOPENED, other.join(',')])
    expect(result.notes.some((n) => /1 \+4 ranges overlap a range of another binding/.test(n))).toBe(true)
    const index = new RateIndex(write(result))
    const counties = matchesOf(index, '55101', Number(row[18])).filter((m) => m.record === '4').map((m) => m.county)
    expect(new Set(counties)).toEqual(new Set([`27${row[24]}`, `27${other[24]}`]))
  })

  it('boundary-district-without-rate-row: the code is kept apart as unrated, never summed, never silently dropped', () => {
    const rateCodes = new Set(MN.text.split(/\r?\n/).map((l) => l.split(',')[2]))
    const missing = ['89999', '89998'].find((code) => !rateCodes.has(code))!
    const row = fourRowOf('55049')
    const withDistrict = [...row]
    withDistrict.splice(29, 3, 'ST', missing, '63')
    const result = compile(REOPENED.map((line) => (line === row.join(',') ? withDistrict.join(',') : line)))
    expect(result.notes).toContain(`1 district codes in the boundary file have no rate row: ${missing}`)
    const index = new RateIndex(write(result))
    const [match] = index.plus4Matches('55049', Number(row[18]), 'MN', DAY)
    expect(match!.unrated).toEqual([missing])
    expect(refs(index, match!.candidate.stack).some((ref) => ref.endsWith(missing))).toBe(false)
  })
})
