// Missouri DOR's Sales and Use Tax Rate Chart workbook (docs/data-sources.md#missouri): one sheet,
// the header found by its names wherever it sits (row 12 in the Jul–Sep 2026 chart, elsewhere in
// others), its cells compared without case, spaces or punctuation (`Jurisdiction Code` and
// `JurisdictionCode` alike: publisher-evidence E2); one row per jurisdiction code `NNNNN-CCC-NNN`
// (city segment, 00000 = unincorporated county; county segment; special-district segment, 000 =
// none). Rows between the header and the data may hold text: a row whose code cell holds no digit is
// passed over. Rates are read from `SalesTaxRate(0000)`, the total a buyer pays, as `%` strings
// (percents) or numbers, both in one file: the numbers' unit is decided from the state rate every
// total includes (rate-cells.ts). A row that does not fit is set aside (set-aside.ts).
import { cellText as text, readNamedColumnsSheet, rowsBelowHeader, type Cell, type RowRead } from '../named-columns-sheet.ts'
import { cellUnits, figureText, unitFromTotals, type RateUnit } from '../rate-cells.ts'
import { wholeOrMore, type SetAsideRows } from '../set-aside.ts'
import { formatRate } from '../../../snapshot-contract/rate-units.ts'

const COLUMNS = { name: 'Jurisdiction Name', code: 'Jurisdiction Code', sales: 'SalesTaxRate(0000)' } as const
type Column = keyof typeof COLUMNS
const HEADER_SEARCH_ROWS = 60
const CODE = /^(\d{5})-(\d{3})-(\d{3})$/

export type MoJurisdiction = { row: number; code: string; city: string; county: string; district: string; name: string; rate: number }
export type MoRateChart = { fileName: string; rows: MoJurisdiction[]; setAside: SetAsideRows; rowsRead: number }

export async function parseMoRateChart(bytes: Buffer, fileName: string, stateRate: number): Promise<MoRateChart> {
  const sheet = await readNamedColumnsSheet(bytes, fileName, { columns: COLUMNS, searchRows: HEADER_SEARCH_ROWS, what: "Missouri's rate chart" })
  const isData = (cells: Cell[]) => /\d/.test(text(cells[sheet.index.code]))
  const below = sheet.data.slice(sheet.at + 1).filter(isData)
  // numbers and bare figures take the column's unit; `%` strings are percents whatever it is
  const bare = below.map((cells) => cells[sheet.index.sales]).filter((c): c is string | number => (typeof c === 'number' || typeof c === 'string') && /^\d*\.?\d+$/.test(figureText(c)))
  const unit: RateUnit = bare.length ? unitFromTotals(bare, stateRate, `${fileName} ${COLUMNS.sales}`) : 'percent'
  const { rows, setAside } = rowsBelowHeader<MoJurisdiction>(sheet, fileName, 'jurisdiction', (cells, row) => (isData(cells) ? readRow(cells, sheet.index, unit, stateRate, row) : { skip: true }))
  return { fileName, rows, setAside, rowsRead: rows.length + setAside.count }
}

function readRow(cells: Cell[], index: Record<Column, number>, unit: RateUnit, stateRate: number, row: number): RowRead<MoJurisdiction> {
  const code = text(cells[index.code])
  const match = CODE.exec(code)
  if (!match) return { setAside: `Jurisdiction Code ${JSON.stringify(code)} is not NNNNN-CCC-NNN` }
  const county = match[2]!
  const cell = cells[index.sales]
  if (typeof cell !== 'string' && typeof cell !== 'number') return { setAside: `${code}: SalesTaxRate(0000) ${JSON.stringify(text(cell))} is no rate`, locality: code }
  const rate = cellUnits(cell, unit)
  if (typeof rate === 'string') return { setAside: `${code}: SalesTaxRate(0000) ${rate}`, locality: code }
  const whole = wholeOrMore(rate.units)
  if (whole) return { setAside: `${code}: SalesTaxRate(0000) ${whole}`, locality: code }
  // every total includes the state rate: one below it is no total
  if (rate.units < stateRate) return { setAside: `${code}: SalesTaxRate(0000) ${formatRate(rate.units)} is below the ${formatRate(stateRate)} state rate every total includes`, locality: code }
  return { row: { row, code, city: match[1]!, county, district: match[3]!, name: text(cells[index.name]), rate: rate.units } }
}
