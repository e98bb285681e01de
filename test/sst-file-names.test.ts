import { readdirSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { parseSstFileName, pickLatest } from '../pipeline/feeds/sst/file-names.ts'
import { sharedPath } from './support/shared.ts'

/** Every file name publisher-evidence.md A.3 lists, with the posting date its quarter label implies. */
const NAMES_SEEN: [string, string][] = [
  ['ARB2013Q2MAY26.zip', '2013-05-26'],
  ['ARB2026Q4SEP02.zip', '2026-09-02'],
  ['ARR2026Q3JUN02.csv', '2026-06-02'],
  ['ARR2026Q4AUG28.csv', '2026-08-28'],
  ['GAB2026Q2FEB16.zip', '2026-02-16'],
  ['GAB2026Q3MAY19.zip', '2026-05-19'],
  ['GAB2026Q4AUG20.zip', '2026-08-20'],
  ['GAR2026Q2FEB19.csv', '2026-02-19'],
  ['GAR2026Q3JUN05.csv', '2026-06-05'],
  ['GAR2026Q4AUG28.csv', '2026-08-28'],
  ['IAB2026Q3MAY19.zip', '2026-05-19'],
  ['IAB2026Q4AUG31.zip', '2026-08-31'],
  ['IAR2025Q3MAY19.zip', '2025-05-19'],
  ['IAR2025Q3MAY30.zip', '2025-05-30'],
  ['INB2005Q1JAN6.csv', '2005-01-06'],
  ['INR2008Q4MAY7.csv', '2008-05-07'],
  ['KSB2026Q3MAY20.zip', '2026-05-20'],
  ['KSB2026Q4AUG19.zip', '2026-08-19'],
  ['KSR2026Q4AUG19.zip', '2026-08-19'],
  ['KYB2013Q2MAR13.csv', '2013-03-13'],
  ['KYR2012Q4Aug13.csv', '2012-08-13'],
  ['MIB2023Q1DEC15.csv', '2022-12-15'],
  ['MIR2023Q1DEC22.csv', '2022-12-22'],
  ['MNB2026Q2FEB18.zip', '2026-02-18'],
  ['MNB2026Q4AUG18.zip', '2026-08-18'],
  ['MNR2026Q2FEB18.zip', '2026-02-18'],
  ['MNR2026Q4AUG18.zip', '2026-08-18'],
  ['NCB2026Q4AUG19.zip', '2026-08-19'],
  ['NCR2026Q3APR23.csv', '2026-04-23'],
  ['NDB2026Q4AUG14.zip', '2026-08-14'],
  ['NDR2026Q4AUG14.zip', '2026-08-14'],
  ['NEB2026Q4AUG21.zip', '2026-08-21'],
  ['NER2026Q4AUG21.zip', '2026-08-21'],
  ['NJB2019Q2MAR27.csv', '2019-03-27'],
  ['NJR2018Q1OCT16.zip', '2017-10-16'],
  ['NVB2025Q4NOV05.zip', '2025-11-05'],
  ['NVR2025Q4NOV05.zip', '2025-11-05'],
  ['OHB2026Q4SEP01.zip', '2026-09-01'],
  ['OHR2026Q1NOV28.csv', '2025-11-28'],
  ['OHR2026Q4AUG27.csv', '2026-08-27'],
  ['OKB2026Q2APR01.zip', '2026-04-01'],
  ['OKB2026Q3JUN10.zip', '2026-06-10'],
  ['OKB2026Q4AUG28.zip', '2026-08-28'],
  ['OKR2026Q2FEB17.zip', '2026-02-17'],
  ['OKR2026Q3MAY29.zip', '2026-05-29'],
  ['OKR2026Q4AUG17.zip', '2026-08-17'],
  ['RIB2019Q2MAR27.csv', '2019-03-27'],
  ['RIR2019Q2MAR27.csv', '2019-03-27'],
  ['SDB2026Q4SEP08.zip', '2026-09-08'],
  ['SDR2026Q3JUN02.zip', '2026-06-02'],
  ['TNB2026Q4AUG21.zip', '2026-08-21'],
  ['TNR2025Q1MAR07.csv', '2025-03-07'],
  ['TNR2026Q3JUN11.csv', '2026-06-11'],
  ['TNR2026Q4AUG21.csv', '2026-08-21'],
  ['UTB2026Q3MAY11.zip', '2026-05-11'],
  ['UTB2026Q4AUG11.csv', '2026-08-11'],
  ['UTR2026Q4AUG11.csv', '2026-08-11'],
  ['VTB2026Q2FEB20.zip', '2026-02-20'],
  ['VTB2026Q2FEB20.csv', '2026-02-20'],
  ['VTB2026Q4AUG20.zip', '2026-08-20'],
  ['VTR2026Q4AUG20.zip', '2026-08-20'],
  ['WAB2026Q4AUG27.zip', '2026-08-27'],
  ['WAR2026Q3MAY27.zip', '2026-05-27'],
  ['WAR2026Q4AUG27.zip', '2026-08-27'],
  ['WIB2026Q4AUG17.zip', '2026-08-17'],
  ['WIR2026Q2FEB18.csv', '2026-02-18'],
  ['WIR2026Q4AUG17.csv', '2026-08-17'],
  ['WVB2026Q1SEP02.csv', '2025-09-02'],
  ['WVB2026Q3APR29.csv', '2026-04-29'],
  ['WVR2026Q1AUG14.csv', '2025-08-14'],
  ['WVR2026Q3FEB25.csv', '2026-02-25'],
  ['WYB2026Q4AUG20.csv', '2026-08-20'],
  ['WYR2026Q2APR1.csv', '2026-04-01'],
  ['WYR2026Q3JUN2.CSV', '2026-06-02'],
  ['WYR2026Q4AUG20.CSV', '2026-08-20'],
]

describe('SST file names', () => {
  it('parses the real mirrored file names', () => {
    expect(parseSstFileName('GAR2026Q2FEB19.csv')).toEqual({
      name: 'GAR2026Q2FEB19.csv',
      state: 'GA',
      kind: 'rate',
      year: 2026,
      quarter: 2,
      posted: '2026-02-19',
      ext: 'csv',
      edition: '2026Q2FEB19',
    })
    expect(parseSstFileName('MNR2026Q2FEB18.zip')).toMatchObject({ state: 'MN', ext: 'zip', edition: '2026Q2FEB18' })
  })

  it('P2 filename irregularities: single-digit day, mixed-case month, upper-case extension, boundary kind', () => {
    expect(parseSstFileName('WYR2026Q2APR1.csv')).toMatchObject({ state: 'WY', posted: '2026-04-01', edition: '2026Q2APR1' })
    expect(parseSstFileName('INR2008Q4MAY7.zip')).toMatchObject({ posted: '2008-05-07', ext: 'zip' })
    expect(parseSstFileName('KYR2012Q4Aug13.csv')).toMatchObject({ state: 'KY', year: 2012, quarter: 4, posted: '2012-08-13', edition: '2012Q4AUG13' })
    expect(parseSstFileName('WYR2026Q3JUN2.CSV')).toMatchObject({ ext: 'csv', posted: '2026-06-02' })
    expect(parseSstFileName('wab2026q2feb20.zip')).toMatchObject({ state: 'WA', kind: 'boundary' })
    expect(parseSstFileName('https://www.streamlinedsalestax.org/ratesandboundry/Rates/GAR2026Q2FEB19.csv')?.name).toBe('GAR2026Q2FEB19.csv')
  })

  it('P2 the posting year is the one of the quarter\'s year and the year before closer to the quarter\'s first day', () => {
    expect(parseSstFileName('GAR2026Q1DEC1.csv')?.posted).toBe('2025-12-01')
    expect(parseSstFileName('GAR2026Q3SEP15.csv')?.posted).toBe('2026-09-15')
    // posted weeks or months ahead (publisher-evidence A.3)
    expect(parseSstFileName('WVR2026Q1AUG14.csv')?.posted).toBe('2025-08-14')
    expect(parseSstFileName('WVR2026Q3FEB25.csv')?.posted).toBe('2026-02-25')
    expect(parseSstFileName('OHR2026Q1NOV28.csv')?.posted).toBe('2025-11-28')
    // a correction after the quarter began, or after it ended, is posted in the quarter's year
    expect(parseSstFileName('GAR2026Q1APR15.csv')?.posted).toBe('2026-04-15')
    expect(parseSstFileName('GAR2026Q3OCT15.csv')?.posted).toBe('2026-10-15')
  })

  it('P2 a late correction ranks above the early posting of the same quarter', () => {
    expect(pickLatest(['GAR2026Q1DEC01.csv', 'GAR2026Q1APR15.csv'], 'GA', 'rate')?.name).toBe('GAR2026Q1APR15.csv')
    expect(pickLatest(['GAR2026Q1APR15.csv', 'GAR2026Q1DEC01.csv', 'GAR2025Q4SEP30.zip'], 'GA', 'rate')?.name).toBe('GAR2026Q1APR15.csv')
  })

  it.each(NAMES_SEEN)('P2 %s, a name seen on the real listing, parses as listed (posted %s)', (name, posted) => {
    const file = parseSstFileName(name)
    expect(file).toMatchObject({ name, posted, ext: name.slice(-3).toLowerCase() })
    // the day stays as listed: MAY7 never becomes MAY07
    expect(name.toUpperCase()).toContain(file!.edition)
  })

  it('rejects names that are not SST files or not real dates', () => {
    for (const name of ['GAR2026Q5FEB19.csv', 'GAX2026Q2FEB19.csv', 'GAR2026Q2FOO19.csv', 'GAR2026Q2FEB30.csv', 'GAR2026Q2FEB19.xlsx', 'README.txt']) {
      expect(parseSstFileName(name), name).toBeNull()
    }
  })

  it('P2 pickLatest discovers the newest file by quarter, then posting date, across .csv/.zip switches', () => {
    const names = [
      'WYR2026Q2APR1.csv',
      'WYR2026Q3JUN2.CSV',
      'WYR2026Q3JUN12.zip', // a corrected file reposted in the same quarter
      'WYR2027Q1DEC1.csv', // posted Dec 2026 for 2027Q1
      'WYB2027Q1DEC9.zip',
      'GAR2026Q2FEB19.csv',
    ]
    expect(pickLatest(names, 'WY', 'rate')?.name).toBe('WYR2027Q1DEC1.csv')
    expect(pickLatest(names.slice(0, 3), 'wy', 'rate')?.name).toBe('WYR2026Q3JUN12.zip')
    expect(pickLatest(names, 'WY', 'boundary')?.name).toBe('WYB2027Q1DEC9.zip')
    expect(pickLatest(names, 'MN', 'rate')).toBeNull()
    // Old but current: an earlier quarter is still the latest when nothing newer was posted.
    expect(pickLatest(['KYR2012Q4Aug13.csv', 'KYR2011Q1DEC1.csv'], 'KY', 'rate')?.posted).toBe('2012-08-13')
  })

  it('P2 pickLatest refuses to choose between two files of the same edition', () => {
    expect(() => pickLatest(['GAR2026Q2FEB19.csv', 'GAR2026Q2FEB19.zip'], 'GA', 'rate')).toThrow(/ambiguous/)
  })

  it('P2 the real mirror directory is a listing: names are discovered, not constructed', () => {
    const names = readdirSync(sharedPath('mirror/sst'))
    expect(pickLatest(names, 'GA', 'rate')?.name).toBe('GAR2026Q2FEB19.csv')
    expect(pickLatest(names, 'MN', 'rate')?.ext).toBe('zip')
    expect(pickLatest(names, 'WI', 'rate')?.edition).toBe('2026Q2FEB18')
  })
})
