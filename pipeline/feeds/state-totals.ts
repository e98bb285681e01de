// What the feeds share whose files print each jurisdiction's total, the state rate included, and
// no dates of their own (Missouri's rate chart, New Mexico's GRT table): a jurisdiction table begun
// with the state layer, no total below it, and a result in force from the edition's first day.
import type { FeedResult, JurisdictionRef } from '../../snapshot-contract/model.ts'
import { formatRate } from '../../snapshot-contract/rate-units.ts'
import { JurisdictionTable } from './candidate-weights.ts'

export type StateLayer = { code: string; fips: string; name: string; rate: number }
/** A row's total, with where it is in the file (`row 13`, `line 2`) and what it is (its code and name). */
export type PrintedTotal = { rate: number; at: string; label: string }

/** The file's jurisdiction table with the state layer added; a total below the state rate is a fraction read as a percent, or no total. */
export function totalsTable(fileName: string, state: StateLayer, totals: PrintedTotal[]): { table: JurisdictionTable; stateRef: JurisdictionRef } {
  const low = totals.find((t) => t.rate < state.rate)
  if (low) throw new Error(`${fileName} ${low.at}: ${low.label} at ${formatRate(low.rate)} is below the ${formatRate(state.rate)} state rate it includes: a fraction where a percent is expected?`)
  const table = new JurisdictionTable({ state: state.code, from: null, to: null, source: fileName })
  return { table, stateRef: table.add('state', state.fips, state.name, state.rate) }
}

export type EditionOnlyParts = Pick<FeedResult, 'candidates' | 'unplaced' | 'rateVaries' | 'edition' | 'rowsRead' | 'notes'> & { table: JurisdictionTable; rowsParsed?: number }

/** The result: every rate in force from the edition's first day. */
export const editionOnlyResult = ({ table, candidates, unplaced, rateVaries, edition, rowsRead, rowsParsed = rowsRead, notes }: EditionOnlyParts): FeedResult => ({
  jurisdictions: table.list(),
  candidates,
  unplaced,
  ...(rateVaries ? { rateVaries } : {}),
  edition,
  effectiveThrough: edition,
  effectiveDateBasis: 'edition_only',
  rowsRead,
  rowsParsed,
  files: [],
  notes,
})
