// SCDOR's Sales & Use Tax Index page (publisher-evidence-remaining.md §2.1): an HTML table of the 46
// counties' total rates, its rate columns labelled by the date they apply from ("5/1/26 & after") or
// until ("before 5/1/26", "thru 4/30/26"), plus a "Horry–Myrtle Beach" line. Its exact markup is not
// confirmed, so the table is found by its heads: a first cell naming the county, and rate columns each
// labelled with a date. A column labelled without a date, a county twice, a rate cell that is not
// `N%`, or a total outside 6–11% fails the page.
import { parseRatePercent } from '../../../snapshot-contract/rate-units.ts'
import { pageTables } from '../../fetch/html-tables.ts'
import { SLASH_DATE, slashDateIso } from '../printed-dates.ts'
import { dayAfter, dayBefore } from '../rate-timeline.ts'

export type DatedRate = { rate: number; from: string | null; to: string | null }
export type ScIndexRow = { name: string; rates: DatedRate[] }
export type ScIndex = { fileName: string; counties: ScIndexRow[]; myrtleBeach: ScIndexRow | null }

const AFTER = /&\s*after|and\s+after|on\s+or\s+after|beginning|effective|from/i
const BEFORE = /before|prior\s+to|until/i
const THROUGH = /thru|through/i
const MYRTLE_BEACH = /myrtle\s*beach/i

/** The table's head row: a first cell naming the county, and rate columns labelled with dates. */
const isHeadRow = (row: string[]) => /county/i.test(row[0] ?? '') && row.slice(1).some((cell) => SLASH_DATE.test(cell))

/** A column head's window: `5/1/26 & after` from that day; `before 5/1/26` and `thru 4/30/26` up to it. */
function columnWindow(head: string, fileName: string): { from: string | null; to: string | null } {
  const match = SLASH_DATE.exec(head)
  if (!match) throw new Error(`${fileName}: rate column "${head}" carries no date, so its rates have none`)
  const date = slashDateIso(match[1]!, match[2]!, match[3]!)
  if (BEFORE.test(head)) return { from: null, to: dayBefore(date) }
  if (THROUGH.test(head)) return { from: null, to: date }
  if (AFTER.test(head)) return { from: date, to: null }
  throw new Error(`${fileName}: rate column "${head}" says neither from nor until its date`)
}

export function parseScIndex(html: string, fileName: string): ScIndex {
  const table = pageTables(html).map((t) => t.rows).find((rows) => rows.some(isHeadRow))
  if (!table) throw new Error(`${fileName}: no table headed by "County" and dated rate columns: the page changed layout`)
  const headIndex = table.findIndex(isHeadRow)
  const heads = table[headIndex]!.slice(1)
  const windows = heads.map((head) => columnWindow(head, fileName))
  // Consecutive columns: a column open at its start begins the day after the one before it ends, and one open at its end ends the day before the next begins.
  windows.forEach((window, i) => {
    if (window.from === null && i > 0 && windows[i - 1]!.to) window.from = dayAfter(windows[i - 1]!.to!)
    if (window.to === null && i + 1 < windows.length && windows[i + 1]!.from) window.to = dayBefore(windows[i + 1]!.from!)
  })
  const counties: ScIndexRow[] = []
  let myrtleBeach: ScIndexRow | null = null
  for (const row of table.slice(headIndex + 1)) {
    const name = (row[0] ?? '').trim()
    if (!name || row.slice(1).every((cell) => cell.trim() === '')) continue
    const rates = windows.map((window, i) => {
      const cell = (row[i + 1] ?? '').trim()
      const match = /^(\d+(?:\.\d+)?)\s*%$/.exec(cell)
      const parsed = match ? parseRatePercent(match[1]!) : null
      if (!parsed?.ok || parsed.units < 6000 || parsed.units > 11000) throw new Error(`${fileName}: ${name}, column "${heads[i]}": ${JSON.stringify(cell)} is no total rate (N% from 6% to 11%)`)
      return { rate: parsed.units, ...window }
    })
    if (MYRTLE_BEACH.test(name)) myrtleBeach = { name, rates }
    else if (counties.some((county) => county.name.toLowerCase() === name.toLowerCase())) throw new Error(`${fileName}: ${name} listed twice`)
    else counties.push({ name, rates })
  }
  return { fileName, counties, myrtleBeach }
}
