// The links of the publishers' pages as pipeline/fetch/html-links.ts reads them, on the page shapes
// of test/support/publisher-pages.ts (publisher-evidence.md A.2, B, D), through to what each feed
// kind takes from them.
import { readdirSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { linkedFileName, linkedFiles, pageLinks } from '../pipeline/fetch/html-links.ts'
import { coWorkbookLinks } from '../pipeline/feeds/co-dor/links.ts'
import { chartLinks, yearPages } from '../pipeline/feeds/mo-dor/links.ts'
import { grtDatasetLinks } from '../pipeline/feeds/nm-trd-grt/links.ts'
import { pickLatest } from '../pipeline/feeds/sst/file-names.ts'
import { apacheIndexHtml, cdtfaRatesPageHtml, coRatesPageHtml, iisListingHtml, moRateTablesPageHtml, moYearPageHtml, nmDataDownloadPage, nmPeriodTitle } from './support/publisher-pages.ts'
import { sharedPath } from './support/shared.ts'

const SST_HOST = 'www.streamlinedsalestax.org'
const RATES_DIR = '/ratesandboundry/Rates/'

describe('index pages', () => {
  it('P2 the SST IIS listing: uppercase root-relative HREFs, the parent link left out, one entry per name in page order', () => {
    const names = [...readdirSync(sharedPath('mirror', 'sst')), 'KYR2012Q4Aug13.csv', 'WYR2026Q4AUG20.CSV']
    const files = linkedFiles(iisListingHtml(SST_HOST, RATES_DIR, names))
    expect(files.map((file) => file.name)).toEqual([...names].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())))
    expect(files.every((file) => file.href === `${RATES_DIR}${file.name}`)).toBe(true)
    expect(pickLatest(files.map((file) => file.name), 'WY', 'rate')?.name).toBe('WYR2026Q4AUG20.CSV')
  })

  it('D an Apache index: relative percent-encoded hrefs decoded to names, its sort links and parent directory left out', () => {
    const listed = ['tl_2023_01_bg.zip', 'zcta place 2020.txt', 'tab20_zcta520_county20_natl.txt'].map((name, i) => ({ name, size: 1024 * (i + 1) * 900, modified: new Date(Date.UTC(2023, 10, 22 + i)) }))
    const html = apacheIndexHtml('/geo/docs/maps-data/data/rel2020/', listed)
    expect(pageLinks(html).filter((link) => link.href.startsWith('?C='))).toHaveLength(4)
    const files = linkedFiles(html)
    expect(files.map((file) => file.name)).toEqual(listed.map((file) => file.name).sort())
    expect(files.find((file) => file.name === 'zcta place 2020.txt')?.href).toBe('zcta%20place%202020.txt')
  })

  it('P2 any quoting and case of the attribute, absolute links with a query, an encoded dot, a name linked twice', () => {
    const html = `<html><body><h1>Index of /ratesandboundry/Rates</h1>
      <a href="../">Parent</a>
      <a href="/ratesandboundry/Rates/WYR2026Q2APR1.csv">WYR2026Q2APR1.csv</a>
      <a HREF='https://www.streamlinedsalestax.org/ratesandboundry/Rates/KYR2012Q4Aug13.csv?v=2'>KY</a>
      <a href=WYR2026Q3JUN2.CSV>WY Q3</a>
      <a href="/ratesandboundry/Rates/WYR2026Q2APR1.csv">again</a>
      <a href="/ratesandboundry/Rates/MNR2026Q2FEB18%2Ezip">MN</a>
    </body></html>`
    const names = linkedFiles(html).map((file) => file.name)
    expect(names).toEqual(['WYR2026Q2APR1.csv', 'KYR2012Q4Aug13.csv', 'WYR2026Q3JUN2.CSV', 'MNR2026Q2FEB18.zip'])
    expect(linkedFileName('https://host/dir/GAR2026Q2FEB19.csv#top')).toBe('GAR2026Q2FEB19.csv')
    expect(linkedFileName('/dir/bad%E0%A4%A.csv')).toBe('bad%E0%A4%A.csv')
  })
})

