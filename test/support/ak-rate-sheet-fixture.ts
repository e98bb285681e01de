// ARSSTC's sales tax rate sheet built from its documented layout (publisher-evidence B, AK row;
// docs/data-sources.md#alaska): "As of M/D/YYYY" in row 1 column M, a policy note in row 3, the header
// in row 4 (columns A–M, filing codes and dates between the rates), rates as decimal fractions, a
// row per borough and per city with borough + city = total. Ketchikan 2.5% + 5.5% = 8% is the
// evidence's; the other rates and codes are the fixture's own. The variants of publisher-evidence E6 are
// built too: notes and other text below the member rows, and a borough spelled "City & Borough of …".
import writeXlsxFile from 'write-excel-file/node'

export const AK_HEADER = [
  'Borough / Census Tract Name', 'Borough Tax Rate', 'Tax Filing Code', 'Date adopted Remote Sellers Code', 'Remote Sellers Tax Collection Start Date', 'Tax Rate Effective Date',
  'City/Taxing Area', 'City / Taxing Area Sales Tax Rate', 'Tax Filing Code', 'Date adopted Remote Sellers Code', 'Remote Sellers Tax Collection Start Date', 'Tax Rate Effective Date', 'Sales Tax Rate Total',
]

/** A borough row (no city) or a city row; rates as fractions (numbers) or as written (strings). */
export type AkSheetRow = { borough: string; boroughRate?: number | string; city?: string; cityRate?: number | string; total: number | string }

export const AK_ROWS: AkSheetRow[] = [
  { borough: 'Ketchikan Gateway Borough', boroughRate: 0.025, total: 0.025 },
  { borough: 'Ketchikan Gateway Borough', boroughRate: 0.025, city: 'Ketchikan', cityRate: 0.055, total: 0.08 },
  { borough: 'Ketchikan Gateway Borough', boroughRate: 0.025, city: 'Saxman', cityRate: 0.04, total: 0.065 },
  { borough: 'Kenai Peninsula Borough', boroughRate: 0.03, total: 0.03 },
  { borough: 'Kenai Peninsula Borough', boroughRate: 0.03, city: 'Kenai', cityRate: 0.035, total: 0.065 },
  { borough: 'Kenai Peninsula Borough', boroughRate: 0.03, city: 'Soldotna', cityRate: 0.03, total: 0.06 },
  { borough: 'Kenai Peninsula Borough', boroughRate: 0.03, city: 'Atlantis', cityRate: 0.02, total: 0.05 },
  { borough: 'City and Borough of Juneau', boroughRate: 0.05, total: 0.05 },
  { borough: 'Matanuska-Susitna Borough', city: 'Wasilla', cityRate: 0.025, total: 0.025 },
  { borough: 'Bethel Census Area', city: 'Bethel', cityRate: 0.06, total: 0.06 },
]

export type AkSheetOptions = {
  asOf?: string
  titleRows?: number
  header?: string[]
  merged?: boolean
  /** E6: text rows below the member rows (notes), in column A */
  notes?: string[]
}

/** E6: notes below the table (the wording is the fixture's own). */
export const AK_NOTES = ['Notes:', 'Rates are subject to change; check with the jurisdiction before collecting.', 'Seasonal rates apply in some member jurisdictions.']

/** E6: the rows with Juneau spelled with an ampersand. */
export const AK_ROWS_AMPERSAND: AkSheetRow[] = AK_ROWS.map((r) => ({ ...r, borough: r.borough.replace('City and Borough of', 'City & Borough of') }))

/** The sheet (columns A–M in the documented order; `header` replaces only the header row); `merged` writes a borough's city rows with its name and rate blank, as merged cells read. */
export async function akRateSheet(rows: AkSheetRow[] = AK_ROWS, { asOf = '9/1/2026', titleRows = 3, header = AK_HEADER, merged = false, notes = [] }: AkSheetOptions = {}): Promise<Buffer> {
  const title = Array.from({ length: titleRows }, (_, i) => {
    const row = Array.from({ length: 13 }, () => ({ value: '' }))
    if (i === 0) row[12] = { value: `As of ${asOf}` }
    if (i === 2) row[0] = { value: 'Alaska has no statewide sales tax, and no state remote seller tax.' }
    return row
  })
  let previous = ''
  const body = rows.map((row, n) => {
    const blank = merged && row.city !== undefined && row.borough === previous
    previous = row.borough
    const cells = [blank ? '' : row.borough, blank ? '' : (row.boroughRate ?? ''), row.boroughRate ? `${3000 + n}` : '', '', '', '', row.city ?? '', row.cityRate ?? '', row.city ? `${40000 + n}` : '', '', '', '', row.total]
    return cells.map((value) => ({ value }))
  })
  const below = notes.map((note) => [{ value: note }])
  return writeXlsxFile([...title, header.map((value) => ({ value })), ...body, [{ value: '' }], ...below] as never).toBuffer()
}

/** ARSSTC's tax rates page: the sheets linked from its uploads, beside the member list and other pages. */
export const akTaxRatesPage = (files: string[]) =>
  `<!DOCTYPE html><html><head><title>Tax Rates - ARSSTC</title></head><body><h1>Tax Rates</h1>${files
    .map((file) => `<p><a href="https://arsstc.org/wp-content/uploads/2026/09/${file}">Sales Tax Rate Sheet</a></p>`)
    .join('')}<p><a href="https://arsstc.org/business-sellers/member-jurisdictions/">Member jurisdictions</a></p></body></html>`
