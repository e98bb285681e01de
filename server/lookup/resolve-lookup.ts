// GET /v1/tax/{state} without HTTP: prepare the input, ask the upstream geocoder about a street
// address when one is configured, locate it in the snapshot in service, pick the data for the date
// (an earlier snapshot for an earlier edition), settle the answer (its rates in integer units,
// which order tax reads), and write its body.
import type { Geocoder } from '../geocoder/geocode-match.ts'
import { HttpError } from '../base/errors.ts'
import { answerBody, settleAnswer, type Answer } from './lookup-answer.ts'
import { locatePoint } from './coordinate-location.ts'
import type { EarlierSnapshots } from './earlier-snapshots.ts'
import { viewForDate } from './dated-view.ts'
import { locateGeocoded } from './geocoded-location.ts'
import { geocode, type Geocoding } from './geocoding.ts'
import type { Located } from './located.ts'
import { prepareInput, type PreparedInput } from './lookup-input.ts'
import type { LookupRequest } from './lookup-request.ts'
import { warning } from './lookup-warnings.ts'
import { locatePlace } from './place-location.ts'
import { factsOf, type SnapshotView } from './snapshot-facts.ts'
import type { Billing, FullLookupBody, SimpleLookupBody } from './tax-response.ts'
import { ZipEntries } from './zip-entries.ts'
import { cityOfUnknownZip, locateZip, type ZipQuery } from './zip-location.ts'

export type LookupSources = {
  /** the snapshot in service when the request arrived */
  snapshot: SnapshotView
  /** earlier snapshots for dates before the data in service */
  earlier: EarlierSnapshots
  /** the upstream geocoder for addresses with a street; absent when none is configured */
  geocoder?: Geocoder
}

/** Locates the prepared input in one snapshot; `state` pins the state found in the served snapshot. */
function locate(view: SnapshotView, zips: ZipEntries, prepared: PreparedInput, state?: string): Located {
  switch (prepared.kind) {
    case 'zip': {
      const city = cityOfUnknownZip(view, zips, prepared.query)
      return city ? locateByCity(view, zips, prepared.query, { ...city, state: state ?? city.state }) : locateZip(view, zips, prepared.query)
    }
    case 'place':
      return locatePlace(view, { ...prepared.query, state: state ?? prepared.query.state }, prepared.inputPlace)
    case 'point':
      return locatePoint(view, { ...prepared.query, state: state ?? prepared.query.state })
  }
}

/** An address with an unknown ZIP, by its city: low confidence at best; no such place keeps the ZIP's 404. */
function locateByCity(view: SnapshotView, zips: ZipEntries, query: ZipQuery, city: { name: string; state: string }): Located {
  let located: Located
  try {
    located = locatePlace(view, city, city.name)
  } catch (error) {
    if (error instanceof HttpError && error.code === 'NOT_FOUND') return locateZip(view, zips, query)
    throw error
  }
  located.confidenceCap = 'low'
  located.warnings.push(
    warning('zip_not_known', `ZIP ${query.zip5} is not known for ${city.state}; the address was placed by its city "${city.name}" instead (the rate of ZIP ${located.entry.zip}).`, { zip: query.zip5 }),
  )
  return located
}

/**
 * The geocoder's ZIP, county and place choose the candidate; a geocoder without a usable match
 * leaves the input to the embedded resolution, with a warning saying so.
 */
function locateInput(view: SnapshotView, zips: ZipEntries, prepared: PreparedInput, geocoding: Geocoding, state?: string): Located {
  if (geocoding.kind === 'not_asked') return locate(view, zips, prepared, state)
  let outcome = `The geocoder found no match for "${geocoding.oneLine}"`
  if (geocoding.kind === 'match') {
    const { street, city, zip5, zip4 } = geocoding.address
    const isoDate = prepared.kind === 'zip' ? prepared.query.isoDate : ''
    const geocoded = locateGeocoded(view, zips, state ?? geocoding.address.state, geocoding.match, { street, city, zip5, zip4: isoDate ? zip4 : null, isoDate })
    if (geocoded.ok) return geocoded.located
    outcome = `The geocoder's answer for "${geocoding.oneLine}" could not be used: ${geocoded.reason}`
  }
  const located = locate(view, zips, prepared, state)
  located.warnings.push(
    warning('geocoder_no_match', `${outcome}; the address was resolved from its ZIP and city instead.`, { geocoder_input: geocoding.oneLine }),
  )
  return located
}

/** A ZIP or place missing from an older edition is a 404 about that edition, not about the ZIP. */
function locateInEarlierData(view: SnapshotView, prepared: PreparedInput, geocoding: Geocoding, state: string, dateLabel: string): Located {
  try {
    return locateInput(view, new ZipEntries(view), prepared, geocoding, state)
  } catch (error) {
    if (!(error instanceof HttpError) || error.code !== 'NOT_FOUND') throw error
    const edition = factsOf(view).record(state)?.edition
    throw new HttpError('NOT_FOUND', `Nothing to answer for ${dateLabel} in the ${state} data of that date (snapshot ${view.id}, edition ${edition}): ${error.message}`, {
      ...error.extra,
      snapshot: view.id,
    })
  }
}

/** The lookup settled, before its body is written: what order tax reads of an address. */
export async function resolveLookup(request: LookupRequest, sources: LookupSources): Promise<Answer> {
  const current = sources.snapshot
  const zips = new ZipEntries(current)
  const prepared = prepareInput(request, zips)
  const geocoding = await geocode(prepared.streetAddress, sources.geocoder)
  let located = locateInput(current, zips, prepared, geocoding)
  const dated = await viewForDate(current, located.state, request.date, sources.earlier)
  if (dated.view !== current) {
    // Same input, older data: the ZIP's candidates (or the place's ZIPs) may differ in that edition.
    // The state stays the one found above, so a state_from_input note is not raised again: keep it.
    const stateNotes = located.warnings.filter((w) => w.code === 'state_from_input')
    located = locateInEarlierData(dated.view, prepared, geocoding, located.state, request.date.label)
    located.warnings.unshift(...stateNotes)
  }
  // A caller that named no state was not given one to replace: nothing to say about it.
  if (request.pathState === null) located.warnings = located.warnings.filter((w) => w.code !== 'state_from_input')
  return settleAnswer({ located, dated, normalization: prepared.normalization, shape: request.shape })
}

export async function lookupTax(request: LookupRequest, sources: LookupSources, billing: () => Billing): Promise<SimpleLookupBody | FullLookupBody> {
  return answerBody(await resolveLookup(request, sources), billing)
}
