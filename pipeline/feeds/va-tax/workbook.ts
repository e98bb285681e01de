// Virginia Tax's sales-tax-rates.xlsx (docs/data-sources.md#virginia): one row per locality (95
// counties and 38 independent cities) keyed by its 3-digit FIPS code, the header on row 3 (found by
// its names wherever it sits), rates as decimal fractions, no date inside the file.
import { formatRate } from '../../../snapshot-contract/rate-units.ts'
import { cellText as text, fractionCellUnits, readNamedColumnsSheet, rowsBelowHeader, type Cell } from '../named-columns-sheet.ts'
import type { SetAsideRows } from '../set-aside.ts'

/** The regional state taxes, each a column: Northern Virginia, Hampton Roads, Central Virginia, Historic Triangle. */
export const VA_REGIONS = { NVA: 'State Regional Sales Tax (NVA)', HR: 'State Regional Sales Tax (HR)', CVA: 'State Regional Sales Tax (CVA)', HT: 'State Regional Sales Tax (HT)' } as const
export type VaRegion = keyof typeof VA_REGIONS

const COLUMNS = {
  state: 'State Code (FIPS)',
  locality: 'County or City Code (FIPS)',
  name: 'Locality Name',
  total: 'Total General Sales Tax',
  stateRate: 'State General Sales Tax',
  local: 'Local Sales Tax',
  additional: 'Additional Local Option Sales Tax',
  ...VA_REGIONS,
} as const
type Column = keyof typeof COLUMNS
const HEADER_SEARCH_ROWS = 10

export type VaLocality = { row: number; fips: string; name: string; state: number; local: number; regions: Partial<Record<VaRegion, number>> }
export type VaRateWorkbook = { fileName: string; localities: VaLocality[]; setAside: SetAsideRows }

export async function parseVaRateWorkbook(bytes: Buffer, fileName: string): Promise<VaRateWorkbook> {
  const sheet = await readNamedColumnsSheet(bytes, fileName, { columns: COLUMNS, searchRows: HEADER_SEARCH_ROWS, what: "Virginia's rate workbook" })
  const { rows: localities, setAside } = rowsBelowHeader<VaLocality>(sheet, fileName, 'locality', (cells, row) => {
    if (cells.every((cell) => text(cell) === '')) return { skip: true }
    const locality = readLocality(cells, sheet.index, row)
    if (typeof locality !== 'string') return { row: locality }
    const fips = localityFips(cells, sheet.index)
    return typeof fips === 'string' ? { setAside: locality, locality: fips } : { setAside: locality }
  })
  return { fileName, localities, setAside }
}

/** The row's 3-digit locality FIPS code, or why it has none (its State Code not Virginia's, its code of another shape). */
function localityFips(cells: Cell[], index: Record<Column, number>): string | { not: string } {
  if (text(cells[index.state]).replace(/^0+/, '') !== '51') return { not: `State Code ${JSON.stringify(text(cells[index.state]))} is not Virginia's 51` }
  const fips = text(cells[index.locality]).padStart(3, '0')
  return /^\d{3}$/.test(fips) ? fips : { not: `locality code ${JSON.stringify(text(cells[index.locality]))} is not a 3-digit FIPS code` }
}

function readLocality(cells: Cell[], index: Record<Column, number>, row: number): VaLocality | string {
  const fips = localityFips(cells, index)
  if (typeof fips !== 'string') return fips.not
  const name = text(cells[index.name])
  const rate = (column: Column): number | string => {
    const cell = cells[index[column]]
    if (text(cell) === '') return 0
    if (typeof cell !== 'number') return `${COLUMNS[column]} ${JSON.stringify(text(cell))} is not a number`
    const units = fractionCellUnits(cell)
    return typeof units === 'number' ? units : `${COLUMNS[column]} ${units}`
  }
  const values = {} as Record<Column, number>
  for (const column of ['total', 'stateRate', 'local', 'additional', 'NVA', 'HR', 'CVA', 'HT'] as const) {
    const value = rate(column)
    if (typeof value === 'string') return `${name}: ${value}`
    values[column] = value
  }
  const regions: Partial<Record<VaRegion, number>> = {}
  for (const region of Object.keys(VA_REGIONS) as VaRegion[]) if (values[region] > 0) regions[region] = values[region]
  const local = values.local + values.additional
  const sum = values.stateRate + local + Object.values(regions).reduce((a, b) => a + b, 0)
  if (sum !== values.total) return `${name}: its parts add up to ${formatRate(sum)}, its Total General Sales Tax says ${formatRate(values.total)}`
  return { row, fips, name, state: values.stateRate, local, regions }
}
