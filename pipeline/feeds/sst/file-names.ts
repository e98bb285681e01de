// SST file names `<ST><R|B><YYYY>Q<q><MON><D>.csv|zip`: parsed case-insensitively and discovered
// from a listing, never constructed (trap P2).
import { linkedFileName } from '../../fetch/html-links.ts'

export type SstFileKind = 'rate' | 'boundary'

export type SstFileName = {
  /** the name as listed, e.g. `WYR2026Q2APR1.csv` */
  name: string
  state: string
  kind: SstFileKind
  /** year and quarter the file takes effect */
  year: number
  quarter: 1 | 2 | 3 | 4
  /** posting date, ISO */
  posted: string
  ext: 'csv' | 'zip'
  /** e.g. `2026Q2FEB19` */
  edition: string
}

const NAME = /^([A-Z]{2})([RB])(\d{4})Q([1-4])([A-Z]{3})(\d{1,2})\.(csv|zip)$/i
const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC']

const pad = (n: number, width: number) => String(n).padStart(width, '0')

/**
 * The name carries the posting month and day but no posting year. Files go up weeks or months
 * before the quarter they label (`WVR2026Q1AUG14`: Aug 2025), and corrections after it began
 * (`Q1APR15`: Apr of the quarter's year), so the posting date is whichever of the quarter's year and
 * the year before puts it closer to the quarter's first day.
 */
function postingYear(year: number, quarter: number, month: number, day: number): number {
  const quarterStart = Date.UTC(year, (quarter - 1) * 3, 1)
  const distance = (candidate: number) => Math.abs(Date.UTC(candidate, month - 1, day) - quarterStart)
  return distance(year - 1) < distance(year) ? year - 1 : year
}

/** Parses an SST file name (or a path/URL ending in one); null when it is not one. */
export function parseSstFileName(nameOrHref: string): SstFileName | null {
  const name = linkedFileName(nameOrHref)
  const match = NAME.exec(name)
  if (!match) return null
  const [, state, kindLetter, yearText, quarterText, monthText, dayText, ext] = match
  const month = MONTHS.indexOf(monthText.toUpperCase()) + 1
  if (month === 0) return null
  const year = Number(yearText)
  const quarter = Number(quarterText) as 1 | 2 | 3 | 4
  const day = Number(dayText)
  const postedYear = postingYear(year, quarter, month, day)
  const date = new Date(Date.UTC(postedYear, month - 1, day))
  if (day < 1 || date.getUTCMonth() !== month - 1) return null
  return {
    name,
    state: state.toUpperCase(),
    kind: kindLetter.toUpperCase() === 'R' ? 'rate' : 'boundary',
    year,
    quarter,
    posted: `${pad(postedYear, 4)}-${pad(month, 2)}-${pad(day, 2)}`,
    ext: ext.toLowerCase() as 'csv' | 'zip',
    edition: `${yearText}Q${quarter}${monthText.toUpperCase()}${dayText}`,
  }
}

/**
 * The newest file for `state` and `kind` in a listing, by effective quarter then posting date.
 * Null when the listing has none; an error when two files tie (e.g. the same edition as .csv and .zip).
 */
export function pickLatest(names: string[], state: string, kind: SstFileKind): SstFileName | null {
  const wanted = state.toUpperCase()
  const files = names
    .map(parseSstFileName)
    .filter((file): file is SstFileName => file !== null && file.state === wanted && file.kind === kind)
  if (files.length === 0) return null
  const sortKey = (file: SstFileName) => sstEditionKey(file.edition)!
  files.sort((a, b) => (sortKey(a) < sortKey(b) ? 1 : sortKey(a) > sortKey(b) ? -1 : 0))
  const [newest, next] = files
  if (next && sortKey(next) === sortKey(newest)) {
    throw new Error(`ambiguous latest SST ${kind} file for ${wanted}: ${newest.name} and ${next.name}`)
  }
  return newest
}

/** Sort key of an SST edition (`2026Q2FEB19`): effective quarter, then posting date. */
export function sstEditionKey(edition: string): string | null {
  const file = parseSstFileName(`XXR${edition}.csv`)
  return file ? `${pad(file.year, 4)}Q${file.quarter} ${file.posted}` : null
}
