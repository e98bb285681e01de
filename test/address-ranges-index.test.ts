// The address ranges of an SST boundary file's A records, compiled into rates.bin (a.* sections) and
// read back: the real MN sample with address records derived from its 55101 rows
// (test/support/boundary-address-records.ts). Expected bindings are read from the rows copied.
import { readFileSync } from 'node:fs'
import { beforeAll, describe, expect, it } from 'vitest'
import { extractMember } from '../pipeline/fetch/archive.ts'
import { dataFromIndex } from '../pipeline/run/carry-over.ts'
import { compileSstState } from '../pipeline/feeds/sst/compile.ts'
import { decodeText } from '../pipeline/fetch/text-decoding.ts'
import { FormatError } from '../snapshot-contract/format.ts'
import type { Geography } from '../snapshot-contract/geography-model.ts'
import type { FeedResult } from '../snapshot-contract/model.ts'
import { RateIndex, writeRateIndex } from '../snapshot-contract/rate-index.ts'
import { otherDirectionalSide, streetAddressKey, streetKey } from '../snapshot-contract/street-key.ts'
import { ADDRESS_RECORDS, BOUNDARY_WITH_ADDRESSES, DAKOTA, REOPENED_ROWS, ST_PAUL, UNRATED_CODE } from './support/boundary-address-records.ts'
import { loadMiniGeography } from './support/mini-geography.ts'
import { sectionExtent } from './support/reliability-damaged-snapshot.ts'
import { sharedPath } from './support/shared.ts'

const MN_ZIP = 'MNR2026Q2FEB18.zip'
const MEMBER = extractMember(readFileSync(sharedPath('mirror/sst', MN_ZIP)), MN_ZIP)
const MN = { name: MN_ZIP, text: decodeText(MEMBER.bytes, MEMBER.member) }
const DAY = '2026-04-01'

let geography: Geography
let result: FeedResult
let index: RateIndex
beforeAll(async () => {
  geography = await loadMiniGeography(['MN'])
  result = compile(BOUNDARY_WITH_ADDRESSES)
  index = new RateIndex(write(result))
})

const compile = (lines: string[]): FeedResult =>
  compileSstState({ state: 'MN', stateName: 'Minnesota', rateFile: MN, geography, boundaryFile: { name: 'MNB2026Q2FEB18.csv', lines } })
const write = (compiled: FeedResult) => writeRateIndex({ states: [{ code: 'MN', result: compiled }], zipMeta: () => undefined })
/** County FIPS, place GEOID and whether each range holding the house is read, for house `house` of `street` in 55101. */
const matchesOf = (street: string, house: number, day = DAY) =>
  index.addressMatches('55101', streetKey(street), house, 'MN', day).map((m) => ({ county: m.candidate.county?.fips ?? null, place: m.candidate.place?.geoid ?? null, read: m.read }))
const bindingOf = (row: string[], read = true) => ({ county: `27${row[24]}`, place: row[25] ? `27${row[25]}` : null, read })

describe('street keys: one spelling for boundary fields and normalized addresses', () => {
  it('abbreviates suffixes and directionals word by word, drops periods, apostrophes and accents', () => {
    expect(streetKey('N', 'ROBERT', 'ST', '')).toBe('N ROBERT ST')
    expect(streetKey('North Robert Street')).toBe('N ROBERT ST')
    expect(streetKey('', "O'Neil", 'Ave.', 'S.W.')).toBe('ONEIL AVE SW')
    expect(streetKey('Peñasco', 'Heights')).toBe('PENASCO HTS')
    expect(streetKey('', '', '', '')).toBe('')
  })

  it('reads the house number and street of a normalized street, without its unit; no key for unplain house numbers', () => {
    expect(streetAddressKey('101 ROBERT STREET N APT 4')).toEqual({ house: 101, street: 'ROBERT ST N' })
    expect(streetAddressKey('75 E 7TH ST #2')).toEqual({ house: 75, street: 'E 7TH ST' })
    for (const street of ['12A WABASHA ST', '123 1/2 MAIN ST', 'N123W456 MAIN ST', 'PO BOX 5', 'RR 2 BOX 5', '123']) expect(streetAddressKey(street)).toBeNull()
  })

  it('writes a directional on the other side of the name only when one end has it', () => {
    expect(otherDirectionalSide('N ROBERT ST')).toBe('ROBERT ST N')
    expect(otherDirectionalSide('ROBERT ST N')).toBe('N ROBERT ST')
    expect(otherDirectionalSide('N MAIN ST S')).toBeNull()
    expect(otherDirectionalSide('MAIN ST')).toBeNull()
    expect(otherDirectionalSide('N ST')).toBeNull()
  })
})

