// Records and results that hold nothing yet, filled in by whoever has the data: a state no refresh
// has loaded, or data read back from a rates index (which keeps no notes, files or edition).
import type { StateDescriptor } from '../../sources/descriptor.ts'
import type { StateRecord } from '../../snapshot-contract/manifest.ts'
import type { FeedResult } from '../../snapshot-contract/model.ts'

/** The record of a state no refresh has loaded: its preferred feed, no data. */
export function emptyRecord(descriptor: StateDescriptor): StateRecord {
  return {
    code: descriptor.code,
    name: descriptor.name,
    klass: descriptor.klass,
    feed: descriptor.feeds[0]!.kind,
    status: 'unknown',
    edition: null,
    effective_through: null,
    effective_date_basis: null,
    last_refreshed_at: null,
    last_fetch: null,
    rows: 0,
    zips: 0,
    sources: [],
    notes: [],
    unplaced: [],
    anchors: [],
    withheld: [],
    data_from_snapshot: null,
    pinned: false,
    input_key: null,
    feeds_tried: [],
    fallback_reason: null,
    coverage_from: null,
    rate_varies: [],
    official_trial: null,
    pending_edition: null,
  }
}

/** A feed result holding nothing: the fields a rates index does not keep, for data read back from one. */
export const emptyResult = (): FeedResult => ({
  jurisdictions: [],
  candidates: [],
  unplaced: [],
  edition: '',
  effectiveThrough: '',
  effectiveDateBasis: 'no_published_date',
  rowsRead: 0,
  rowsParsed: 0,
  files: [],
  notes: [],
})
