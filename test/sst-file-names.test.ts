import { readdirSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { parseListing, parseSstFileName, pickLatest } from '../pipeline/feeds/sst-file-names.ts'
import { sharedPath } from './support/shared.ts'

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

  it('P2 a posting month after the quarter belongs to the previous year', () => {
    expect(parseSstFileName('GAR2026Q1DEC1.csv')?.posted).toBe('2025-12-01')
    expect(parseSstFileName('GAR2026Q3SEP15.csv')?.posted).toBe('2026-09-15')
    expect(parseSstFileName('GAR2026Q3OCT15.csv')?.posted).toBe('2025-10-15')
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

  it('P2 parseListing pulls file names out of an HTML index page', () => {
    const html = `<html><body><h1>Index of /ratesandboundry/Rates</h1>
      <a href="../">Parent</a>
      <a href="/ratesandboundry/Rates/WYR2026Q2APR1.csv">WYR2026Q2APR1.csv</a>
      <a HREF='https://www.streamlinedsalestax.org/ratesandboundry/Rates/KYR2012Q4Aug13.csv?v=2'>KY</a>
      <a href=WYR2026Q3JUN2.CSV>WY Q3</a>
      <a href="/ratesandboundry/Rates/WYR2026Q2APR1.csv">again</a>
      <a href="/ratesandboundry/Rates/MNR2026Q2FEB18%2Ezip">MN</a>
    </body></html>`
    const names = parseListing(html)
    expect(names).toEqual(['WYR2026Q2APR1.csv', 'KYR2012Q4Aug13.csv', 'WYR2026Q3JUN2.CSV', 'MNR2026Q2FEB18.zip'])
    expect(pickLatest(names, 'WY', 'rate')?.name).toBe('WYR2026Q3JUN2.CSV')
  })
})
