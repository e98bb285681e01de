// A workbook's first sheet (or the sheet of a given name) read by its header names: the header is the first row, among the first
// few, naming a key column, wherever the publisher's title rows put it; every other column is found
// by its name in that row, so a column moved or added leaves the reading unchanged.
import { readWorkbookSheets } from '../fetch/workbook-sheets.ts'
import { parseRatePercent, rateUnitsFromSpreadsheetNumber } from '../../snapshot-contract/rate-units.ts'

export type Cell = string | number | boolean | Date | null

export const cellText = (cell: Cell | undefined): string => (cell === null || cell === undefined ? '' : String(cell).trim())

export type NamedColumnsSheet<C extends string> = {
  /** every row of the first sheet, the header's included */
  data: Cell[][]
  /** the header's 0-based row index */
  at: number
  /** each column's 0-based index in the header */
  index: Record<C, number>
}

export type NamedColumnsSpec<C extends string> = {
  columns: Record<C, string>
  /** the column whose name marks the header row */
  key: NoInfer<C>
  /** how many rows from the top the header is looked for in */
  searchRows: number
  /** what the file is, for the error a sheet without the header gets */
  what: string
  /** the sheet read, by its name; absent: the first */
  sheet?: string
}

/** The first sheet's rows (none of an empty workbook). */
export const firstSheetCells = async (bytes: Buffer, fileName = 'workbook'): Promise<Cell[][]> => ((await readWorkbookSheets(bytes, fileName))[0]?.data ?? []) as Cell[][]

async function namedSheetCells(bytes: Buffer, fileName: string, name: string): Promise<Cell[][]> {
  const sheets = await readWorkbookSheets(bytes, fileName)
  const found = sheets.find((s) => s.sheet.trim() === name)
  if (!found) throw new Error(`${fileName}: no sheet named "${name}" (its sheets: ${sheets.map((s) => JSON.stringify(s.sheet)).join(', ') || 'none'})`)
  return found.data as Cell[][]
}

export async function readNamedColumnsSheet<C extends string>(bytes: Buffer, fileName: string, { columns, key, searchRows, what, sheet }: NamedColumnsSpec<C>): Promise<NamedColumnsSheet<C>> {
  const data = sheet === undefined ? await firstSheetCells(bytes, fileName) : await namedSheetCells(bytes, fileName, sheet)
  const at = data.slice(0, searchRows).findIndex((row) => row.some((cell) => cellText(cell) === columns[key]))
  if (at < 0) throw new Error(`${fileName}: no header row naming "${columns[key]}" in its first ${searchRows} rows: not ${what}, or its layout changed`)
  const header = data[at]!.map(cellText)
  const index = {} as Record<C, number>
  const missing = (Object.entries(columns) as [C, string][]).filter(([column, name]) => (index[column] = header.indexOf(name)) < 0).map(([, name]) => name)
  if (missing.length) throw new Error(`${fileName} row ${at + 1}: header lacks ${missing.join(', ')}`)
  return { data, at, index }
}

/**
 * Each row below the header that `skip` does not pass over, read by `read` (its 1-based row number
 * given) into a value or the reason it is refused; any refusal fails the file, as does no row.
 */
export function rowsBelowHeader<T>(sheet: NamedColumnsSheet<string>, fileName: string, noun: string, skip: (cells: Cell[]) => boolean, read: (cells: Cell[], row: number) => T | string): T[] {
  const rows: T[] = []
  const rejected: string[] = []
  for (let i = sheet.at + 1; i < sheet.data.length; i++) {
    const cells = sheet.data[i]!
    if (skip(cells)) continue
    const value = read(cells, i + 1)
    if (typeof value === 'string') rejected.push(`row ${i + 1}: ${value}`)
    else rows.push(value)
  }
  if (rejected.length) throw new Error(`${fileName}: ${rejected.length} row(s) rejected: ${rejected.slice(0, 5).join('; ')}`)
  if (rows.length === 0) throw new Error(`${fileName}: no ${noun} rows below the header`)
  return rows
}

/** A spreadsheet number that must be a fraction: one of 1 or more is a percent where a fraction is expected. */
export function fractionCellUnits(cell: number): number | string {
  if (cell >= 1) return `${cell} is not a fraction: a percent where a fraction is expected?`
  const parsed = rateUnitsFromSpreadsheetNumber(cell)
  return parsed.ok ? parsed.units : parsed.reason
}

/** A `%` string is a percent; a number is a fraction, and one of 1 or more is a percent where a fraction is expected. */
export function percentOrFractionUnits(cell: Cell | undefined): number | string {
  if (typeof cell === 'number') return fractionCellUnits(cell)
  const value = cellText(cell)
  const percent = /^(.*?)\s*%$/.exec(value)
  if (!percent) return `${JSON.stringify(value)} is neither a % string nor a number`
  const parsed = parseRatePercent(percent[1]!)
  return parsed.ok ? parsed.units : parsed.reason
}
