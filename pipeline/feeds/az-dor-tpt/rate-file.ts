// Arizona DOR's transaction privilege tax rate table TPT_RATETABLE_ALL_MMDDYYYY.csv
// (docs/data-sources.md#arizona): CSV (UTF-8 with a BOM, stripped by text-decoding.ts), read by its
// header names RegionCode, RegionName, BusinessCode, BusinessCodesName, TaxRate, TaxRateType,
// RateStartDate, RateEndDate (found in the first rows, compared without case, spaces or
// punctuation); one row per region and business code over a dated window (M/D/YYYY, an open end
// written 12/31/9999). Only retail (business code 017) is kept. The unit of TaxRate is its
// TaxRateType's, never guessed from the size of the number: a retail row of another type is set
// aside, as is any row that does not fit (set-aside.ts).
import Papa from 'papaparse'
import { parseRatePercent } from '../../../snapshot-contract/rate-units.ts'
import { findHeaderRow } from '../header-row.ts'
import { SetAsideRows, wholeOrMore } from '../set-aside.ts'
import { slashDateIso } from '../printed-dates.ts'

export const AZ_RETAIL = '017'
/** The 15 county region codes (publisher-evidence B, AZ row); every other 3-letter code is a special region. */
export const AZ_COUNTY_CODES = new Set(['APA', 'COH', 'COC', 'GLA', 'GRA', 'GRN', 'LAP', 'MAR', 'MOH', 'NAV', 'PMA', 'PNL', 'STC', 'YAV', 'YMA'])
const COLUMNS = { region: 'RegionCode', name: 'RegionName', business: 'BusinessCode', businessName: 'BusinessCodesName', rate: 'TaxRate', type: 'TaxRateType', from: 'RateStartDate', to: 'RateEndDate' } as const
type Column = keyof typeof COLUMNS
const HEADER_SEARCH_ROWS = 10
const OPEN_END = '9999-12-31'

export type AzRow = { line: number; region: string; name: string; rate: number; from: string; to: string | null }
export type AzTptFile = { fileName: string; rows: AzRow[]; rowsRead: number; setAside: SetAsideRows }

const isoOf = (text: string): string | null => {
  const match = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(text.trim())
  return match ? slashDateIso(match[1]!, match[2]!, match[3]!) : null
}

export function parseAzTptFile(text: string, fileName: string): AzTptFile {
  const data = Papa.parse<string[]>(text, { header: false, skipEmptyLines: 'greedy' }).data
  const header = findHeaderRow(data, fileName, { columns: COLUMNS, searchRows: HEADER_SEARCH_ROWS, what: 'the TPT rate table' })
  const rows: AzRow[] = []
  const setAside = new SetAsideRows(fileName)
  let retail = 0
  for (let i = header.at + 1; i < data.length; i++) {
    const record = data[i]!
    const cell = (column: Column) => (record[header.index[column]] ?? '').trim()
    if (cell('business') !== AZ_RETAIL) continue
    retail++
    const where = `line ${i + 1}`
    const region = cell('region')
    const type = cell('type')
    // a county row set aside names its county (a city's name can be a county's: MP Maricopa)
    const county = AZ_COUNTY_CODES.has(region) ? cell('name') : null
    if (type.toLowerCase() !== 'percent') {
      setAside.add(where, `retail rate of ${region} is of type ${JSON.stringify(type)}, not Percent: a per-unit rate where a percent is expected`, undefined, county)
      continue
    }
    const rate = parseRatePercent(cell('rate'))
    const from = isoOf(cell('from'))
    const end = isoOf(cell('to'))
    const window = { from, to: end === OPEN_END ? null : end }
    if (!rate.ok) setAside.add(where, `${region} TaxRate ${rate.reason}`, window, county)
    else if (wholeOrMore(rate.units)) setAside.add(where, `${region} TaxRate ${wholeOrMore(rate.units)}`, window, county)
    else if (!from || !end) setAside.add(where, `${region} dates ${cell('from')}–${cell('to')} are not M/D/YYYY`, window, county)
    else rows.push({ line: i + 1, region, name: cell('name'), rate: rate.units, from, to: window.to })
  }
  setAside.assertWithinShare(retail)
  if (rows.length === 0) throw new Error(`${fileName}: no retail (business code ${AZ_RETAIL}) rows${setAside.count ? ` (${setAside.notes()[0]})` : ''}`)
  return { fileName, rows, rowsRead: data.length - header.at - 1, setAside }
}