describe('sst-boundary-address-records: A records compiled into address ranges', () => {
  it('keeps every current A record as a range of its ZIP and street, bound as the row it copies', () => {
    const ranges = result.plus4!.addresses!
    // Every address record but the one that ended before the quarter.
    expect(ranges.ranges.zip.length).toBe(Object.keys(ADDRESS_RECORDS).length - 1)
    expect(ranges.streets).not.toContain('CEDAR ST')
    expect(matchesOf('Robert St N', 101)).toEqual([bindingOf(ST_PAUL)])
    expect(matchesOf('Robert St N', 100)).toEqual([bindingOf(DAKOTA)])
    expect(matchesOf('Sibley St', 50)).toEqual([bindingOf(DAKOTA)])
    expect(matchesOf('Cedar St', 50)).toEqual([])
  })

  it('address-range-odd-even-sides: the side indicator splits one house range between two bindings', () => {
    expect(matchesOf('Robert St N', 151)).toEqual([bindingOf(ST_PAUL)])
    expect(matchesOf('Robert St N', 150)).toEqual([bindingOf(DAKOTA)])
    expect(matchesOf('Robert St N', 199)).toEqual([bindingOf(ST_PAUL)])
    expect(matchesOf('Robert St N', 200)).toEqual([])
  })

  it('blank house numbers bind the whole street, a blank indicator both sides; a lower-case record type reads as A', () => {
    for (const house of [0, 1, 2, 98_765]) expect(matchesOf('Lafayette Rd', house)).toEqual([bindingOf(DAKOTA)])
  })

  it('address-ranges-overlapping-different-bindings: both ranges hold a house in the overlap', () => {
    expect(matchesOf('E 7th St', 75)).toEqual(expect.arrayContaining([bindingOf(DAKOTA), bindingOf(ST_PAUL)]))
    expect(matchesOf('E 7th St', 25)).toEqual([bindingOf(DAKOTA)])
    expect(matchesOf('E 7th St', 125)).toEqual([bindingOf(ST_PAUL)])
  })

  it('address-range-unreadable-house-numbers: an alphanumeric range holds every house of its street, unread; a secondary-unit range too', () => {
    expect(matchesOf('Wabasha St N', 20)).toEqual(expect.arrayContaining([bindingOf(DAKOTA), bindingOf(ST_PAUL, false)]))
    expect(matchesOf('Wabasha St N', 500)).toEqual([bindingOf(ST_PAUL, false)])
    expect(matchesOf('Kellogg Blvd W', 5)).toEqual([bindingOf(DAKOTA, false)])
    expect(result.notes.some((note) => /2 address ranges .* cannot be compared/.test(note))).toBe(true)
  })

  it('keeps the windows the records give: a future range holds a house only from its first day', () => {
    expect(matchesOf('Minnesota St', 10)).toEqual([])
    expect(matchesOf('Minnesota St', 10, '2027-01-01')).toEqual([bindingOf(DAKOTA)])
  })

  it('a district code with no rate row stays outside the stack and is named as unrated', () => {
    const [match] = index.addressMatches('55101', 'JACKSON ST', 10, 'MN', DAY)
    expect(match!.unrated).toEqual([UNRATED_CODE])
    expect(index.authoritiesOn(match!.candidate.stack, DAY).map((a) => a.code)).not.toContain(UNRATED_CODE)
  })

  it('a boundary file of A records only (VT) gives address ranges but no ZIP+4 ranges', () => {
    const addressesOnly = compile(Object.values(ADDRESS_RECORDS).map((fields) => fields.join(',')))
    const only = new RateIndex(write(addressesOnly))
    expect(only.hasPlus4('MN')).toBe(false)
    expect(only.plus4Matches('55101', Number(DAKOTA[18]), 'MN', DAY)).toEqual([])
    expect(only.addressMatches('55101', 'ROBERT ST N', 101, 'MN', DAY).map((m) => m.candidate.county?.fips)).toEqual([`27${ST_PAUL[24]}`])
    // Bound only by A records, 55101 is weighed by range count; with its Z and 4 rows, as before.
    expect(addressesOnly.candidates.filter((c) => c.zip === '55101').every((c) => c.basis === 'boundary_share')).toBe(true)
  })

  it('carried forward unchanged: the state read back out of the index writes the same address ranges', () => {
    const carried = { ...result, ...dataFromIndex(index, 'MN') }
    const again = new RateIndex(write(carried))
    expect(again.plus4OfState('MN')).toEqual(index.plus4OfState('MN'))
    expect(again.addressMatches('55101', 'ROBERT ST N', 150, 'MN', DAY).map((m) => m.candidate)).toEqual(index.addressMatches('55101', 'ROBERT ST N', 150, 'MN', DAY).map((m) => m.candidate))
  })

  it('refuses an index whose address ranges are out of order, naming the section', () => {
    const bytes = write(result)
    const { offset, count } = sectionExtent(bytes, 'a.zip')
    const view = new Uint32Array(bytes.buffer, bytes.byteOffset + offset, count)
    view[0] = 99_999
    expect(() => new RateIndex(bytes)).toThrow(FormatError)
    expect(() => new RateIndex(bytes)).toThrow(/a\.zip/)
  })

  it('without A records the index has no address sections, and answers none', () => {
    const plain = new RateIndex(write(compile(REOPENED_ROWS.map((f) => f.join(',')))))
    expect(plain.addressMatches('55101', 'ROBERT ST N', 101, 'MN', DAY)).toEqual([])
    expect(plain.hasPlus4('MN')).toBe(true)
  })
})
