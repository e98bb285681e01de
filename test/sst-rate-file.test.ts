import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { extractMember } from '../pipeline/fetch/archive.ts'
import { isActiveOn } from '../pipeline/feeds/sst/boundary-file.ts'
import { assertRateFileHealthy, parseRateFile } from '../pipeline/feeds/sst/rate-file.ts'
import { decodeText } from '../pipeline/fetch/text-decoding.ts'
import { sharedPath } from './support/shared.ts'

const GA_BYTES = readFileSync(sharedPath('mirror/sst/GAR2026Q2FEB19.csv'))
const WI_BYTES = readFileSync(sharedPath('mirror/sst/WIR2026Q2FEB18.csv'))
const GA = decodeText(GA_BYTES, 'GAR2026Q2FEB19.csv')
const WI = decodeText(WI_BYTES, 'WIR2026Q2FEB18.csv')
const MN = decodeText(extractMember(readFileSync(sharedPath('mirror/sst/MNR2026Q2FEB18.zip')), 'MNR2026Q2FEB18.zip').bytes, 'MNR2026Q2FEB18.csv')

const linesOf = (text: string) => text.split(/\r?\n/).filter((line) => line !== '')
const GA_LINES = linesOf(GA)
const GA_STATE_LINE = GA_LINES.find((line) => line.startsWith('13,45,'))!
/** The first real GA county row. */
const GA_COUNTY_LINE = GA_LINES.find((line) => line.startsWith('13,00,'))!

function withField(line: string, index: number, value: string): string {
  const fields = line.split(',')
  fields[index] = value
  return fields.join(',')
}

describe('parseRateFile on the real files', () => {
  it.each([
    ['GAR2026Q2FEB19.csv', GA],
    ['WIR2026Q2FEB18.csv', WI],
    ['MNR2026Q2FEB18.csv', MN],
  ])('%s: every line parses, nothing rejected', (name, text) => {
    const result = parseRateFile(text)
    expect(result.rejected).toEqual([])
    expect(result.rowsRead).toBe(linesOf(text).length)
    expect(result.rows.length).toBe(result.rowsRead)
    expect(() => assertRateFileHealthy(result, name)).not.toThrow()
  })

  it('GA state row: 0.04 general → 4000 units, food 0, open-ended', () => {
    const [fips, type, code, general, , food, , from] = GA_STATE_LINE.split(',')
    const row = parseRateFile(GA).rows.find((r) => r.typeCode === '45')!
    expect(row).toMatchObject({ stateFips: fips, typeCode: type, code, generalIntra: 4000, foodIntra: 0, to: null })
    expect(general).toBe('0.04')
    expect(food).toBe('0')
    expect(row.from).toBe(`${from.slice(0, 4)}-${from.slice(4, 6)}-${from.slice(6)}`)
  })

  it('keeps codes as text with leading zeros (MN county 053, GA city 04000)', () => {
    expect(parseRateFile(MN).rows.some((r) => r.typeCode === '00' && r.code === '053')).toBe(true)
    expect(parseRateFile(GA).rows.some((r) => r.typeCode === '01' && r.code === '04000')).toBe(true)
  })

  it("rates are exact integers: MN's 0.06875 state rate is 6875 and 0.00625 is 625", () => {
    const rows = parseRateFile(MN).rows
    expect(rows.find((r) => r.typeCode === '45')?.generalIntra).toBe(6875)
    const line = linesOf(MN).find((l) => l.includes(',0.00625,'))!
    expect(rows.find((r) => r.code === line.split(',')[2])?.generalIntra).toBe(625)
  })
})

