// The days of a return's period cut where anything a return reads of a state's rates may change: the
// data that answers a day (the snapshot in service, an older edition it holds, or an earlier
// snapshot: the lookup's as_of, earlier-snapshots.ts) and the first and last days of every rate
// version in that data. Within a segment every place has one stack of rates, so the transactions
// of a segment are summed by the database before their rates are read. Days no held data answers
// form segments without data: their transactions cannot be rated, and the return says so.
import { feedTraits } from '../../../snapshot-contract/feed-traits.ts'
import type { EarlierSnapshots } from '../../lookup/earlier-snapshots.ts'
import { factsOf, type SnapshotView } from '../../lookup/snapshot-facts.ts'
import { addDays } from '../../sale/date-window.ts'

/** `served`: the snapshot in service; `held_edition`: an older edition it holds; `earlier_snapshot`: a snapshot published before it. */
export type DataKind = 'served' | 'held_edition' | 'earlier_snapshot'

export type SegmentData = {
  view: SnapshotView
  kind: DataKind
  /** the snapshot that holds the data */
  snapshot: string
  /** the edition the data is, as its publisher names it, when known */
  edition: string | null
  feed: string
  sourceKind: 'official' | 'aggregator' | 'statute'
}

/** Days `from`…`to` (inclusive) answered by one data view, with no rate version starting or ending inside; `data` null: no held data answers them. */
export type RateSegment = { from: string; to: string; data: SegmentData | null }

/** The data answering each day, or null. */
async function dataOn(current: SnapshotView, state: string, day: string, earlier: EarlierSnapshots, kept: Map<string, SegmentData>): Promise<SegmentData | null> {
  const coverage = factsOf(current).coverage(state)
  if (coverage.from === null || day >= coverage.from) return describe(current, state, 'served', current.id, kept)
  const search = await earlier.covering(state, day, current)
  if (!search.found) return null
  const { view, edition } = search.snapshot
  return edition ? describe(view, state, 'held_edition', current.id, kept, edition) : describe(view, state, 'earlier_snapshot', view.id, kept)
}

function describe(view: SnapshotView, state: string, kind: DataKind, snapshot: string, kept: Map<string, SegmentData>, edition?: string): SegmentData {
  let data = kept.get(view.id)
  if (!data) {
    const record = factsOf(view).record(state)!
    data = { view, kind, snapshot, edition: edition ?? record.edition ?? null, feed: record.feed, sourceKind: feedTraits(record.feed).sourceKind }
    kept.set(view.id, data)
  }
  return data
}

/** The segments of `from`…`to` for `state`, in order; the state not served at all: one segment without data. */
export async function rateSegments(current: SnapshotView, earlier: EarlierSnapshots, state: string, from: string, to: string): Promise<RateSegment[]> {
  if (!factsOf(current).serves(state)) return [{ from, to, data: null }]
  const kept = new Map<string, SegmentData>()
  const runs: RateSegment[] = []
  for (let day = from; day <= to; day = addDays(day, 1)) {
    const data = await dataOn(current, state, day, earlier, kept)
    const last = runs.at(-1)
    if (last && last.data === data) last.to = day
    else runs.push({ from: day, to: day, data })
  }
  return runs.flatMap((run) => (run.data ? splitAtVersions(run, state) : [run]))
}

/** A run of one data view, cut where any of the state's rate versions starts or ends. */
function splitAtVersions(run: RateSegment, state: string): RateSegment[] {
  const cuts = new Set<string>()
  for (const version of run.data!.view.rates.authoritiesOfState(state)) {
    if (version.from !== null && version.from > run.from && version.from <= run.to) cuts.add(version.from)
    if (version.to !== null && version.to >= run.from && version.to < run.to) cuts.add(addDays(version.to, 1))
  }
  const starts = [run.from, ...[...cuts].sort()]
  return starts.map((start, i) => ({ from: start, to: i + 1 < starts.length ? addDays(starts[i + 1]!, -1) : run.to, data: run.data }))
}

/** The segment holding `day` (segments in order, covering it). */
export function segmentOf(segments: readonly RateSegment[], day: string): number {
  let lo = 0
  let hi = segments.length - 1
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1
    if (segments[mid]!.from <= day) lo = mid
    else hi = mid - 1
  }
  return lo
}
