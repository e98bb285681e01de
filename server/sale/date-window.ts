// Calendar windows in UTC dates (YYYY-MM-DD), counted back from "today" (the request's clock).

const DAY_MS = 86_400_000

// Every request of a day asks for the same date: the last one written is kept.
let lastDay = NaN
let lastDate = ''

export function utcDate(ms: number): string {
  const day = Math.floor(ms / DAY_MS)
  if (day !== lastDay) {
    lastDate = new Date(ms).toISOString().slice(0, 10)
    lastDay = day
  }
  return lastDate
}

export const addDays = (date: string, days: number): string => utcDate(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS)

/** The same calendar day `months` earlier; a day the shorter month lacks becomes its last day (Mar 31 → Feb 28). */
export function monthsBefore(date: string, months: number): string {
  const [y, m, d] = date.split('-').map(Number)
  const index = y * 12 + (m - 1) - months
  const year = Math.floor(index / 12)
  const month = index % 12
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate()
  return utcDate(Date.UTC(year, month, Math.min(d, lastDay)))
}

export type DateWindow = { from: string; to: string }

/** The rolling 12 months ending today: from the day after the same day a year ago, through today. */
export const rollingTwelveMonths = (today: string): DateWindow => ({ from: addDays(monthsBefore(today, 12), 1), to: today })
