// GET /v1/tax/{state} without HTTP: prepare the input, locate it in the snapshot in service, pick
// the data for the date (an earlier snapshot for an earlier edition), and build the answer.
import { HttpError } from '../http/errors.ts'
import { buildAnswer } from './lookup-answer.ts'
import { locatePoint } from './coordinate-location.ts'
import type { EarlierSnapshots } from './earlier-snapshots.ts'
import { viewForDate } from './dated-view.ts'
import type { Located } from './located.ts'
import { prepareInput, type PreparedInput } from './lookup-input.ts'
import type { LookupRequest } from './lookup-request.ts'
import { locatePlace } from './place-location.ts'
import { factsOf, type SnapshotView } from './snapshot-facts.ts'
import type { Billing, FullLookupBody, SimpleLookupBody } from './tax-response.ts'
import { ZipEntries } from './zip-entries.ts'
import { locateZip } from './zip-location.ts'

export type LookupSources = {
  /** the snapshot in service when the request arrived */
  snapshot: SnapshotView
  /** earlier snapshots for dates before the data in service; null when none can be read */
  earlier: EarlierSnapshots | null
}

/** Locates the prepared input in one snapshot; `state` pins the state found in the served snapshot. */
export function locate(view: SnapshotView, zips: ZipEntries, prepared: PreparedInput, state?: string): Located {
  switch (prepared.kind) {
    case 'zip':
      return locateZip(view, zips, prepared.query)
    case 'place':
      return locatePlace(view, { ...prepared.query, state: state ?? prepared.query.state }, prepared.inputPlace)
    case 'point':
      return locatePoint(view, { ...prepared.query, state: state ?? prepared.query.state })
  }
}

/** A ZIP or place missing from an older edition is a 404 about that edition, not about the ZIP. */
function locateInEarlierData(view: SnapshotView, prepared: PreparedInput, state: string, dateLabel: string): Located {
  try {
    return locate(view, new ZipEntries(view), prepared, state)
  } catch (error) {
    if (!(error instanceof HttpError) || error.code !== 'NOT_FOUND') throw error
    const edition = factsOf(view).record(state)?.edition
    throw new HttpError('NOT_FOUND', `Nothing to answer for ${dateLabel} in the ${state} data of that date (snapshot ${view.id}, edition ${edition}): ${error.message}`, {
      ...error.extra,
      snapshot: view.id,
    })
  }
}

export async function lookupTax(request: LookupRequest, sources: LookupSources, billing: () => Billing): Promise<SimpleLookupBody | FullLookupBody> {
  const current = sources.snapshot
  const zips = new ZipEntries(current)
  const prepared = prepareInput(request, zips)
  let located = locate(current, zips, prepared)
  const dated = await viewForDate(current, located.state, request.date, sources.earlier)
  if (dated.view !== current) {
    // Same input, older data: the ZIP's candidates (or the place's ZIPs) may differ in that edition.
    // The state stays the one found above, so a state_from_input note is not raised again: keep it.
    const stateNotes = located.warnings.filter((w) => w.code === 'state_from_input')
    located = locateInEarlierData(dated.view, prepared, located.state, request.date.label)
    located.warnings.unshift(...stateNotes)
  }
  return buildAnswer({ located, dated, normalization: prepared.normalization, shape: request.shape, billing })
}
