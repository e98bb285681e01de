import { readFileSync } from 'node:fs'
import { Readable } from 'node:stream'
import { createInterface } from 'node:readline'
import { describe, expect, it } from 'vitest'
import {
  assertBoundaryFileHealthy,
  expandZipRange,
  isActiveOn,
  parseBoundaryLine,
  plus4RangeWithin,
  readBoundaryFile,
  readBoundaryLines,
  type BoundaryRow,
} from '../pipeline/feeds/sst/boundary-file.ts'
import { decodeLines, decodeText } from '../pipeline/fetch/text-decoding.ts'
import { loadMiniGeography } from './support/mini-geography.ts'
import { sharedPath } from './support/shared.ts'

const SAMPLE_NAME = 'MNB2026Q2FEB18-sample.csv'
const SAMPLE_BYTES = readFileSync(sharedPath('fixtures/sst', SAMPLE_NAME))
const SAMPLE = decodeText(SAMPLE_BYTES, SAMPLE_NAME)
const LINES = SAMPLE.split(/\r?\n/).filter((line) => line !== '')
/** The real Minneapolis row: z 55401-55405, Hennepin 053, place 43000, district ST/80004/63. */
const MINNEAPOLIS = LINES.find((line) => line.split(',')[17] === '55401')!
const FOUR_ROW = LINES.find((line) => line.startsWith('4,'))!

function edit(line: string, changes: Record<number, string>): string {
  const fields = line.split(',')
  for (const [index, value] of Object.entries(changes)) fields[Number(index)] = value
  return fields.join(',')
}

function parse(line: string): BoundaryRow {
  const result = parseBoundaryLine(line, 1)
  if (!result.ok) throw new Error(result.reason)
  return result.row
}

function collect(input: string | string[]) {
  const rows: BoundaryRow[] = []
  const stats = readBoundaryLines(input, (row) => rows.push(row))
  return { rows, stats }
}

/** The real row turned into an address record: ZIP in field 16, plus-4 in 17, street in 4–10. */
const ADDRESS_ROW = edit(MINNEAPOLIS, { 0: 'A', 3: '100', 4: '198', 5: 'E', 6: 'N', 7: 'WASHINGTON', 8: 'AVE', 9: 'S', 15: '55401', 16: '2100', 17: '', 19: '' })

describe('readBoundaryLines on the real MN sample', () => {
  it('parses every row; counts per record type match the file', () => {
    const { rows, stats } = collect(SAMPLE)
    const firstFields = LINES.map((line) => line.split(',')[0])
    expect(stats.rowsRead).toBe(LINES.length)
    expect(stats.rowsParsed).toBe(LINES.length)
    expect(stats.byType).toEqual({
      Z: firstFields.filter((t) => t.toUpperCase() === 'Z').length,
      '4': firstFields.filter((t) => t === '4').length,
      A: 0,
    })
    expect(stats.byType.Z + stats.byType['4']).toBe(100)
    expect(() => assertBoundaryFileHealthy(stats, SAMPLE_NAME)).not.toThrow()
    expect(rows[0]).toMatchObject({ type: 'Z', zipLow: '55012', zipHigh: '55013', countyFips: '025', placeFips: null, stateFips: '27' })
  })

  it('reads the Minneapolis row: county, place and the ST/80004/63 district triplet', () => {
    expect(parse(MINNEAPOLIS)).toMatchObject({
      type: 'Z',
      from: '2017-10-01',
      to: '2019-03-31',
      zipLow: '55401',
      zipHigh: '55405',
      plus4Low: null,
      countyFips: '053',
      placeFips: '43000',
      districts: [{ codeSource: 'ST', code: '80004', type: '63' }],
      locationCodes: [],
    })
  })

  it('streams from a readline interface over a decoded stream (CRLF) with the same result', async () => {
    const crlf = Buffer.from(LINES.join('\r\n') + '\r\n')
    const lines = createInterface({ input: Readable.from([crlf.subarray(0, 5000), crlf.subarray(5000)]), crlfDelay: Infinity })
    const rows: BoundaryRow[] = []
    const stats = await readBoundaryFile(lines, (row) => rows.push(row))
    expect(rows).toEqual(collect(SAMPLE).rows)
    expect(stats.rowsParsed).toBe(100)
  })

  it('A rows keep the address: ZIP from field 16, plus-4 from 17, house range and street', () => {
    expect(parse(ADDRESS_ROW)).toMatchObject({
      type: 'A',
      zipLow: '55401',
      zipHigh: '55401',
      plus4Low: 2100,
      plus4High: 2100,
      address: { zip: '55401', plus4: 2100, houseLow: '100', houseHigh: '198', oddEven: 'E', preDirectional: 'N', streetName: 'WASHINGTON', streetSuffix: 'AVE', postDirectional: 'S' },
      countyFips: '053',
    })
  })
})

