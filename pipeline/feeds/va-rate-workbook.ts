// Virginia Tax's sales-tax-rates.xlsx (docs/data-sources.md#virginia): one row per locality (95
// counties and 38 independent cities) keyed by its 3-digit FIPS code, the header on row 3 (found by
// its names wherever it sits), rates as decimal fractions, no date inside the file.
import readXlsxFile from 'read-excel-file/node'
import { formatRate, rateUnitsFromSpreadsheetNumber } from '../../snapshot-contract/rate-units.ts'

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
export type VaRateWorkbook = { fileName: string; localities: VaLocality[] }

type Cell = string | number | boolean | Date | null
const text = (cell: Cell | undefined) => (cell === null || cell === undefined ? '' : String(cell).trim())

export async function parseVaRateWorkbook(bytes: Buffer, fileName: string): Promise<VaRateWorkbook> {
  const data = ((await readXlsxFile(bytes))[0]?.data ?? []) as Cell[][]
  const at = data.slice(0, HEADER_SEARCH_ROWS).findIndex((row) => row.some((cell) => text(cell) === COLUMNS.locality))
  if (at < 0) throw new Error(`${fileName}: no header row naming "${COLUMNS.locality}" in its first ${HEADER_SEARCH_ROWS} rows: not Virginia's rate workbook, or its layout changed`)
  const header = data[at]!.map(text)
  const index = {} as Record<Column, number>
  const missing: string[] = []
  for (const [key, name] of Object.entries(COLUMNS) as [Column, string][]) {
    index[key] = header.indexOf(name)
    if (index[key] < 0) missing.push(name)
  }
  if (missing.length) throw new Error(`${fileName} row ${at + 1}: header lacks ${missing.join(', ')}`)
  const localities: VaLocality[] = []
  const rejected: string[] = []
  for (let i = at + 1; i < data.length; i++) {
    const cells = data[i]!
    if (cells.every((cell) => text(cell) === '')) continue
    const row = i + 1
    const read = readLocality(cells, index, row)
    if (typeof read === 'string') rejected.push(`row ${row}: ${read}`)
    else localities.push(read)
  }
  if (rejected.length) throw new Error(`${fileName}: ${rejected.length} row(s) rejected: ${rejected.slice(0, 5).join('; ')}`)
  if (localities.length === 0) throw new Error(`${fileName}: no locality rows below the header`)
  return { fileName, localities }
}

function readLocality(cells: Cell[], index: Record<Column, number>, row: number): VaLocality | string {
  const fips = text(cells[index.locality]).padStart(3, '0')
  const name = text(cells[index.name])
  if (text(cells[index.state]).replace(/^0+/, '') !== '51') return `State Code ${JSON.stringify(text(cells[index.state]))} is not Virginia's 51`
  if (!/^\d{3}$/.test(fips)) return `locality code ${JSON.stringify(text(cells[index.locality]))} is not a 3-digit FIPS code`
  const rate = (column: Column): number | string => {
    const cell = cells[index[column]]
    if (text(cell) === '') return 0
    if (typeof cell !== 'number') return `${COLUMNS[column]} ${JSON.stringify(text(cell))} is not a number`
    if (cell >= 1) return `${COLUMNS[column]} ${cell} is not a fraction: a percent where a fraction is expected?`
    const parsed = rateUnitsFromSpreadsheetNumber(cell)
    return parsed.ok ? parsed.units : parsed.reason
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
