// What the feeds share whose files print each jurisdiction's total, the state rate included, and
// no dates of their own (Missouri's rate chart, New Mexico's GRT table): a jurisdiction table begun
// with the state layer, and a result in force from the edition's first day.
import type { FeedResult, JurisdictionRef } from '../../snapshot-contract/model.ts'
import { JurisdictionTable } from './candidate-weights.ts'

export type StateLayer = { code: string; fips: string; name: string; rate: number }

/** The file's jurisdiction table with the state layer added (a total below the state rate is the reader's to set aside or to place apart). */
export function totalsTable(fileName: string, state: StateLayer): { table: JurisdictionTable; stateRef: JurisdictionRef } {
  const table = new JurisdictionTable({ state: state.code, from: null, to: null, source: fileName })
  return { table, stateRef: table.add('state', state.fips, state.name, state.rate) }
}

export type EditionOnlyParts = Pick<FeedResult, 'candidates' | 'unplaced' | 'rateVaries' | 'edition' | 'rowsRead' | 'notes' | 'leftOut'> & { table: JurisdictionTable; rowsParsed?: number }

/** The result: every rate in force from the edition's first day. */
export const editionOnlyResult = ({ table, candidates, unplaced, rateVaries, edition, rowsRead, rowsParsed = rowsRead, notes, leftOut }: EditionOnlyParts): FeedResult => ({
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
  ...(leftOut?.length ? { leftOut } : {}),
})
