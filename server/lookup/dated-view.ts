// Which data answers a state on a date. SST and ordmache rows carry their own windows, so the
// snapshot in service answers any date its rows cover; drops and workbooks start on their edition
// date, so an earlier date is looked for in the older editions the snapshot holds and in earlier
// snapshots. No data for the date: 400 naming the range that exists, or the held edition left out
// as damaged that would have answered it.
import { feedTraits } from '../../snapshot-contract/feed-traits.ts'
import { quarterLabel } from '../../snapshot-contract/manifest.ts'
import { invalidInput } from './lookup-errors.ts'
import type { LookupDate } from './lookup-date.ts'
import { warning, type WarningObject } from './lookup-warnings.ts'
import type { EarlierSnapshots } from './earlier-snapshots.ts'
import { factsOf, type Coverage, type SnapshotView } from './snapshot-facts.ts'

export type DatedView = {
  view: SnapshotView
  /** the date the authorities are taken on (the data's first day when today precedes it) */
  isoDate: string
  warnings: WarningObject[]
}

/** `newest`: the data is the newest held, so a date past it is past everything held. */
function laterDateWarnings(view: SnapshotView, state: string, coverage: Coverage, date: LookupDate, newest: boolean): WarningObject[] {
  const warnings: WarningObject[] = []
  if (!date.explicit) return warnings
  if (newest && coverage.through && date.iso > coverage.through) {
    warnings.push(
      warning('date_after_data', `${date.label} is after the newest ${state} data held (effective through ${coverage.through}); the latest rates were answered.`, {
        effective_through: coverage.through,
      }),
    )
  }
  const record = factsOf(view).record(state)
  // A statute's earliest rate has no start date; the rules table vouches for it in one quarter only:
  // the quarter it ends in (DC's 6% through 2026-09-30), or the table's own when it has no end.
  const { undatedUntil } = coverage
  const undated = record !== undefined && feedTraits(record.feed).sourceKind === 'statute' && undatedUntil !== undefined && (undatedUntil === null || date.iso <= undatedUntil)
  const verifiedQuarter = undated ? quarterLabel(undatedUntil ?? coverage.through) : null
  if (verifiedQuarter && quarterLabel(date.iso)! < verifiedQuarter) {
    warnings.push(
      warning('statutory_rate_undated', `${state}'s statutory rate has no published start date; it is verified for ${verifiedQuarter} and assumed unchanged on ${date.iso}.`, {
        verified_for: verifiedQuarter,
      }),
    )
  }
  return warnings
}

/** earlier_edition: which held edition answered, and the window it is valid for. */
function editionNote(view: SnapshotView, state: string, date: LookupDate, inServiceFrom: string, edition: string): WarningObject {
  const stateRate = view.rates.authoritiesOfState(state).find((a) => a.level === 'state')
  const from = stateRate?.from ?? null
  const until = stateRate?.to ?? null
  const feed = factsOf(view).record(state)?.feed ?? ''
  return warning(
    'earlier_edition',
    `${date.label} is before the ${state} data in service (from ${inServiceFrom}); answered from ${feed} edition ${edition}, held for ${from} to ${until ?? 'the next data'}.`,
    { edition, feed, valid_from: from, valid_to: until },
  )
}

export async function viewForDate(current: SnapshotView, state: string, date: LookupDate, earlier: EarlierSnapshots): Promise<DatedView> {
  const coverage = factsOf(current).coverage(state)
  if (coverage.from === null || date.iso >= coverage.from) {
    return { view: current, isoDate: date.iso, warnings: laterDateWarnings(current, state, coverage, date, true) }
  }
  const search = await earlier.covering(state, date.iso, current)
  if (search.found) {
    const { view, coverage: older, edition } = search.snapshot
    const record = factsOf(view).record(state)
    const note = edition
      ? editionNote(view, state, date, coverage.from!, edition)
      : warning('earlier_snapshot', `${date.label} is before the ${state} data in service (from ${coverage.from}); answered from snapshot ${view.id}, edition ${record?.edition}.`, {
          snapshot: view.id,
          edition: record?.edition ?? null,
        })
    return { view, isoDate: date.iso, warnings: [note, ...laterDateWarnings(view, state, older, date, false)] }
  }
  const availableFrom = search.earliestFrom && search.earliestFrom < coverage.from ? search.earliestFrom : coverage.from
  if (search.leftOut && date.explicit) {
    // Not the edition before it: its rates had ended by then. (Today is answered as when nothing is held.)
    const { leftOut, from } = search.leftOut
    throw invalidInput(`${date.label} is not held: the ${state} data for it is edition ${leftOut} (from ${from}), which is left out because its file failed verification; dates of the other data held are answered.`, {
      state,
      left_out_edition: leftOut,
      available_from: availableFrom,
      available_through: coverage.through,
    })
  }
  if (date.explicit) {
    // Dates after the newest data are answered (with date_after_data), so only the start bounds them.
    const later = coverage.through ? `; the newest data is effective through ${coverage.through}, and later dates are answered with it` : ''
    throw invalidInput(`${date.label} is before the ${state} data held: rates are available from ${availableFrom}${later}.`, {
      state,
      available_from: availableFrom,
      available_through: coverage.through,
    })
  }
  // Today precedes an edition already in service (a workbook published ahead of its date).
  const ahead = warning('data_not_yet_effective', `The ${state} data in service takes effect on ${coverage.from}, after ${date.iso}; its rates were answered as of ${coverage.from}.`, {
    effective_from: coverage.from,
  })
  return { view: current, isoDate: coverage.from, warnings: [ahead] }
}
