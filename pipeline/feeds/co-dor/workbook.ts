// Colorado DOR's jurisdiction codes and rates workbook, DR 1002 (docs/data-sources.md#colorado): the
// sheet "By Name", one row per jurisdiction code: `Location Code` (the place's name), `Jurisdiction
// Code` (6 digits), `County`, `Self Collected Home Rule`, then (Tax Type, Rate, Service Fee Rate)
// triples, one per tax levied there. Every column is found by its header name. The triples' header
// is read in either of two forms, since which one the publisher uses is not confirmed: a `Tax Type`
// column whose cells name the tax (State, County, City, RTD, CD, …), or a column headed by the tax's
// own name, each followed by `Rate`. The `Total Rate` column (a merged header) is not read: the
// total is the sum of the triples. The service fee is the vendor's retained share, not a tax.
//
// The rates are percent numbers (State 2.9, CD 0.1; publisher-evidence E3): their unit is decided
// from the state layer's cells, which must read as the state rate (rate-cells.ts), never from a
// number's size. The home-rule cell is text (`Self-Collected`) or blank. A row that does not fit is
// set aside (set-aside.ts).
import { cellText as text, readNamedColumnsSheet, rowsBelowHeader, type Cell, type RowRead } from '../named-columns-sheet.ts'
import { headerKey } from '../header-row.ts'
import { cellUnits, unitFromStateCells, type RateUnit } from '../rate-cells.ts'
import { wholeOrMore, type SetAsideRows } from '../set-aside.ts'
import { formatRate } from '../../../snapshot-contract/rate-units.ts'

export const CO_SHEET = 'By Name'
const COLUMNS = { name: 'Location Code', code: 'Jurisdiction Code', county: 'County', homeRule: 'Self Collected Home Rule' } as const
type Column = keyof typeof COLUMNS
const HEADER_SEARCH_ROWS = 15
const TAX_TYPE = headerKey('Tax Type')
const RATE = headerKey('Rate')
const STATE = 'state'
const CODE = /^\d{6}$/
/** The home-rule cell: blank (or N) for a state-collected jurisdiction, text saying it collects its own tax (`Self-Collected`, Y) for one that does. */
const SELF_COLLECTED = /^(y|yes|x|true)$|selfcollect/
const STATE_COLLECTED = /^(n|no|false)?$|statecollect/

/** One tax of a row: its type as the file names it (State, County, City, RTD, …) and its rate. */
export type CoTax = { type: string; rate: number }
export type CoJurisdiction = { row: number; name: string; code: string; county: string; selfCollected: boolean; taxes: CoTax[] }
export type CoRateWorkbook = { fileName: string; rows: CoJurisdiction[]; unit: RateUnit; setAside: SetAsideRows }

/** Where a triple's type is read: from the row's cell (a `Tax Type` column) or from the header itself. */
type Triple = { type: { column: number } | { name: string }; rate: number }

export async function parseCoRateWorkbook(bytes: Buffer, fileName: string, stateRate: number): Promise<CoRateWorkbook> {
  const sheet = await readNamedColumnsSheet(bytes, fileName, { columns: COLUMNS, searchRows: HEADER_SEARCH_ROWS, what: "Colorado's DR 1002 workbook", sheet: CO_SHEET })
  const triples = taxTriples(sheet.cells)
  if (triples.length === 0) throw new Error(`${fileName} row ${sheet.at + 1}: no (Tax Type, Rate) columns after the header's named ones: its layout changed`)
  const typeOf = (cells: Cell[], triple: Triple) => ('name' in triple.type ? triple.type.name : text(cells[triple.type.column]))
  const below = sheet.data.slice(sheet.at + 1)
  const stateCells = below.flatMap((cells) => triples.filter((t) => headerKey(typeOf(cells, t)) === STATE).map((t) => cells[t.rate]).filter((c): c is string | number => typeof c === 'string' || typeof c === 'number'))
  if (stateCells.length === 0) throw new Error(`${fileName}: no State tax rate on any row: not the DR 1002 "By Name" sheet, or its layout changed`)
  const unit = unitFromStateCells(stateCells, stateRate, `${fileName} (${CO_SHEET})`)
  const { rows, setAside } = rowsBelowHeader<CoJurisdiction>(sheet, fileName, 'jurisdiction', (cells, row) => {
    if (text(cells[sheet.index.code]) === '') return { skip: true }
    const read = readRow(cells, sheet.index, triples, typeOf, unit, stateRate, row)
    // the county a row set aside names is in the file: it answers without the row's taxes
    return 'setAside' in read ? { ...read, locality: text(cells[sheet.index.county]) } : read
  })
  return { fileName, rows, unit, setAside }
}

/** Each header cell `Rate` with the cell before it naming the tax, or saying the row's cell does. */
function taxTriples(header: string[]): Triple[] {
  return header.flatMap((cell, i) => {
    if (headerKey(cell) !== RATE || i === 0) return []
    const before = header[i - 1]!
    if (before === '') return []
    return [{ type: headerKey(before) === TAX_TYPE ? { column: i - 1 } : { name: before }, rate: i }]
  })
}

function readRow(cells: Cell[], index: Record<Column, number>, triples: Triple[], typeOf: (cells: Cell[], triple: Triple) => string, unit: RateUnit, stateRate: number, row: number): RowRead<CoJurisdiction> {
  const name = text(cells[index.name])
  const code = readCode(cells[index.code])
  if (code === null) return { setAside: `Jurisdiction Code ${JSON.stringify(text(cells[index.code]))} of ${name} is not 6 digits` }
  const homeRule = headerKey(text(cells[index.homeRule]))
  const selfCollected = SELF_COLLECTED.test(homeRule) ? true : STATE_COLLECTED.test(homeRule) ? false : null
  if (selfCollected === null) return { setAside: `${code} (${name}): Self Collected Home Rule ${JSON.stringify(text(cells[index.homeRule]))} says neither self- nor state-collected` }
  const taxes: CoTax[] = []
  for (const triple of triples) {
    const type = typeOf(cells, triple)
    const cell = cells[triple.rate]
    if (type === '' || text(cell) === '') continue
    if (typeof cell !== 'string' && typeof cell !== 'number') return { setAside: `${code} (${name}): ${type} rate ${JSON.stringify(text(cell))} is no rate` }
    const rate = cellUnits(cell, unit)
    if (typeof rate === 'string') return { setAside: `${code} (${name}): ${type} rate ${rate}` }
    const whole = wholeOrMore(rate.units)
    if (whole) return { setAside: `${code} (${name}): ${type} rate ${whole}` }
    taxes.push({ type, rate: rate.units })
  }
  const state = taxes.filter((t) => headerKey(t.type) === STATE)
  if (state.length !== 1 || state[0]!.rate !== stateRate) {
    return { setAside: `${code} (${name}) prints the state rate ${state.map((t) => formatRate(t.rate)).join(' and ') || 'nowhere'}, the rules table (and the rest of the sheet) ${formatRate(stateRate)}` }
  }
  return { row: { row, name, code, county: text(cells[index.county]), selfCollected, taxes } }
}

/** A code as text, or as a number whose leading zeros the spreadsheet dropped. */
function readCode(cell: Cell | undefined): string | null {
  const value = typeof cell === 'number' && Number.isInteger(cell) && cell >= 0 ? String(cell).padStart(6, '0') : text(cell)
  return CODE.test(value) ? value : null
}
