// The rate changes a rates index holds: for each authority (state, level, code), every day on which
// the rate in force differs from the day before's. The rate in force on a day is the one the lookup
// serves (RateIndex.authoritiesOn: a later start wins where windows overlap), so a correction posted
// as an overlapping row changes nothing here that it does not change there.
//
// A state's data begins on its earliest window start and ends after its latest window end (never,
// when any window is open): an authority whose first window starts on that first day was not
// introduced then, it is only where the data begins, and one whose last window ends where the
// data ends is not abolished. Inside that span, an authority's first start is a change from no rate
// and an end with no window after it a change to no rate (when the rate was not zero).
//
// An end in or after FAR_FUTURE_END is read as open: it is how a source writes "no end" in a row
// it edited by hand (GA's Chattahoochee County row ends 2099-12-31 where its others end 2999-12-31,
// the SST sentinel), not a tax abolished generations ahead, and announcing it as a change would
// list an artefact among the real ones.
import { dayNumber, isoFromDayNumber } from './format.ts'
import type { Level } from './model.ts'
import type { Authority, RateIndex } from './rate-index.ts'

export type RateChange = {
  state: string
  level: Level
  code: string
  /** the authority's name in the window in force from `effective` (the ending window's for an end) */
  name: string
  /** 1e-5 units; null: no rate before (the authority starts) */
  oldRate: number | null
  /** 1e-5 units; null: no rate from `effective` on (the authority ends) */
  newRate: number | null
  effective: string
  /** the source file of the window in force from `effective` (the ending window's for an end) */
  source: string
}

type Window = { rate: number; name: string; source: string; from: number; to: number }

const OPEN_START = -Infinity
const OPEN_END = Infinity
/** The first day an end date is taken for an open end written as a date (YYYY-MM-DD). */
export const FAR_FUTURE_END = '2099-01-01'

const windowOf = (authority: Authority): Window => ({
  rate: authority.rate,
  name: authority.name,
  source: authority.source,
  from: authority.from === null ? OPEN_START : dayNumber(authority.from),
  to: authority.to === null || authority.to >= FAR_FUTURE_END ? OPEN_END : dayNumber(authority.to),
})

/** The window in force on `day`: of those holding it, the last in start order (as the lookup picks). */
function inForce(windows: Window[], day: number): Window | null {
  for (let i = windows.length - 1; i >= 0; i--) if (windows[i]!.from <= day && day <= windows[i]!.to) return windows[i]!
  return null
}

/** Every change of one state's authorities, in (effective, level, code) order. */
export function rateChangesOfState(rates: RateIndex, state: string): RateChange[] {
  const byAuthority = new Map<string, { level: Level; code: string; windows: Window[] }>()
  for (const authority of rates.authoritiesOfState(state)) {
    const id = `${authority.level}|${authority.code}`
    let entry = byAuthority.get(id)
    if (!entry) byAuthority.set(id, (entry = { level: authority.level, code: authority.code, windows: [] }))
    // authoritiesOfState lists each authority's windows in start order, the order inForce reads.
    entry.windows.push(windowOf(authority))
  }
  const all = [...byAuthority.values()].flatMap((entry) => entry.windows)
  const dataStart = Math.min(...all.map((w) => w.from))
  const dataEnd = Math.max(...all.map((w) => w.to))

  const changes: RateChange[] = []
  for (const { level, code, windows } of byAuthority.values()) {
    const days = new Set<number>()
    for (const w of windows) {
      if (w.from > dataStart) days.add(w.from)
      if (w.to < dataEnd) days.add(w.to + 1)
    }
    for (const day of [...days].sort((a, b) => a - b)) {
      const before = inForce(windows, day - 1)
      const after = inForce(windows, day)
      // No rate and a zero rate tax alike: an authority starting or ending at zero changes nothing.
      if ((before?.rate ?? 0) === (after?.rate ?? 0)) continue
      const named = (after ?? before)!
      changes.push({
        state,
        level,
        code,
        name: named.name,
        oldRate: before?.rate ?? null,
        newRate: after?.rate ?? null,
        effective: isoFromDayNumber(day),
        source: named.source,
      })
    }
  }
  return changes.sort(compareChanges)
}

/** Where a change stands in the order changes are listed: unique, one change per authority and day. */
export type ChangePosition = Pick<RateChange, 'effective' | 'state' | 'level' | 'code'>

/** The order changes are listed in: effective date, then state, level and code. */
export function compareChanges(a: ChangePosition, b: ChangePosition): number {
  return compareText(a.effective, b.effective) || compareText(a.state, b.state) || compareText(a.level, b.level) || compareText(a.code, b.code)
}

const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)

/** What identifies a change across snapshots: the authority, the day, and both rates. */
export const changeIdentity = (change: ChangePosition & Pick<RateChange, 'oldRate' | 'newRate'>): string =>
  `${change.state}|${change.level}|${change.code}|${change.effective}|${change.oldRate ?? '-'}|${change.newRate ?? '-'}`
