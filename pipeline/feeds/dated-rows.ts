// A feed whose file gives each row its own dated window (Arizona's TPT table, Alabama's local rates
// file): its jurisdictions rated window by window, and its edition fields, in force through the
// latest start that has come by the edition; and the edition fields of a file whose rows carry no
// dates (Missouri's rate chart, Colorado's DR 1002), in force from the period its listing names.
import type { FeedResult, JurisdictionRate } from '../../snapshot-contract/model.ts'

type DatedRow = { from: string; to: string | null }
type DatedFile = { rows: { from: string }[]; rowsRead: number }

/** The jurisdictions of a state's file, each rate over every dated window its rows give. */
export function datedJurisdictions(state: string, source: string) {
  const list: JurisdictionRate[] = []
  /** `filingCode`: the code the state's return names the jurisdiction by, where it is not `code` */
  const add = <R extends DatedRow>(level: JurisdictionRate['level'], code: string, name: string, rows: R[], rateOf: (row: R) => number, filingCode?: string) => {
    for (const row of rows) list.push({ state, level, code, name, rate: rateOf(row), from: row.from, to: row.to, source, ...(filingCode ? { filingCode } : {}) })
  }
  return { list, add }
}

/** The row of the latest start. */
export const latestRow = <R extends { from: string }>(rows: R[]): R => rows.reduce((a, b) => (b.from > a.from ? b : a))

export function datedRowsEdition(file: DatedFile, edition: string): Pick<FeedResult, 'edition' | 'effectiveThrough' | 'effectiveDateBasis' | 'rowsRead' | 'rowsParsed' | 'files'> {
  const earliest = earliestStart(file)
  return {
    edition,
    effectiveThrough: file.rows.reduce((max, r) => (r.from > max && r.from <= edition ? r.from : max), earliest),
    effectiveDateBasis: 'publisher_effective_date',
    rowsRead: file.rowsRead,
    rowsParsed: file.rows.length,
    files: [],
  }
}

export const earliestStart = (file: DatedFile): string => file.rows.reduce((min, r) => (r.from < min ? r.from : min), file.rows[0]!.from)

