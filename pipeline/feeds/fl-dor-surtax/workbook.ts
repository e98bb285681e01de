// Florida DOR's discretionary sales surtax rates, the PointMatch "Download All" workbook
// (docs/data-sources.md#florida): on its first sheet, column A the county name (upper case),
// column B the surtax, and a footer "Rates shown above are current as of M/D/YYYY".
//
// The surtax cell is documented as `N%` text; a spreadsheet may as well hold a percent-formatted
// number (the fraction 0.01 shown as 1%). Both are read; a bare number above the largest surtax
// seen (2%) is a percent where a fraction is expected, and a nonzero `N%` below 0.1% a fraction
// printed as a percent: such a row is set aside (set-aside.ts), and the file fails only past the
// share a file may set aside (a unit change makes every row so), or with no county row or no date.
import { formatRate, parseRatePercent, rateUnitsFromSpreadsheetNumber } from '../../../snapshot-contract/rate-units.ts'
import { cellText as text, firstSheetCells, type Cell } from '../named-columns-sheet.ts'
import { SetAsideRows } from '../set-aside.ts'
import { slashDateIso } from '../printed-dates.ts'

export type FlSurtaxRow = { row: number; county: string; rate: number }
/** `setAside` names with each row set aside the county of its column A: that county answers without its surtax. */
export type FlSurtaxWorkbook = { fileName: string; asOf: string; rows: FlSurtaxRow[]; setAside: SetAsideRows }

/** The largest surtax seen: Hamilton's 2% (TaxAP, 2026-08-26), above the 1.5% OST gives as the range's top. */
const MOST_SURTAX = 2000
/** The smallest nonzero surtax: 0.1%. */
const LEAST_SURTAX = 100
const AS_OF = /current as of\s+(\d{1,2})\/(\d{1,2})\/(\d{4})/i

export async function parseFlSurtaxWorkbook(bytes: Buffer, fileName: string): Promise<FlSurtaxWorkbook> {
  const data = await firstSheetCells(bytes)
  let asOf: string | null = null
  const rows: FlSurtaxRow[] = []
  const setAside = new SetAsideRows(fileName)
  data.forEach((cells, index) => {
    const row = index + 1
    const line = cells.map(text).join(' ')
    const date = AS_OF.exec(line)
    if (date) {
      asOf = slashDateIso(date[1]!, date[2]!, date[3]!)
      return
    }
    const [name, surtax] = [text(cells[0]), cells[1]]
    if (name === '' || text(surtax) === '') return
    const rate = surtaxUnits(surtax!)
    if (typeof rate === 'string') {
      // A heading row above the counties (County / Surtax Rate) reads as no rate; below them it is set aside.
      if (rows.length === 0 && !/\d/.test(text(surtax))) return
      setAside.add(`row ${row}`, `${name}: ${rate}`, undefined, name)
      return
    }
    rows.push({ row, county: name, rate })
  })
  setAside.assertWithinShare(rows.length + setAside.count)
  if (rows.length === 0) throw new Error(`${fileName}: no county rows (county name in column A, surtax in column B) on its first sheet`)
  if (!asOf) throw new Error(`${fileName}: no "Rates shown above are current as of M/D/YYYY" line, so the rates have no date`)
  return { fileName, asOf, rows, setAside }
}

function surtaxUnits(cell: Cell): number | string {
  if (typeof cell === 'number') {
    if (cell > MOST_SURTAX / 100_000) return `${cell} is no fraction a surtax can be (at most ${formatRate(MOST_SURTAX)}): a percent where a fraction is expected?`
    const parsed = rateUnitsFromSpreadsheetNumber(cell)
    return parsed.ok ? parsed.units : parsed.reason
  }
  const match = /^(\d*\.?\d+)\s*%$/.exec(text(cell))
  if (!match) return `surtax ${JSON.stringify(text(cell))} is neither N% nor a number`
  const parsed = parseRatePercent(match[1]!)
  if (!parsed.ok) return parsed.reason
  if (parsed.units > MOST_SURTAX) return `surtax ${text(cell)} is above the largest surtax (${MOST_SURTAX / 1000}%)`
  if (parsed.units > 0 && parsed.units < LEAST_SURTAX) return `surtax ${text(cell)} is below any surtax (0.1%): a fraction printed as a percent?`
  return parsed.units
}
