// TaxJar's GET /v2/summary_rates from the snapshot in service: per served state, the minimum rate
// (the state level: the lowest state part of any of its ZIPs' candidates) and the average combined
// rate, weighted by addresses. The snapshot holds each ZIP's split of addresses between its
// candidates (HUD shares), not how many addresses each ZIP has: within a ZIP candidates weigh by
// their share, and every ZIP counts once. Integer arithmetic; the average is rounded half up to
// 1e-5. Computed once per snapshot and day, and kept with the snapshot.
import { LEVELS } from '../../snapshot-contract/model.ts'
import { WEIGHT_SCALE } from '../../snapshot-contract/rate-index.ts'
import { factsOf, type SnapshotView } from '../lookup/snapshot-facts.ts'
import { derivedView } from '../snapshot/derived-views.ts'
import { stateName } from '../sale/state-code.ts'

export type StateSummary = {
  state: string
  name: string
  /** 1e-5 units */
  minimum: number
  average: number
  /** the edition of the state's data in service */
  edition: string | null
  zips: number
}

/** The rows of the last date asked, per snapshot. */
const KEPT = derivedView('summary rates', (_view: SnapshotView): { last: { date: string; rows: StateSummary[] } | null } => ({ last: null }))

export function summaryRates(view: SnapshotView, isoDate: string): StateSummary[] {
  const kept = KEPT.of(view)
  if (kept.last?.date === isoDate) return kept.last.rows
  const rows = view.rates.states.map((state) => stateSummary(view, state, isoDate))
  kept.last = { date: isoDate, rows }
  return rows
}

function stateSummary(view: SnapshotView, state: string, isoDate: string): StateSummary {
  const { rates } = view
  let minimum = Number.POSITIVE_INFINITY
  let weighted = 0
  let weights = 0
  let zips = 0
  for (const i of rates.entriesOfState(state)) {
    const { candidates } = rates.entryAt(i)
    const total = candidates.reduce((sum, c) => sum + Math.round(c.weight * WEIGHT_SCALE), 0)
    zips++
    for (const candidate of candidates) {
      // A ZIP whose candidates carry no weight splits its one vote between them alike.
      const weight = total === 0 ? Math.floor(WEIGHT_SCALE / candidates.length) : Math.round(candidate.weight * WEIGHT_SCALE)
      let stateRate = 0
      let combined = 0
      for (const authority of rates.authoritiesOn(candidate.stack, isoDate)) {
        combined += authority.rate
        if (authority.level === LEVELS[0]) stateRate += authority.rate
      }
      minimum = Math.min(minimum, stateRate)
      weighted += weight * combined
      weights += weight
    }
  }
  return {
    state,
    name: stateName(state),
    minimum: Number.isFinite(minimum) ? minimum : 0,
    average: weights === 0 ? 0 : Math.floor((2 * weighted + weights) / (2 * weights)),
    edition: factsOf(view).record(state)?.edition ?? null,
    zips,
  }
}