describe('boundary-file pitfalls', () => {
  it('P1 UTF-8 BOM + A row: stripped by the decoder; glued to the record type, the file fails', () => {
    const file = [ADDRESS_ROW, ...LINES].join('\n')
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(file)])
    const decoded = collect(decodeText(bytes, SAMPLE_NAME))
    expect(decoded.stats.byType.A).toBe(1)
    expect(decoded.rows[0].type).toBe('A')
    expect(() => assertBoundaryFileHealthy(decoded.stats, SAMPLE_NAME)).not.toThrow()

    const glued = collect(bytes.toString('utf8'))
    expect(glued.stats.firstRecordValid).toBe(false)
    expect(glued.stats.rejected[0]).toEqual({ line: 1, reason: expect.stringMatching(/unknown record type/) })
    expect(() => assertBoundaryFileHealthy(glued.stats, SAMPLE_NAME)).toThrow(/first record/)
  })

  it('P4 column-count drift: 89, 90 and 91 fields are read alike; 88 is rejected', () => {
    expect(MINNEAPOLIS.split(',')).toHaveLength(89)
    const base = parse(MINNEAPOLIS)
    expect(parse(MINNEAPOLIS + ',')).toEqual(base)
    expect(parse(MINNEAPOLIS + ',,X')).toEqual(base)
    const short = parseBoundaryLine(MINNEAPOLIS.split(',').slice(0, 88).join(','), 7)
    expect(short).toEqual({ ok: false, reason: '88 fields, expected at least 89' })

    const allShort = collect(LINES.map((line) => line.split(',').slice(0, 88).join(',')))
    expect(allShort.stats.rowsParsed).toBe(0)
    expect(() => assertBoundaryFileHealthy(allShort.stats, SAMPLE_NAME)).toThrow(/no valid boundary rows/)
  })

  it('P5 record-type casing is normalised; unknown types are counted and fail the file above 1%', () => {
    const upper = collect(LINES.map((line) => line.replace(/^z,/, 'Z,')))
    expect(upper.rows).toEqual(collect(LINES).rows)
    expect(parse(ADDRESS_ROW.replace(/^A,/, 'a,')).type).toBe('A')

    const withUnknown = (count: number) => LINES.map((line, i) => (i > 0 && i <= count ? line.replace(/^[z4],/, 'X,') : line))
    const one = collect(withUnknown(1)).stats
    expect(one.unknownTypes).toEqual({ X: 1 })
    expect(() => assertBoundaryFileHealthy(one, SAMPLE_NAME)).not.toThrow() // 1 of 100 is not above 1%
    const two = collect(withUnknown(2)).stats
    expect(two.unknownTypeRows).toBe(2)
    expect(() => assertBoundaryFileHealthy(two, SAMPLE_NAME)).toThrow(/unknown record types/)
  })

  it('P7 unpadded ZIP+4 bounds are integers: 1 = 0001, 11 = 0011, compared as numbers', () => {
    const bounds = (low: string, high: string) => parse(edit(FOUR_ROW, { 18: low, 20: high }))
    expect(bounds('1', '9999')).toMatchObject({ plus4Low: 1, plus4High: 9999 })
    expect(bounds('0001', '9999').plus4Low).toBe(bounds('1', '9999').plus4Low)
    expect(bounds('11', '0011')).toMatchObject({ plus4Low: 11, plus4High: 11 })
    // As text, '1015' sorts between '1' and '7'; as numbers it is outside 1..7.
    const narrow = bounds('1', '7')
    const inside = (plus4: number) => narrow.plus4Low! <= plus4 && plus4 <= narrow.plus4High!
    expect('1' <= '1015' && '1015' <= '7').toBe(true)
    expect(inside(1015)).toBe(false)
    expect(inside(7)).toBe(true)
    expect(parseBoundaryLine(edit(FOUR_ROW, { 18: '10000' }), 1)).toMatchObject({ ok: false })
    expect(parseBoundaryLine(edit(FOUR_ROW, { 18: '9000', 20: '0100' }), 1)).toMatchObject({ ok: false, reason: expect.stringMatching(/reversed/) })
  })

  it('P8 type-45 triplets are location codes, not districts', () => {
    const row = parse(edit(MINNEAPOLIS, { 32: 'ST', 33: 'L1704', 34: '45', 35: 'ST', 36: 'L1705', 37: '45', 38: 'ST', 39: 'L1706', 40: '45', 41: 'ST', 42: 'L1707', 43: '45', 44: 'ST', 45: 'L1708', 46: '45' }))
    expect(row.districts).toEqual([{ codeSource: 'ST', code: '80004', type: '63' }])
    expect(row.locationCodes.map((t) => t.code)).toEqual(['L1704', 'L1705', 'L1706', 'L1707', 'L1708'])
  })

  it('P9 end-date sentinels: 29991231 and 99991231 are open, 20781231 is a real date', () => {
    expect(parse(edit(MINNEAPOLIS, { 2: '29991231' })).to).toBeNull()
    expect(parse(edit(MINNEAPOLIS, { 2: '99991231' })).to).toBeNull()
    expect(parse(edit(MINNEAPOLIS, { 2: '20781231' })).to).toBe('2078-12-31')
  })

  it('P11 a quoted city name containing a comma keeps the columns aligned', () => {
    const row = parse(edit(MINNEAPOLIS, { 14: '"Minneapolis, City of"' }))
    expect(row.cityName).toBe('Minneapolis, City of')
    expect(row).toMatchObject({ countyFips: '053', placeFips: '43000', districts: [{ code: '80004' }] })
    expect(parseBoundaryLine(edit(MINNEAPOLIS, { 14: '"unterminated' }), 1)).toMatchObject({ ok: false, reason: expect.stringMatching(/^CSV/) })
  })

  it('P11 a Latin-1 place name decodes through windows-1252, never as U+FFFD', () => {
    const bytes = Buffer.from([edit(MINNEAPOLIS, { 14: 'Española' }), ...LINES.slice(1)].join('\n'), 'latin1')
    expect(() => new TextDecoder('utf-8', { fatal: true }).decode(bytes)).toThrow()
    const { rows } = collect(decodeText(bytes, SAMPLE_NAME))
    expect(rows[0].cityName).toBe('Española')
  })

  it('P12 the first 100 rows of the MN file are all expired in 2019: none active on 2026-04-01', () => {
    const { rows } = collect(SAMPLE)
    expect(rows.filter((row) => isActiveOn(row, '2026-04-01'))).toEqual([])
    expect(rows.every((row) => row.to !== null && row.to < '2020-01-01')).toBe(true)
    const activeEarly2019 = rows.filter((row) => isActiveOn(row, '2019-01-15'))
    expect(activeEarly2019.length).toBe(LINES.filter((line) => line.split(',')[1] <= '20190115').length)
    expect(activeEarly2019.length).toBeGreaterThan(0)
  })
})

