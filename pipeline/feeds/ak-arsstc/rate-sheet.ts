// The Alaska Remote Seller Sales Tax Commission's rate sheet (docs/data-sources.md#alaska): one
// sheet, "As of M/D/YYYY" above the header (row 1, column M), the header on row 4 (found by its names
// wherever it sits in the first rows): `Borough / Census Tract Name, Borough Tax Rate, …, City/Taxing
// Area, City / Taxing Area Sales Tax Rate, …, Sales Tax Rate Total`. A row is a borough's (no city) or
// a city's within its borough; rates are decimal fractions, and a row's borough and city parts add up
// to its total. A city row with no borough name is under the borough named above it, and one with no
// borough rate takes its borough part from its total (merged cells read blank below their first row).
// A rate that is no number (a seasonal rate written out) is refused, never guessed.
import { formatRate } from '../../../snapshot-contract/rate-units.ts'
import { cellText as text, fractionCellUnits, readNamedColumnsSheet, rowsBelowHeader, type Cell } from '../named-columns-sheet.ts'

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
export type AkRateSheet = { fileName: string; asOf: string; rows: AkRow[] }

export async function parseAkRateSheet(bytes: Buffer, fileName: string): Promise<AkRateSheet> {
  const sheet = await readNamedColumnsSheet(bytes, fileName, { columns: COLUMNS, key: 'borough', searchRows: HEADER_SEARCH_ROWS, what: "ARSSTC's rate sheet" })
  const asOf = sheet.data.slice(0, sheet.at).flat().map((cell) => AS_OF.exec(text(cell))).find(Boolean)
  if (!asOf) throw new Error(`${fileName}: no "As of M/D/YYYY" above the header: not ARSSTC's rate sheet, or its layout changed`)
  const index = sheet.index
  const noRate = (cells: Cell[]) => (['boroughRate', 'cityRate', 'total'] as const).every((c) => text(cells[index[c]]) === '')
  let borough = ''
  const rows = rowsBelowHeader(sheet, fileName, 'borough or city', noRate, (cells, row) => {
    borough = text(cells[index.borough]) || borough
    return readRow(cells, index, row, borough)
  })
  return { fileName, asOf: `${asOf[3]}-${asOf[1]!.padStart(2, '0')}-${asOf[2]!.padStart(2, '0')}`, rows }
}

function readRow(cells: Cell[], index: Record<Column, number>, row: number, borough: string): AkRow | string {
  const city = text(cells[index.city]) || null
  const name = city ?? borough
  if (!borough) return `${name || 'a row'} has no borough or census area above it`
  const rates = {} as Record<'boroughRate' | 'cityRate' | 'total', number>
  for (const column of ['boroughRate', 'cityRate', 'total'] as const) {
    const cell = cells[index[column]]
    if (text(cell) === '' && column !== 'total') rates[column] = 0
    else if (typeof cell !== 'number') return `${name}: ${COLUMNS[column]} ${JSON.stringify(text(cell))} is not a number (a seasonal rate written out?)`
    else {
      const units = fractionCellUnits(cell)
      if (typeof units === 'string') return `${name}: ${COLUMNS[column]} ${units}`
      rates[column] = units
    }
  }
  if (city && text(cells[index.boroughRate]) === '') rates.boroughRate = rates.total - rates.cityRate
  if (rates.boroughRate < 0 || rates.boroughRate + rates.cityRate !== rates.total) return `${name}: borough ${formatRate(rates.boroughRate)} and city ${formatRate(rates.cityRate)} add up to ${formatRate(rates.boroughRate + rates.cityRate)}, its Sales Tax Rate Total says ${formatRate(rates.total)}`
  return { row, borough, city, ...rates }
}
