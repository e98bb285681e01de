// Florida DOR's surtax workbook built from its documented layout (docs/data-sources.md#florida):
// first sheet, column A the county name in upper case, column B the surtax, a footer "Rates shown
// above are current as of M/D/YYYY". The surtax is written as `N%` text (documented) or as a
// percent-formatted fraction (what a spreadsheet may hold; unconfirmed which PointMatch serves).
import writeXlsxFile from 'write-excel-file/node'

/** CY2026 figures the evidence gives (OST st:fl_data, TaxAP); every other county at the fixture's 1%. */
export const FL_SURTAX: Record<string, number> = { 'PALM BEACH': 0.5, COLLIER: 0, HAMILTON: 2, 'MIAMI-DADE': 1 }
export const FL_DEFAULT_SURTAX = 1

/**
 * The FL surtax-range conflict of the evidence (publisher-evidence.md, FL row and open question 7):
 * TaxAP saw Hamilton at 8.0% total, a 2% surtax. Written where the surtax stands, the total is a
 * cell no surtax can be: one odd row.
 */
export const HAMILTON_TOTAL_IN_SURTAX_CELL: Record<string, string> = { HAMILTON: '8%' }

/**
 * Every surtax a bare percent number (1 for 1%), where the documented forms are `N%` text or a
 * percent-formatted fraction: a unit change, every row odd.
 */
export const percentNumbersInSurtaxCells = (counties: string[]): Record<string, number> =>
  Object.fromEntries(counties.map((county) => [county, FL_SURTAX[county] ?? FL_DEFAULT_SURTAX]))

export type FlWorkbookOptions = {
  counties: string[]
  form?: 'text' | 'fraction'
  asOf?: string | null
  /** cells replacing a county's surtax cell, as written */
  surtax?: Record<string, string | number>
  /** extra rows after the counties (a heading row moved below them) */
  trailing?: string[][]
}

export async function flSurtaxWorkbook(options: FlWorkbookOptions): Promise<Buffer> {
  const rows: { value: string | number; format?: string }[][] = [[{ value: 'County' }, { value: 'Surtax Rate' }]]
  for (const county of options.counties) {
    const percent = FL_SURTAX[county] ?? FL_DEFAULT_SURTAX
    const given = options.surtax?.[county]
    const cell = given !== undefined ? { value: given } : options.form === 'fraction' ? { value: percent / 100, format: '0.0%' } : { value: `${percent}%` }
    rows.push([{ value: county }, cell])
  }
  for (const row of options.trailing ?? []) rows.push(row.map((value) => ({ value })))
  if (options.asOf !== null) rows.push([{ value: `Rates shown above are current as of ${options.asOf ?? '1/1/2026'}` }])
  return writeXlsxFile(rows as never).toBuffer()
}

/** The fields PointMatch's form sends back for "Download All": its hidden state and the button, as decoded. */
export const POINTMATCH_DOWNLOAD_FIELDS = { __VIEWSTATE: 'dDwtMTA4&x', __EVENTVALIDATION: '/wEdAAK', ctl00$MainContent$btnDownloadAll: 'Download All' }

/** PointMatch's surtax page: an ASP.NET form with its hidden state fields (entity-encoded) and a submit button labelled `button`. */
export const pointMatchPage = (button = 'Download All') =>
  `<html><body><form method="post"><input type="hidden" name="__VIEWSTATE" value="dDwtMTA4&amp;x" /><input type="hidden" name="__EVENTVALIDATION" value="/wEdAAK" /><input type="submit" name="ctl00$MainContent$btnDownloadAll" value="${button}" /></form></body></html>`
