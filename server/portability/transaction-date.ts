// `transaction_date` in the forms integrations send: a date (2015-05-14, or 2015/05/14 as the
// TaxJar client's README writes it), a date-time with `T` or a space, with or without seconds
// and fractions, and with `Z`, an offset (+02:00, +0200, -05) or nothing (read as UTC). The
// instant is kept in UTC; the UTC calendar date decides which window a transaction falls in.

export type TransactionInstant = {
  /** ISO instant in UTC, millisecond precision: 2015-05-14T00:00:00.000Z */
  at: string
  /** its UTC calendar date: 2015-05-14 */
  date: string
}

export type DateParse = { ok: true; value: TransactionInstant } | { ok: false; reason: string }

const FORM =
  /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})(?:[T ](\d{1,2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?\s*(Z|z|UTC|[+-]\d{2}(?::?\d{2})?)?)?$/

const MIN_YEAR = 1900
const MAX_YEAR = 2999

export function parseTransactionDate(input: unknown): DateParse {
  if (typeof input !== 'string') return { ok: false, reason: 'expected a date string such as 2026-05-14 or 2026-05-14T10:20:30Z' }
  const text = input.trim()
  const m = FORM.exec(text)
  if (!m) return { ok: false, reason: `${JSON.stringify(text)} is not a date (use 2026-05-14, 2026/05/14 or an ISO date-time)` }
  const [, y, mo, d, h = '0', mi = '0', s = '0', fraction = '', zone] = m
  const year = Number(y)
  const month = Number(mo)
  const day = Number(d)
  const hour = Number(h)
  const minute = Number(mi)
  const second = Number(s)
  if (year < MIN_YEAR || year > MAX_YEAR) return { ok: false, reason: `year ${year} is out of range` }
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return { ok: false, reason: `${text} is not a calendar date` }
  if (hour > 23 || minute > 59 || second > 59) return { ok: false, reason: `${text} has an invalid time of day` }
  const offsetMinutes = offsetOf(zone)
  if (offsetMinutes === null) return { ok: false, reason: `${text} has an invalid UTC offset` }
  const millis = fraction.slice(0, 3).padEnd(3, '0')
  // In UTC already (nearly every row of a backfill): the instant is the text's own fields, written
  // out without a Date, which costs several times more than the rest of the parse.
  if (offsetMinutes === 0) {
    const date = `${y}-${two(month)}-${two(day)}`
    return { ok: true, value: { at: `${date}T${two(hour)}:${two(minute)}:${two(second)}.${millis}Z`, date } }
  }
  const at = new Date(Date.UTC(year, month - 1, day, hour, minute, second, Number(millis)) - offsetMinutes * 60_000).toISOString()
  return { ok: true, value: { at, date: at.slice(0, 10) } }
}

const two = (n: number) => (n < 10 ? `0${n}` : String(n))

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]

function daysInMonth(year: number, month: number): number {
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)
  return month === 2 && leap ? 29 : DAYS_IN_MONTH[month - 1]!
}

function offsetOf(zone: string | undefined): number | null {
  if (!zone || /^(z|utc)$/i.test(zone)) return 0
  const m = /^([+-])(\d{2}):?(\d{2})?$/.exec(zone)!
  const hours = Number(m[2])
  const minutes = Number(m[3] ?? '0')
  if (hours > 14 || minutes > 59) return null
  return (m[1] === '-' ? -1 : 1) * (hours * 60 + minutes)
}

/** The instant as TaxJar shows it: 2015-05-14T00:00:00Z (fractions only when present). */
export const taxjarInstant = (at: string): string => at.replace(/\.000Z$/, 'Z')
