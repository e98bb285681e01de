// Missouri DOR's Sales and Use Tax Rate Chart workbook (docs/data-sources.md#missouri): one sheet,
// the header on row 12 (found by its names wherever it sits in the first rows), one row per
// jurisdiction code `NNNNN-CCC-NNN` (city segment, 00000 = unincorporated county; county segment;
// special-district segment, 000 = none). Rates are read from `SalesTaxRate(0000)` as `%` strings
// (percent) or as spreadsheet numbers (fractions): both forms are published.
import readXlsxFile from 'read-excel-file/node'
import { parseRatePercent, rateUnitsFromSpreadsheetNumber } from '../../snapshot-contract/rate-units.ts'

const COLUMNS = { name: 'JurisdictionName', code: 'JurisdictionCode', sales: 'SalesTaxRate(0000)' } as const
type Column = keyof typeof COLUMNS
const HEADER_SEARCH_ROWS = 20
const CODE = /^(\d{5})-(\d{3})-(\d{3})$/

export type MoJurisdiction = { row: number; code: string; city: string; county: string; district: string; name: string; rate: number }
export type MoRateChart = { fileName: string; rows: MoJurisdiction[] }

type Cell = string | number | boolean | Date | null
const text = (cell: Cell | undefined) => (cell === null || cell === undefined ? '' : String(cell).trim())

export async function parseMoRateChart(bytes: Buffer, fileName: string): Promise<MoRateChart> {
  const data = ((await readXlsxFile(bytes))[0]?.data ?? []) as Cell[][]
  const at = data.slice(0, HEADER_SEARCH_ROWS).findIndex((row) => row.some((cell) => text(cell) === COLUMNS.code))
  if (at < 0) throw new Error(`${fileName}: no header row naming "${COLUMNS.code}" in its first ${HEADER_SEARCH_ROWS} rows: not Missouri's rate chart, or its layout changed`)
  const header = data[at]!.map(text)
  const index = {} as Record<Column, number>
  const missing = (Object.entries(COLUMNS) as [Column, string][]).filter(([key, name]) => (index[key] = header.indexOf(name)) < 0).map(([, name]) => name)
  if (missing.length) throw new Error(`${fileName} row ${at + 1}: header lacks ${missing.join(', ')}`)
  const rows: MoJurisdiction[] = []
  const rejected: string[] = []
  for (let i = at + 1; i < data.length; i++) {
    const cells = data[i]!
    if (text(cells[index.code]) === '') continue
    const read = readRow(cells, index, i + 1)
    if (typeof read === 'string') rejected.push(`row ${i + 1}: ${read}`)
    else rows.push(read)
  }
  if (rejected.length) throw new Error(`${fileName}: ${rejected.length} row(s) rejected: ${rejected.slice(0, 5).join('; ')}`)
  if (rows.length === 0) throw new Error(`${fileName}: no jurisdiction rows below the header`)
  return { fileName, rows }
}

function readRow(cells: Cell[], index: Record<Column, number>, row: number): MoJurisdiction | string {
  const code = text(cells[index.code])
  const match = CODE.exec(code)
  if (!match) return `JurisdictionCode ${JSON.stringify(code)} is not NNNNN-CCC-NNN`
  const rate = readRate(cells[index.sales])
  if (typeof rate === 'string') return `${code}: SalesTaxRate(0000) ${rate}`
  return { row, code, city: match[1]!, county: match[2]!, district: match[3]!, name: text(cells[index.name]), rate }
}

/** A `%` string is a percent; a number is a fraction, and one of 1 or more is a percent where a fraction is expected. */
function readRate(cell: Cell | undefined): number | string {
  if (typeof cell === 'number') {
    if (cell >= 1) return `${cell} is not a fraction: a percent where a fraction is expected?`
    const parsed = rateUnitsFromSpreadsheetNumber(cell)
    return parsed.ok ? parsed.units : parsed.reason
  }
  const value = text(cell)
  const percent = /^(.*?)\s*%$/.exec(value)
  if (!percent) return `${JSON.stringify(value)} is neither a % string nor a number`
  const parsed = parseRatePercent(percent[1]!)
  return parsed.ok ? parsed.units : parsed.reason
}