describe('ZIP range expansion', () => {
  it('P22 a range crossing state lines binds only ZIPs of the state', async () => {
    const geography = await loadMiniGeography(['MN', 'IA', 'SD', 'WI', 'NE'])
    const inMinnesota = (zip: string) => geography.zips.get(zip)?.state === 'MN'
    // The SD row shape from the pitfall catalogue, on a real MN row: 51001-56136.
    const wide = parse(edit(MINNEAPOLIS, { 17: '51001', 19: '56136' }))
    expect(() => expandZipRange(wide, inMinnesota)).toThrow(/spans 5136 ZIPs/)
    const { zips, dropped } = expandZipRange(wide, inMinnesota, 10_000)
    expect(zips.length + dropped).toBe(5136)
    expect(zips.every((zip) => geography.zips.get(zip)?.state === 'MN')).toBe(true)
    const foreign = [...geography.zips.values()].filter((zip) => zip.state !== 'MN' && zip.zip >= '51001' && zip.zip <= '56136')
    expect(foreign.length).toBeGreaterThan(0)
    expect(zips.filter((zip) => foreign.some((f) => f.zip === zip))).toEqual([])
    expect(zips.length).toBe([...geography.zips.values()].filter((zip) => zip.state === 'MN' && zip.zip <= '56136').length)
  })

  it('a 4 row running across ZIPs covers the tail of the first, all of the middle, the head of the last', () => {
    const crossing = parse(LINES.find((line) => { const f = line.split(','); return f[0] === '4' && f[17] !== f[19] })!)
    const [low, high] = [Number(crossing.zipLow), Number(crossing.zipHigh)]
    expect(plus4RangeWithin(crossing, crossing.zipLow)).toEqual({ low: crossing.plus4Low, high: 9999 })
    expect(plus4RangeWithin(crossing, crossing.zipHigh)).toEqual({ low: 0, high: crossing.plus4High })
    if (high - low > 1) expect(plus4RangeWithin(crossing, String(low + 1))).toEqual({ low: 0, high: 9999 })
  })
})

describe('a boundary file decoded line by line (decodeLines)', () => {
  const asText = (bytes: Uint8Array) => decodeText(bytes, SAMPLE_NAME).split('\n')
  it('gives the lines decodeText gives, with a BOM and CRLF endings too', () => {
    expect([...decodeLines(SAMPLE_BYTES, SAMPLE_NAME)]).toEqual(asText(SAMPLE_BYTES))
    const bomCrlf = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(SAMPLE.replace(/\n/g, '\r\n'))])
    expect([...decodeLines(bomCrlf, SAMPLE_NAME)]).toEqual(asText(bomCrlf))
  })

  it('P11 a windows-1252 city name (WV-style city_name field) decodes as the whole file does; UTF-16 is refused', () => {
    const latin1 = Buffer.from(`${edit(MINNEAPOLIS, { 14: 'LAKE ELMO' })}\n${edit(FOUR_ROW, { 14: 'SAINT JOSÉ' })}\n`, 'latin1')
    expect(latin1.includes(0xc9)).toBe(true)
    const lines = [...decodeLines(latin1, SAMPLE_NAME)]
    expect(lines).toEqual(asText(latin1))
    expect(lines[1]!.split(',')[14]).toBe('SAINT JOSÉ')
    expect(() => [...decodeLines(Buffer.from([0xff, 0xfe, 0x41, 0x00]), SAMPLE_NAME)]).toThrow(/UTF-16/)
  })
})
