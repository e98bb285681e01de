// Finding a table's header row and its columns by name, the way every reader of a file with a header
// does: publishers move the header down (title rows, notes), respace and repunctuate its cells from
// edition to edition (`JurisdictionCode`, `Jurisdiction Code`; `AMJRate(7004)`, `AMJ Rate(7004)`;
// `PJ_Rate`), and change their case. A header cell is compared by its key: its letters and digits
// only, lower case. The header is the first row, among the first few, that names every column wanted.

/** A header cell's key: letters and digits only, lower case (`Jurisdiction Code` → `jurisdictioncode`). */
export const headerKey = (text: string): string =>
  text
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '')

export type HeaderSpec<C extends string> = {
  /** each column read, by its name as the publisher prints it (compared by key) */
  columns: Record<C, string>
  /** how many rows from the top the header is looked for in */
  searchRows: number
  /** what the file is, for the error a file without the header gets */
  what: string
}

export type FoundHeader<C extends string> = {
  /** the header's 0-based row index */
  at: number
  /** each column's 0-based index in the header (its first cell of that key) */
  index: Record<C, number>
  /** the header row's cells, as text */
  cells: string[]
}

const cellText = (cell: unknown): string => (cell === null || cell === undefined ? '' : String(cell).trim())

/**
 * The first row among the first `searchRows` naming every column of `spec`; none is a file that is
 * not what it claims, or whose layout changed: the error names the row that came closest and what it lacks.
 */
export function findHeaderRow<C extends string>(rows: readonly (readonly unknown[])[], fileName: string, spec: HeaderSpec<C>): FoundHeader<C> {
  const wanted = Object.entries(spec.columns) as [C, string][]
  let closest: { at: number; missing: string[] } | null = null
  for (let at = 0; at < Math.min(rows.length, spec.searchRows); at++) {
    const cells = rows[at]!.map(cellText)
    const keys = cells.map(headerKey)
    const index = {} as Record<C, number>
    const missing = wanted.filter(([column, name]) => (index[column] = keys.indexOf(headerKey(name))) < 0).map(([, name]) => name)
    if (missing.length === 0) return { at, index, cells }
    if (missing.length < wanted.length && (!closest || missing.length < closest.missing.length)) closest = { at, missing }
  }
  const near = closest ? `; row ${closest.at + 1} comes closest and lacks ${closest.missing.join(', ')}` : ''
  throw new Error(`${fileName}: no header row naming ${wanted.map(([, name]) => `"${name}"`).join(', ')} in its first ${spec.searchRows} rows${near}: not ${spec.what}, or its layout changed`)
}

/** Whether a row repeats the header (a table printed across pages): its cells at the header's columns read as the header's. */
export const repeatsHeader = <C extends string>(row: readonly unknown[], header: FoundHeader<C>): boolean =>
  Object.values<number>(header.index).every((i) => headerKey(cellText(row[i])) === headerKey(header.cells[i]!))
