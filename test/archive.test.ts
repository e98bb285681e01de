import { readFileSync } from 'node:fs'
import { strToU8, zipSync } from 'fflate'
import { describe, expect, it } from 'vitest'
import { assertArchiveWithinLimits, extractMember, memberChunks, readMembers } from '../pipeline/fetch/archive.ts'
import { INPUT_LIMITS } from '../pipeline/fetch/input-limits.ts'
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

describe('archives are inflated within bounds (#42)', () => {
  const MN_MEMBER = extractMember(MN_ZIP, 'MNR2026Q2FEB18.zip').bytes
  // The real MN rate file followed by 100 MiB of blanks: it inflates about a thousandfold, as a ZIP bomb does.
  const bomb = zipSync({ 'MNR2026Q2FEB18.csv': [Buffer.concat([MN_MEMBER, Buffer.alloc(100 * 1024 * 1024, 0x20)]), { level: 9 }] })

  it('a ZIP bomb is refused once its ratio passes the limit, whether read whole, in chunks or checked', () => {
    expect(bomb.length * INPUT_LIMITS.inflateRatio).toBeLessThan(100 * 1024 * 1024)
    const refused = /MNR2026Q2FEB18\.zip: member MNR2026Q2FEB18\.csv inflates \d+ times its compressed size \(\d+\.\d MiB so far\), over the 200 a data file may reach: a ZIP bomb, refused/
    expect(() => extractMember(bomb, 'MNR2026Q2FEB18.zip')).toThrow(refused)
    expect(() => assertArchiveWithinLimits(bomb, 'MNR2026Q2FEB18.zip')).toThrow(refused)
    let taken = 0
    expect(() => {
      for (const chunk of memberChunks(bomb, 'MNR2026Q2FEB18.zip', 'MNR2026Q2FEB18.csv')) taken += chunk.length
    }).toThrow(refused)
    // the chunks before the refusal came out, not the member whole
    expect(taken).toBeLessThan(100 * 1024 * 1024)
  })

  it('a member past the size it may have is refused while it inflates, at a data file\'s ratio too', () => {
    const rows = Buffer.concat(Array.from({ length: 40 }, () => MN_MEMBER))
    const zip = zipSync({ 'MNR2026Q2FEB18.csv': rows })
    expect(readMembers(zip, 'MNR2026Q2FEB18.zip', () => true, rows.length)['MNR2026Q2FEB18.csv']).toEqual(new Uint8Array(rows))
    expect(() => readMembers(zip, 'MNR2026Q2FEB18.zip', () => true, rows.length - 1)).toThrow(/MNR2026Q2FEB18\.zip: member MNR2026Q2FEB18\.csv inflates past 0\.3 MiB, the most such a member may have/)
  })

  it('chunks of a member join to the member; a truncated archive and one that is no archive are named', () => {
    const zip = zipSync({ 'GA/readme.txt': strToU8('notes'), 'GAR2026Q2FEB19.csv': GA })
    expect(Buffer.concat([...memberChunks(zip, 'GAR2026Q2FEB19.zip', 'GAR2026Q2FEB19.csv')]).equals(GA)).toBe(true)
    expect(() => readMembers(MN_ZIP.subarray(0, 600), 'MNR2026Q2FEB18.zip', () => true)).toThrow(/^MNR2026Q2FEB18\.zip: /)
    expect(() => extractMember(GA, 'GAR2026Q2FEB19.zip')).toThrow(/GAR2026Q2FEB19\.zip: not a readable ZIP archive/)
  })
})
