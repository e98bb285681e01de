// The edition fields of a feed whose file gives each row its own dated window (Arizona's TPT table,
// Alabama's local rates file): in force through the latest start that has come by the edition.
import type { FeedResult } from '../../snapshot-contract/model.ts'

type DatedFile = { rows: { from: string }[]; rowsRead: number }

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
