// The Alaska Remote Seller Sales Tax Commission's rate sheet (docs/data-sources.md#alaska): one
// sheet, "As of M/D/YYYY" above the header (row 1, column M), the header on row 4 (found by its names
// wherever it sits in the first rows): `Borough / Census Tract Name, Borough Tax Rate, …, City/Taxing
// Area, City / Taxing Area Sales Tax Rate, …, Sales Tax Rate Total`. A row is a borough's (no city) or
// a city's within its borough; rates are decimal fractions, and a row's borough and city parts add up
// to its total. A city row with no borough name is under the borough named above it, and one with no
// borough rate takes its borough part from its total (merged cells read blank below their first row).
// Member rows sit in rows 5–60 of the published sheet; below them come notes and other text
// (publisher-evidence E6): a row with no rate in any rate column is passed over. A row that does not
// fit, such as one whose rate is no number (a seasonal rate written out), is set aside (set-aside.ts),
// never guessed. Alaska has no state rate to decide the rates' unit from: they are read as the
// fractions the sheet is documented to hold, and a sheet in other units sets aside every row and fails.
import { formatRate } from '../../../snapshot-contract/rate-units.ts'
import { cellText as text, fractionCellUnits, readNamedColumnsSheet, rowsBelowHeader, type Cell, type RowRead } from '../named-columns-sheet.ts'
import { wholeOrMore, type SetAsideRows } from '../set-aside.ts'
import { slashDateIso } from '../printed-dates.ts'

const COLUMNS = {
  borough: 'Borough / Census Tract Name',
  boroughRate: 'Borough Tax Rate',
  city: 'City/Taxing Area',
  cityRate: 'City / Taxing Area Sales Tax Rate',
  total: 'Sales Tax Rate Total',
} as const
type Column = keyof typeof COLUMNS
const HEADER_SEARCH_ROWS = 10
const AS_OF = /^As of\s+(\d{1,2})\/(\d{1,2})\/(\d{4})$/i

export type AkRow = { row: number; borough: string; city: string | null; boroughRate: number; cityRate: number; total: number }
export type AkRateSheet = { fileName: string; asOf: string; rows: AkRow[]; setAside: SetAsideRows; rowsRead: number }

export async function parseAkRateSheet(bytes: Buffer, fileName: string): Promise<AkRateSheet> {
  const sheet = await readNamedColumnsSheet(bytes, fileName, { columns: COLUMNS, searchRows: HEADER_SEARCH_ROWS, what: "ARSSTC's rate sheet" })
  const asOf = sheet.data.slice(0, sheet.at).flat().map((cell) => AS_OF.exec(text(cell))).find(Boolean)
  if (!asOf) throw new Error(`${fileName}: no "As of M/D/YYYY" above the header: not ARSSTC's rate sheet, or its layout changed`)
  const index = sheet.index
  const noRate = (cells: Cell[]) => (['boroughRate', 'cityRate', 'total'] as const).every((c) => text(cells[index[c]]) === '')
  let borough = ''
  const { rows, setAside } = rowsBelowHeader<AkRow>(sheet, fileName, 'borough or city', (cells, row) => {
    if (noRate(cells)) return { skip: true }
    borough = text(cells[index.borough]) || borough
    return readRow(cells, index, row, borough)
  })
  return { fileName, asOf: slashDateIso(asOf[1]!, asOf[2]!, asOf[3]!), rows, setAside, rowsRead: rows.length + setAside.count }
}

function readRow(cells: Cell[], index: Record<Column, number>, row: number, borough: string): RowRead<AkRow> {
  const city = text(cells[index.city]) || null
  const name = city ?? borough
  if (!borough) return { setAside: `${name || 'a row'} has no borough or census area above it` }
  const rates = {} as Record<'boroughRate' | 'cityRate' | 'total', number>
  for (const column of ['boroughRate', 'cityRate', 'total'] as const) {
    const cell = cells[index[column]]
    if (text(cell) === '' && column !== 'total') rates[column] = 0
    else if (typeof cell !== 'number') return { setAside: `${name}: ${COLUMNS[column]} ${JSON.stringify(text(cell))} is not a number (a seasonal rate written out?)` }
    else {
      const units = fractionCellUnits(cell)
      if (typeof units === 'string') return { setAside: `${name}: ${COLUMNS[column]} ${units}` }
      const whole = wholeOrMore(units)
      if (whole) return { setAside: `${name}: ${COLUMNS[column]} ${whole}` }
      rates[column] = units
    }
  }
  if (city && text(cells[index.boroughRate]) === '') rates.boroughRate = rates.total - rates.cityRate
  if (rates.boroughRate < 0 || rates.boroughRate + rates.cityRate !== rates.total) return { setAside: `${name}: borough ${formatRate(rates.boroughRate)} and city ${formatRate(rates.cityRate)} add up to ${formatRate(rates.boroughRate + rates.cityRate)}, its Sales Tax Rate Total says ${formatRate(rates.total)}` }
  return { row: { row, borough, city, ...rates } }
}
