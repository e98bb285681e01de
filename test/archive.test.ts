import { readFileSync } from 'node:fs'
import { strToU8, zipSync } from 'fflate'
import { describe, expect, it } from 'vitest'
import { extractMember } from '../pipeline/fetch/archive.ts'
import { assertRateFileHealthy, parseRateFile } from '../pipeline/feeds/sst/rate-file.ts'
import { decodeText } from '../pipeline/fetch/text-decoding.ts'
import { sharedPath } from './support/shared.ts'

const GA = readFileSync(sharedPath('mirror/sst/GAR2026Q2FEB19.csv'))
const WI = readFileSync(sharedPath('mirror/sst/WIR2026Q2FEB18.csv'))
const MN_ZIP = readFileSync(sharedPath('mirror/sst/MNR2026Q2FEB18.zip'))

describe('extractMember', () => {
  it('reads the real MN archive: one CSV named like the archive, bytes intact', () => {
    const { member, bytes } = extractMember(MN_ZIP, 'MNR2026Q2FEB18.zip')
    expect(member).toBe('MNR2026Q2FEB18.csv')
    const text = decodeText(bytes, member)
    expect(text.split('\r\n')[0]).toMatch(/^27,/)
    const rates = parseRateFile(text)
    expect(() => assertRateFileHealthy(rates, member)).not.toThrow()
    expect(rates.rows.length).toBe(text.split('\r\n').filter((line) => line !== '').length)
  })

  it('P3 two CSVs: the one named like the archive wins, case-insensitively', () => {
    const zip = zipSync({ 'gar2026q2feb19.CSV': GA, 'WIR2026Q2FEB18.csv': WI })
    const { member, bytes } = extractMember(zip, 'GAR2026Q2FEB19.zip')
    expect(member).toBe('gar2026q2feb19.CSV')
    expect(Buffer.from(bytes).equals(GA)).toBe(true)
  })

  it('P3 two CSVs and none named like the archive: error lists the members', () => {
    const zip = zipSync({ 'rates-a.csv': GA, 'rates-b.csv': WI })
    expect(() => extractMember(zip, 'GAR2026Q2FEB19.zip')).toThrow(/rates-a\.csv, rates-b\.csv/)
  })

  it('P3 directory entries and __MACOSX junk are ignored; a lone CSV with another name is taken', () => {
    const zip = zipSync({
      'GA/': new Uint8Array(0),
      'GA/rates.csv': GA,
      '__MACOSX/GA/._rates.csv': strToU8('resource fork'),
      'GA/readme.pdf': strToU8('%PDF'),
    })
    const { member, bytes } = extractMember(zip, 'GAR2026Q2FEB19.zip')
    expect(member).toBe('GA/rates.csv')
    expect(Buffer.from(bytes).equals(GA)).toBe(true)
  })

  it('P3 no data file at all is an error naming what was there', () => {
    const zip = zipSync({ 'notes.pdf': strToU8('%PDF') })
    expect(() => extractMember(zip, 'GAR2026Q2FEB19.zip')).toThrow(/notes\.pdf/)
  })

  it('P3 a pattern narrows the data files', () => {
    const zip = zipSync({ 'rates.txt': GA, 'layout.csv': strToU8('field,width') })
    expect(extractMember(zip, 'x.zip', /\.txt$/i).member).toBe('rates.txt')
  })

  it('P1 UTF-8 BOM inside a ZIP member is stripped and the file parses as without it', () => {
    const withBom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), WI])
    const zip = zipSync({ 'WIR2026Q2FEB18.csv': withBom })
    const { member, bytes } = extractMember(zip, 'WIR2026Q2FEB18.zip')
    const rates = parseRateFile(decodeText(bytes, member))
    expect(() => assertRateFileHealthy(rates, member)).not.toThrow()
    expect(rates.rows).toEqual(parseRateFile(decodeText(WI, member)).rows)
  })
})
