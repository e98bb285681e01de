// Repeated rows of a rate file. A row repeated with the same jurisdiction, window and rates says
// nothing new: the copies are collapsed into one, and counted in a note (a file whose every row
// is repeated is still the same rates). Two rows of one jurisdiction whose windows overlap with
// different rates contradict each other — the file does not say which is in force — and fail the
// file: publishing either would be a guess. One case is not a contradiction: a row that ends on
// the very day the next one starts (an end date written as the next start, WIR2026Q2 county 078):
// the later start takes that day, as the rates index reads overlapping windows, and a note says so.

/** One rate row as these checks see it: dates ISO (to null: open-ended), rates in 1e-5 units. */
export type RateRowFacts = {
  /** the jurisdiction: level and code (or another key that names one authority) */
  jurisdiction: string
  from: string
  to: string | null
  /** every rate of the row, in a fixed order; rows differ when any differs */
  rates: readonly (number | null)[]
  /** where it is, for messages: "line 12" */
  where: string
}

export type Contradiction = { first: RateRowFacts; second: RateRowFacts }

export type RowConflicts<T> = {
  /** the rows, each duplicate after its first occurrence left out, in file order */
  kept: T[]
  /** rows left out as duplicates, with the row they repeat */
  duplicates: { row: RateRowFacts; of: RateRowFacts }[]
  contradictions: Contradiction[]
  /** pairs whose windows share only the day one ends and the next starts */
  boundaryDays: Contradiction[]
}

const sameRates = (a: RateRowFacts, b: RateRowFacts) => a.rates.length === b.rates.length && a.rates.every((rate, i) => rate === b.rates[i])
const END = '9999-12-31'

export function findRowConflicts<T>(rows: readonly T[], facts: (row: T) => RateRowFacts): RowConflicts<T> {
  const kept: T[] = []
  const duplicates: RowConflicts<T>['duplicates'] = []
  const contradictions: Contradiction[] = []
  const boundaryDays: Contradiction[] = []
  const byJurisdiction = new Map<string, RateRowFacts[]>()
  for (const row of rows) {
    const f = facts(row)
    const earlier = byJurisdiction.get(f.jurisdiction) ?? []
    const same = earlier.find((e) => e.from === f.from && e.to === f.to && sameRates(e, f))
    if (same) {
      duplicates.push({ row: f, of: same })
      continue
    }
    for (const e of earlier) {
      if (sameRates(e, f) || f.from > (e.to ?? END) || e.from > (f.to ?? END)) continue
      const [first, second] = e.from <= f.from ? [e, f] : [f, e]
      if (first.from < second.from && first.to === second.from) boundaryDays.push({ first, second })
      else contradictions.push({ first: e, second: f })
    }
    earlier.push(f)
    byJurisdiction.set(f.jurisdiction, earlier)
    kept.push(row)
  }
  return { kept, duplicates, contradictions, boundaryDays }
}

const window = (f: RateRowFacts) => `${f.from}–${f.to ?? 'open'}`

/** The error that fails a file with contradictions: the first few, with both rows each. */
export function contradictionError(fileName: string, contradictions: Contradiction[], describe: (f: RateRowFacts) => string): Error {
  const listed = contradictions
    .slice(0, 3)
    .map(({ first, second }) => `${first.where} (${describe(first)}, ${window(first)}) and ${second.where} (${describe(second)}, ${window(second)})`)
  return new Error(
    `${fileName}: ${contradictions.length} pair(s) of rows contradict each other (same jurisdiction, overlapping windows, different rates): ${listed.join('; ')}; the file does not say which is in force, so it is not published`,
  )
}

/** Notes on collapsed duplicates and boundary-day overlaps (none when there are neither). */
export function conflictNotes(fileName: string, conflicts: Pick<RowConflicts<unknown>, 'duplicates' | 'boundaryDays'>): string[] {
  const notes: string[] = []
  const { duplicates, boundaryDays } = conflicts
  if (duplicates.length > 0) {
    const examples = duplicates.slice(0, 3).map((d) => `${d.row.where} repeats ${d.of.where}`).join(', ')
    notes.push(`${fileName}: ${duplicates.length} duplicate row(s) collapsed (same jurisdiction, window and rates as an earlier row; e.g. ${examples})`)
  }
  for (const { first, second } of boundaryDays.slice(0, 3)) {
    notes.push(`${fileName}: ${first.where} ends on ${first.to}, the day ${second.where} starts; the later row's rate is served on that day`)
  }
  return notes
}
