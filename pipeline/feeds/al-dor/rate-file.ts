// Alabama DOR's local rates text file (docs/data-sources.md#alabama): a 13-column CSV read by header
// name (`Locality Code, Locality Name, County Number, TaxType, Rate Type, Administered, Active Date,
// Inactive Date, Rate, Indicator, PJ, County Code, PJ_Rate`; found in the first rows, compared without
// case, spaces or punctuation), published as `taxrates_current.csv` (current rows) and as
// `taxrates.csv` (current and past rows): both are read alike. Only general sales rows (`TaxType=ST`,
// `Rate Type=GENER`) are kept. `Rate` and `PJ_Rate` are local-only percents; dates are YYYYMMDD, an
// empty Inactive Date an open end. A row that does not fit is set aside (set-aside.ts).
import Papa from 'papaparse'
import { parseRatePercent } from '../../../snapshot-contract/rate-units.ts'
import { findHeaderRow } from '../header-row.ts'
import { SetAsideRows, wholeOrMore } from '../set-aside.ts'

const COLUMNS = {
  code: 'Locality Code',
  name: 'Locality Name',
  taxType: 'TaxType',
  rateType: 'Rate Type',
  from: 'Active Date',
  to: 'Inactive Date',
  rate: 'Rate',
  pj: 'PJ',
  countyCode: 'County Code',
  pjRate: 'PJ_Rate',
} as const
type Column = keyof typeof COLUMNS
const HEADER_SEARCH_ROWS = 10
/**
 * The file holds no state rate to decide the unit of `Rate` from (it is local-only): it is read as the
 * percent it is documented to be, and a column none of whose rates reaches this (0.1%) holds fractions,
 * not percents: the file fails rather than answer every local tax a hundred times too small.
 */
const LEAST_PERCENT_SEEN = 100

/** A locality code starting with 7 is a county locality; any other is a city. */
export const isCountyLocalityCode = (code: string) => /^7\d{3}$/.test(code)

export type AlRow = { line: number; code: string; name: string; countyCode: string; rate: number; pjRate: number | null; from: string; to: string | null }
export type AlRateFile = {
  fileName: string
  rows: AlRow[]
  rowsRead: number
  setAside: SetAsideRows
  /** the Locality Name of every county locality code of a general sales row, its rows set aside or not: what a city's County Code names */
  countyLocalities: Map<string, string>
}

const isoOf = (text: string): string | null => {
  const match = /^(\d{4})(\d{2})(\d{2})$/.exec(text.trim())
  return match ? `${match[1]}-${match[2]}-${match[3]}` : null
}

export function parseAlRateFile(text: string, fileName: string): AlRateFile {
  const data = Papa.parse<string[]>(text, { header: false, skipEmptyLines: 'greedy' }).data
  const header = findHeaderRow(data, fileName, { columns: COLUMNS, searchRows: HEADER_SEARCH_ROWS, what: "Alabama's local rate file" })
  const rows: AlRow[] = []
  const setAside = new SetAsideRows(fileName)
  const countyLocalities = new Map<string, string>()
  let general = 0
  for (let i = header.at + 1; i < data.length; i++) {
    const record = data[i]!
    const cell = (column: Column) => (record[header.index[column]] ?? '').trim()
    if (cell('taxType').toUpperCase() !== 'ST' || cell('rateType').toUpperCase() !== 'GENER') continue
    general++
    const where = `line ${i + 1}`
    const code = cell('code')
    const from = isoOf(cell('from'))
    const to = cell('to') === '' ? null : isoOf(cell('to'))
    const window = { from, to: cell('to') === '' ? null : to }
    const rate = parseRatePercent(cell('rate'))
    const pj = cell('pj').toUpperCase() === 'Y' ? parseRatePercent(cell('pjRate')) : null
    // a county locality set aside names its county (compile.ts binds the name)
    const county = isCountyLocalityCode(code) ? cell('name') : null
    if (county !== null && !countyLocalities.has(code)) countyLocalities.set(code, county)
    if (!/^\d{4}$/.test(code)) setAside.add(where, `Locality Code ${JSON.stringify(code)} is not 4 digits`, window)
    else if (!rate.ok) setAside.add(where, `${code} Rate ${rate.reason}`, window, county)
    else if (wholeOrMore(rate.units)) setAside.add(where, `${code} Rate ${wholeOrMore(rate.units)}`, window, county)
    else if (pj && !pj.ok) setAside.add(where, `${code} PJ_Rate ${pj.reason}`, window, county)
    else if (!from || (cell('to') !== '' && !to)) setAside.add(where, `${code} dates ${cell('from')}–${cell('to')} are not YYYYMMDD`, window, county)
    else rows.push({ line: i + 1, code, name: cell('name'), countyCode: cell('countyCode'), rate: rate.units, pjRate: pj?.ok ? pj.units : null, from, to })
  }
  setAside.assertWithinShare(general)
  if (rows.length === 0) throw new Error(`${fileName}: no general sales (TaxType ST, Rate Type GENER) rows${setAside.count ? ` (${setAside.notes()[0]})` : ''}`)
  if (rows.every((r) => r.rate < LEAST_PERCENT_SEEN)) throw new Error(`${fileName}: no Rate reaches 0.1%: the column holds fractions where its documented percents are expected`)
  return { fileName, rows, rowsRead: data.length - header.at - 1, setAside, countyLocalities }
}