describe('rates pages read by link text', () => {
  it('CDTFA: the workbook among the site navigation, entities in the page decoded', () => {
    const html = cdtfaRatesPageHtml(['/taxes-and-fees/SalesTaxRates1-1-26.xlsx'])
    expect(pageLinks(html)).toContainEqual({ href: '/taxes-and-fees/SalesTaxRates1-1-26.xlsx', text: 'Effective Sales and Use Tax Rates by City and County (Excel)' })
    expect(linkedFiles(html).map((file) => file.name)).toEqual(['cdtfa105.pdf', 'SalesTaxRates1-1-26.xlsx', 'rates.aspx'])
  })

  it('Missouri: year pages by path, and each XLS chart by its period, the PDF copy beside it left out', () => {
    const landing = 'https://dor.mo.gov/taxation/business/tax-types/sales-use/rate-tables/'
    expect(yearPages(pageLinks(moRateTablesPageHtml([2025, 2026, 2019])), landing).map((page) => page.year)).toEqual([2026, 2025, 2019])
    const year = `${landing}2026/`
    const charts = chartLinks(pageLinks(moYearPageHtml([['10/2026 - 12/2026 - XLS', 'oct2026.xlsx'], ['07/2026 - 09/2026 - XLS', 'jul2026.xlsx']])), year)
    expect(charts).toEqual([
      { href: 'https://dor.mo.gov/forms/oct2026.xlsx', from: '2026-10-01', through: '2026-12-31', text: '10/2026 - 12/2026 - XLS' },
      { href: 'https://dor.mo.gov/forms/jul2026.xlsx', from: '2026-07-01', through: '2026-09-30', text: '07/2026 - 09/2026 - XLS' },
    ])
  })

  it('Colorado: each workbook by the half-year in its text, its PDF twin of the same text left out', () => {
    const html = coRatesPageHtml([
      ['DR 1002 Colorado Sales/Use Tax Rates: July to December 2026', 'Colorado_Jurisdiction_Codes_Rates_July-Dec2026.xlsx'],
      ['DR 1002 Colorado Sales/Use Tax Rates: January to June 2026', 'Colorado_Jurisdiction_Codes_Rates_Jan-June2026_Apr26.xlsx'],
    ])
    expect(coWorkbookLinks(pageLinks(html), 'https://tax.colorado.gov/how-to-look-up-sales-use-tax-rates').map((link) => [link.from, link.href])).toEqual([
      ['2026-07-01', 'https://tax.colorado.gov/sites/tax/files/documents/Colorado_Jurisdiction_Codes_Rates_July-Dec2026.xlsx'],
      ['2026-01-01', 'https://tax.colorado.gov/sites/tax/files/documents/Colorado_Jurisdiction_Codes_Rates_Jan-June2026_Apr26.xlsx'],
    ])
  })

  it('New Mexico: each half-year dataset by its title, its uuid from the RGIS link', () => {
    const html = nmDataDownloadPage([{ uuid: 'c2f1e3a4-0b5d-4e6f-9a7b-8c9d0e1f2a3b', title: nmPeriodTitle(2026, 2) }])
    expect(grtDatasetLinks(pageLinks(html), 'https://www.tax.newmexico.gov/businesses/geographic-information-system-gis/data-download/')).toEqual([
      { uuid: 'c2f1e3a4-0b5d-4e6f-9a7b-8c9d0e1f2a3b', from: '2026-07-01', through: '2026-12-31', text: nmPeriodTitle(2026, 2) },
    ])
  })

  it('a link text is read as a browser shows it: markup inside dropped, entities decoded, white space collapsed; a commented-out link is none', () => {
    const html = `<ul>
      <!-- <li><a href="/forms/apr2026.xlsx">04/2026 - 06/2026 - XLS</a></li> -->
      <li><A class="doc" title="chart &gt; XLS" HREF="/forms/oct2026.xlsx"><span class="period">10/2026&nbsp;-
        12/2026</span> - <b>XLS</b></a></li>
      <li><a name="top">no href</a></li>
    </ul>`
    expect(pageLinks(html)).toEqual([{ href: '/forms/oct2026.xlsx', text: '10/2026 - 12/2026 - XLS' }])
    expect(chartLinks(pageLinks(html), 'https://dor.mo.gov/')).toHaveLength(1)
  })
})
