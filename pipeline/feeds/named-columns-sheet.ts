// A workbook's first sheet (or the sheet of a given name) read by its header names: the header is the
// first row, among the first few, naming every column read (header-row.ts: compared without case,
// spaces or punctuation), wherever the publisher's title rows put it; a column moved or added leaves
// the reading unchanged. The rows below it are read one by one: a row that does not fit is set aside
// (set-aside.ts), never the sheet failed for it.
import { readWorkbookSheets } from '../fetch/workbook-sheets.ts'
import { rateUnitsFromSpreadsheetNumber } from '../../snapshot-contract/rate-units.ts'
import { findHeaderRow, repeatsHeader, type FoundHeader } from './header-row.ts'
import { SetAsideRows } from './set-aside.ts'

export type Cell = string | number | boolean | Date | null

export const cellText = (cell: Cell | undefined): string => (cell === null || cell === undefined ? '' : String(cell).trim())

export type NamedColumnsSheet<C extends string> = FoundHeader<C> & {
  /** every row of the sheet, the header's included */
  data: Cell[][]
}

export type NamedColumnsSpec<C extends string> = {
  columns: Record<C, string>
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

export async function readNamedColumnsSheet<C extends string>(bytes: Buffer, fileName: string, { columns, searchRows, what, sheet }: NamedColumnsSpec<C>): Promise<NamedColumnsSheet<C>> {
  const data = sheet === undefined ? await firstSheetCells(bytes, fileName) : await namedSheetCells(bytes, fileName, sheet)
  return { data, ...findHeaderRow(data, fileName, { columns, searchRows, what }) }
}

/**
 * What a row below the header is: skipped (no data: a blank, a note, the header printed again), set
 * aside with the reason (and the locality it names, where it can be read), or read.
 */
export type RowRead<T> = { skip: true } | { setAside: string; locality?: string } | { row: T }

/**
 * Each row below the header read by `read` (its 1-based row number given): rows it skips are passed
 * over, rows it sets aside counted and named, never the sheet failed for one; the sheet fails past
 * the set-aside share, or with no row read.
 */
export function rowsBelowHeader<T>(sheet: NamedColumnsSheet<string>, fileName: string, noun: string, read: (cells: Cell[], row: number) => RowRead<T>): { rows: T[]; setAside: SetAsideRows } {
  const rows: T[] = []
  const setAside = new SetAsideRows(fileName)
  for (let i = sheet.at + 1; i < sheet.data.length; i++) {
    const cells = sheet.data[i]!
    if (repeatsHeader(cells, sheet)) continue
    const value = read(cells, i + 1)
    if ('setAside' in value) setAside.add(`row ${i + 1}`, value.setAside, undefined, value.locality)
    else if ('row' in value) rows.push(value.row)
  }
  setAside.assertWithinShare(rows.length + setAside.count)
  if (rows.length === 0) throw new Error(`${fileName}: no ${noun} rows below the header${setAside.count ? ` (${setAside.notes()[0]})` : ''}`)
  return { rows, setAside }
}

/** A spreadsheet number in a column documented to hold fractions: one of 1 or more is no fraction. */
export function fractionCellUnits(cell: number): number | string {
  if (cell >= 1) return `${cell} is not a fraction: a percent where a fraction is expected?`
  const parsed = rateUnitsFromSpreadsheetNumber(cell)
  return parsed.ok ? parsed.units : parsed.reason
}
