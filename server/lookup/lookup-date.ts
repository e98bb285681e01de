// The date a lookup answers for: `as_of` (YYYY-MM-DD), `period` (YYYYQ, also YYYYQn: the quarter's
// first day) or, when neither is sent, today (UTC).
import { isoFromDayNumber } from '../../snapshot-contract/format.ts'

export type LookupDate = {
  /** ISO date the authorities in force are taken on */
  iso: string
  /** true when the caller asked for this date (as_of or period) rather than today */
  explicit: boolean
  /** how the caller wrote it, for messages: `as_of 2022-06-01`, `period 20262` */
  label: string
}

export type DateReading = { ok: true; date: LookupDate } | { ok: false; reason: string }

const PERIOD = /^(\d{4})[Qq]?([1-4])$/

/** True for a real calendar date written YYYY-MM-DD (2026-02-30 is not one). */
export function isCalendarDate(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false
  const time = Date.parse(`${text}T00:00:00Z`)
  return Number.isFinite(time) && new Date(time).toISOString().slice(0, 10) === text
}

/** `20262` or `2026Q2` → `2026-04-01`. */
export function periodStart(code: string): string | null {
  const match = PERIOD.exec(code)
  if (!match) return null
  const month = (Number(match[2]) - 1) * 3 + 1
  return `${match[1]}-${String(month).padStart(2, '0')}-01`
}

const todayUtc = (now: number): string => isoFromDayNumber(Math.floor(now / 86_400_000))

export function readLookupDate(asOf: string | undefined, period: string | undefined, now: number): DateReading {
  if (asOf !== undefined && period !== undefined) {
    return { ok: false, reason: 'Give as_of or period, not both: both name the date the rates are answered for.' }
  }
  if (asOf !== undefined) {
    if (!isCalendarDate(asOf)) return { ok: false, reason: `as_of "${asOf}" is not a calendar date written YYYY-MM-DD.` }
    return { ok: true, date: { iso: asOf, explicit: true, label: `as_of ${asOf}` } }
  }
  if (period !== undefined) {
    const start = periodStart(period)
    if (!start) return { ok: false, reason: `period "${period}" is not a quarter code YYYYQ such as 20262 (or 2026Q2).` }
    return { ok: true, date: { iso: start, explicit: true, label: `period ${period} (from ${start})` } }
  }
  const today = todayUtc(now)
  return { ok: true, date: { iso: today, explicit: false, label: `today (${today})` } }
}