describe('rate-file pitfalls', () => {
  it('P1 UTF-8 BOM: plain and zipped (zipped case in archive.test.ts)', () => {
    const withBom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), WI_BYTES])
    const decoded = decodeText(withBom, 'WIR2026Q2FEB18.csv')
    expect(decoded.charCodeAt(0)).not.toBe(0xfeff)
    expect(parseRateFile(decoded).rows).toEqual(parseRateFile(WI).rows)

    // The tokenizer also drops one leading U+FEFF; a doubled BOM (a file saved twice) still glues
    // one to the first field, and then the file must fail rather than lose its first row.
    expect(parseRateFile('\uFEFF' + WI).rows).toEqual(parseRateFile(WI).rows)
    const glued = parseRateFile('\uFEFF\uFEFF' + WI)
    expect(glued.rejected).toEqual([{ line: 1, reason: expect.stringMatching(/stateFips/) }])
    expect(() => assertRateFileHealthy(glued, 'WIR2026Q2FEB18.csv')).toThrow(/first record/)
  })

  it('P1/P4 an invalid first record fails the file even when it is under 1% of rows', () => {
    const lines = linesOf(WI)
    const result = parseRateFile([lines[0].split(',').reverse().join(','), ...lines.slice(1)].join('\n'))
    expect(result.rejected).toHaveLength(1)
    expect(() => assertRateFileHealthy(result, 'WIR2026Q2FEB18.csv')).toThrow(/first record/)
  })

  it('P4 a 10-column rate row is rejected with a reason, never passed through', () => {
    const lines = linesOf(MN)
    const tenColumns = lines.map((line) => `${line},0.0050`)
    const result = parseRateFile(tenColumns.join('\r\n'))
    expect(result.rows).toEqual([])
    expect(result.rejected).toHaveLength(lines.length)
    expect(result.rejected[0].reason).toMatch(/10 fields, expected 9/)
    expect(() => assertRateFileHealthy(result, 'MNR2026Q2FEB18.csv')).toThrow()

    // One drifted row among good ones is still reported, row by row.
    const one = parseRateFile([...lines.slice(0, 50), `${lines[50]},X`, ...lines.slice(51)].join('\r\n'))
    expect(one.rejected).toEqual([{ line: 51, reason: expect.stringMatching(/10 fields/) }])
    expect(one.rows).toHaveLength(lines.length - 1)
  })

  it('P4 rows with fewer than 9 fields are rejected, and a changed layout fails the file', () => {
    const short = GA_LINES.map((line) => line.split(',').slice(0, 8).join(','))
    const result = parseRateFile(short.join('\n'))
    expect(result.rejected[0].reason).toMatch(/8 fields, expected 9/)
    expect(() => assertRateFileHealthy(result, 'GAR2026Q2FEB19.csv')).toThrow()
  })

  it('more than 1% rejected rows fails the file; at most 1% passes with the rows reported', () => {
    const lines = linesOf(WI) // 1,941 rows: 19 bad rows are under 1%, 20 are over
    const broken = (count: number) => lines.map((line, i) => (i > 0 && i <= count ? withField(line, 3, 'x') : line)).join('\n')
    const under = parseRateFile(broken(19))
    expect(under.rejected).toHaveLength(19)
    expect(() => assertRateFileHealthy(under, 'WI')).not.toThrow()
    expect(() => assertRateFileHealthy(parseRateFile(broken(20)), 'WI')).toThrow(/20 of 1941/)
  })

  it('zero rows parsed fails the file; trailing empty lines are fine', () => {
    expect(() => assertRateFileHealthy(parseRateFile(''), 'empty.csv')).toThrow(/no valid rate rows/)
    const trailing = parseRateFile(GA + '\n\n\r\n')
    expect(trailing.rowsRead).toBe(GA_LINES.length)
    expect(trailing.rejected).toEqual([])
  })

  it('P9 end-date sentinels: 29991231 and 99991231 are open, 20781231 is a real date', () => {
    const rows = parseRateFile(
      [withField(GA_STATE_LINE, 8, '29991231'), withField(GA_STATE_LINE, 8, '99991231'), withField(GA_STATE_LINE, 8, '20781231')].join('\n'),
    ).rows
    expect(rows.map((r) => r.to)).toEqual([null, null, '2078-12-31'])
    // Both real sentinels occur in the real files.
    expect(GA_STATE_LINE.endsWith(',29991231')).toBe(true)
    expect(parseRateFile(WI).rows.some((r) => r.to === null)).toBe(linesOf(WI).some((l) => l.endsWith(',99991231')))
  })

  it('P9 impossible dates and reversed windows are rejected', () => {
    const result = parseRateFile([withField(GA_STATE_LINE, 7, '20110231'), withField(withField(GA_STATE_LINE, 7, '20200101'), 8, '20191231')].join('\n'))
    expect(result.rows).toEqual([])
    expect(result.rejected.map((r) => r.reason)).toEqual([expect.stringMatching(/from: not a begin date/), expect.stringMatching(/begin date after end date/)])
  })

  it('P10 blank rate columns: general blank rejects the row, food/drug blank is null (never 0)', () => {
    const blank = (index: number) => parseRateFile(withField(GA_COUNTY_LINE, index, ''))
    expect(blank(3).rejected[0].reason).toMatch(/generalIntra/)
    expect(blank(4).rejected[0].reason).toMatch(/generalInter/)
    const foodIntraBlank = blank(5).rows[0]
    expect(foodIntraBlank.foodIntra).toBeNull()
    expect(foodIntraBlank.foodInter).toBe(parseRateFile(GA_COUNTY_LINE).rows[0].foodInter)
    expect(blank(6).rows[0].foodInter).toBeNull()
    expect(blank(7).rejected[0].reason).toMatch(/from/)
    expect(blank(8).rejected[0].reason).toMatch(/to/)
    // The real state row's food rate of 0 stays 0: a stated zero, not a blank.
    expect(parseRateFile(GA_STATE_LINE).rows[0].foodIntra).toBe(0)
  })

  it('P11 a quoted field containing a comma stays one field (9 fields, not 10)', () => {
    const quoted = withField(GA_COUNTY_LINE, 2, '"121,5"')
    const result = parseRateFile(quoted)
    expect(result.rejected).toHaveLength(1)
    expect(result.rejected[0].reason).toMatch(/^code:/)
    const quotedCode = parseRateFile(withField(GA_COUNTY_LINE, 2, '"121"'))
    expect(quotedCode.rows[0].code).toBe('121')
  })

  it('P11 bytes that are not UTF-8 decode as windows-1252; U+FFFD is never returned', () => {
    const latin1 = Buffer.from('13,01,04000,0.019,0.019,0.019,0.019,20221001,29991231\nSaint-Jérôme', 'latin1')
    expect(decodeText(latin1, 'x.csv').endsWith('Saint-Jérôme')).toBe(true)
    const damaged = Buffer.concat([GA_BYTES, Buffer.from('13,01,\uFFFD', 'utf8')])
    expect(() => decodeText(damaged, 'GAR2026Q2FEB19.csv')).toThrow(/GAR2026Q2FEB19\.csv.*U\+FFFD at line 450/)
  })

  it("P13 type codes '0' and '1' are padded to '00' and '01'", () => {
    const rows = parseRateFile([withField(GA_COUNTY_LINE, 1, '0'), withField(GA_COUNTY_LINE, 1, '1')].join('\n')).rows
    expect(rows.map((r) => r.typeCode)).toEqual(['00', '01'])
  })

  it('P12 history in one file: the GA rows active on 2026-04-01 differ from those on 2020-01-01', () => {
    const rows = parseRateFile(GA).rows
    const activeOn = (date: string) => rows.filter((row) => isActiveOn(row, date))
    const key = (row: (typeof rows)[number]) => `${row.typeCode}:${row.code}`
    for (const date of ['2020-01-01', '2026-04-01']) {
      const active = activeOn(date)
      // No jurisdiction has two overlapping windows on one date.
      expect(new Set(active.map(key)).size, date).toBe(active.length)
    }
    const atlanta = (date: string) => activeOn(date).find((row) => row.typeCode === '01' && row.code === '04000')
    const atlantaLines = GA_LINES.filter((line) => line.startsWith('13,01,04000,'))
    expect(atlantaLines.length).toBeGreaterThan(1)
    expect(atlanta('2022-06-01')?.generalIntra).not.toBe(atlanta('2026-04-01')?.generalIntra)
    const closed = rows.filter((row) => row.to !== null && row.to < '2026-04-01')
    expect(closed.length).toBeGreaterThan(0)
    expect(activeOn('2026-04-01').length).toBe(rows.length - closed.length - rows.filter((row) => row.from > '2026-04-01').length)
  })
})
