// Colorado DOR's jurisdiction codes and rates workbook, DR 1002 (docs/data-sources.md#colorado): the
// sheet "By Name", one row per jurisdiction code: `Location Code` (the place's name), `Jurisdiction
// Code` (6 digits), `County`, `Self Collected Home Rule`, then (Tax Type, Rate, Service Fee Rate)
// triples, one per tax levied there. Every column is found by its header name. The triples' header
// is read in either of two forms, since which one the publisher uses is not confirmed: a `Tax Type`
// column whose cells name the tax (State, County, City, RTD, CD, …), or a column headed by the tax's
// own name, each followed by `Rate`. The `Total Rate` column (a merged header) is not read: the
// total is the sum of the triples. The service fee is the vendor's retained share, not a tax.
import { cellText as text, percentOrFractionUnits, readNamedColumnsSheet, rowsBelowHeader, type Cell } from '../named-columns-sheet.ts'

export const CO_SHEET = 'By Name'
const COLUMNS = { name: 'Location Code', code: 'Jurisdiction Code', county: 'County', homeRule: 'Self Collected Home Rule' } as const
type Column = keyof typeof COLUMNS
const HEADER_SEARCH_ROWS = 15
const TAX_TYPE = 'tax type'
const RATE = 'rate'
const CODE = /^\d{6}$/
const YES = /^(y|yes|x|true)$/i
const NO = /^(n|no|false)?$/i

/** One tax of a row: its type as the file names it (State, County, City, RTD, …) and its rate. */
export type CoTax = { type: string; rate: number }
export type CoJurisdiction = { row: number; name: string; code: string; county: string; selfCollected: boolean; taxes: CoTax[] }
export type CoRateWorkbook = { fileName: string; rows: CoJurisdiction[] }

/** Where a triple's type is read: from the row's cell (a `Tax Type` column) or from the header itself. */
type Triple = { type: { column: number } | { name: string }; rate: number }

export async function parseCoRateWorkbook(bytes: Buffer, fileName: string): Promise<CoRateWorkbook> {
  const sheet = await readNamedColumnsSheet(bytes, fileName, { columns: COLUMNS, key: 'code', searchRows: HEADER_SEARCH_ROWS, what: "Colorado's DR 1002 workbook", sheet: CO_SHEET })
  const triples = taxTriples(sheet.data[sheet.at]!.map(text))
  if (triples.length === 0) throw new Error(`${fileName} row ${sheet.at + 1}: no (Tax Type, Rate) columns after the header's named ones: its layout changed`)
  const rows = rowsBelowHeader(sheet, fileName, 'jurisdiction', (cells) => text(cells[sheet.index.code]) === '', (cells, row) => readRow(cells, sheet.index, triples, row))
  return { fileName, rows }
}

/** Each header cell `Rate` with the cell before it naming the tax, or saying the row's cell does. */
function taxTriples(header: string[]): Triple[] {
  return header.flatMap((cell, i) => {
    if (cell.toLowerCase() !== RATE || i === 0) return []
    const before = header[i - 1]!
    if (before === '') return []
    return [{ type: before.toLowerCase() === TAX_TYPE ? { column: i - 1 } : { name: before }, rate: i }]
  })
}

function readRow(cells: Cell[], index: Record<Column, number>, triples: Triple[], row: number): CoJurisdiction | string {
  const name = text(cells[index.name])
  const code = readCode(cells[index.code])
  if (code === null) return `Jurisdiction Code ${JSON.stringify(text(cells[index.code]))} of ${name} is not 6 digits`
  const homeRule = text(cells[index.homeRule])
  const selfCollected = YES.test(homeRule) ? true : NO.test(homeRule) ? false : null
  if (selfCollected === null) return `${code} (${name}): Self Collected Home Rule ${JSON.stringify(homeRule)} is neither yes nor no`
  const taxes: CoTax[] = []
  for (const triple of triples) {
    const type = 'name' in triple.type ? triple.type.name : text(cells[triple.type.column])
    const cell = cells[triple.rate]
    if (type === '' || text(cell) === '') continue
    const rate = percentOrFractionUnits(cell)
    if (typeof rate === 'string') return `${code} (${name}): ${type} rate ${rate}`
    taxes.push({ type, rate })
  }
  return { row, name, code, county: text(cells[index.county]), selfCollected, taxes }
}

/** A code as text, or as a number whose leading zeros the spreadsheet dropped. */
function readCode(cell: Cell | undefined): string | null {
  const value = typeof cell === 'number' && Number.isInteger(cell) && cell >= 0 ? String(cell).padStart(6, '0') : text(cell)
  return CODE.test(value) ? value : null
}
