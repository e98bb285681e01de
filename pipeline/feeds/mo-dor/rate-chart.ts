// Missouri DOR's Sales and Use Tax Rate Chart workbook (docs/data-sources.md#missouri): one sheet,
// the header on row 12 (found by its names wherever it sits in the first rows), one row per
// jurisdiction code `NNNNN-CCC-NNN` (city segment, 00000 = unincorporated county; county segment;
// special-district segment, 000 = none). Rates are read from `SalesTaxRate(0000)` as `%` strings
// (percent) or as spreadsheet numbers (fractions): both forms are published.
import { cellText as text, percentOrFractionUnits, readNamedColumnsSheet, rowsBelowHeader, type Cell } from '../named-columns-sheet.ts'

const COLUMNS = { name: 'JurisdictionName', code: 'JurisdictionCode', sales: 'SalesTaxRate(0000)' } as const
type Column = keyof typeof COLUMNS
const HEADER_SEARCH_ROWS = 20
const CODE = /^(\d{5})-(\d{3})-(\d{3})$/

export type MoJurisdiction = { row: number; code: string; city: string; county: string; district: string; name: string; rate: number }
export type MoRateChart = { fileName: string; rows: MoJurisdiction[] }

export async function parseMoRateChart(bytes: Buffer, fileName: string): Promise<MoRateChart> {
  const sheet = await readNamedColumnsSheet(bytes, fileName, { columns: COLUMNS, key: 'code', searchRows: HEADER_SEARCH_ROWS, what: "Missouri's rate chart" })
  const rows = rowsBelowHeader(sheet, fileName, 'jurisdiction', (cells) => text(cells[sheet.index.code]) === '', (cells, row) => readRow(cells, sheet.index, row))
  return { fileName, rows }
}

function readRow(cells: Cell[], index: Record<Column, number>, row: number): MoJurisdiction | string {
  const code = text(cells[index.code])
  const match = CODE.exec(code)
  if (!match) return `JurisdictionCode ${JSON.stringify(code)} is not NNNNN-CCC-NNN`
  const rate = percentOrFractionUnits(cells[index.sales])
  if (typeof rate === 'string') return `${code}: SalesTaxRate(0000) ${rate}`
  return { row, code, city: match[1]!, county: match[2]!, district: match[3]!, name: text(cells[index.name]), rate }
}
