// ZIP mode (and address mode with a ZIP): the entry of the served state, then its candidate.
// An unknown ZIP is a 404, never 0%; a withheld ZIP is a 404 that says why; a state whose data is
// missing is a 503.
import type { ZipEntry } from '../../snapshot-contract/rate-index.ts'
import { HttpError } from '../base/errors.ts'
import { chooseCandidate } from './candidate-choice.ts'
import { placeMismatch, type Located } from './located.ts'
import { stateDataMissing, unknownZip, withheldZip } from './lookup-errors.ts'
import { warning } from './lookup-warnings.ts'
import { factsOf, type SnapshotView } from './snapshot-facts.ts'
import { onZipOf, ownPlaceNear, placeWithoutZip } from './place-stack.ts'
import { isStatewideZip, statewideZipWarning } from './statewide-zip.ts'
import type { ZipEntries } from './zip-entries.ts'
import { boundLocated, readZip4 } from './zip4-location.ts'
import { readAddressRanges } from './address-range-location.ts'

export type ZipQuery = {
  zip5: string
  zip4: string | null
  /** the address's street as normalized ("123 N MAIN ST"), matched against the boundary file's address ranges; null in ZIP mode */
  street: string | null
  /** the state served (the ZIP's, or the path state for a ZIP straddling a state line) */
  state: string
  /** city sent with the address; picks among the ZIP's candidates */
  city: string | null
  via: 'zip5' | 'address_locator'
  /** the date asked about: which ZIP+4 ranges are in force */
  isoDate: string
}

/** The entry of `state` for the ZIP, or the reason there is none. */
function zipEntryOf(view: SnapshotView, zips: ZipEntries, zip5: string, state: string): ZipEntry {
  const entries = zips.of(zip5)
  const entry = entries.find((e) => e.state === state)
  if (entry) return entry
  const facts = factsOf(view)
  const withheld = facts.withheld(zip5)
  if (withheld) throw withheldZip(zip5, withheld.state, withheld.note)
  if (entries.length > 0) {
    // Only reachable with data of another date than the ZIP's state was derived from.
    throw new HttpError('NOT_FOUND', `ZIP ${zip5} has no ${state} rate in the data for that date (it is served for ${entries.map((e) => e.state).join(', ')}).`, { zip: zip5, state })
  }
  if (facts.descriptor(state) && !facts.serves(state)) throw stateDataMissing(state, facts.record(state)?.status ?? 'unknown')
  const record = facts.record(state)
  throw unknownZip(zip5, state, record && { ...record, prefixStates: view.rates.statesOfZipPrefix(zip5.slice(0, 3)) })
}

/**
 * An address whose ZIP no served state holds (a PO-box or unique ZIP the ZIP geography lacks, such
 * as Los Angeles 90080) but which names its city: the place query to locate it by instead, as an
 * address without a ZIP is. Null when the ZIP is known, withheld, or sent without a city.
 */
export function cityOfUnknownZip(view: SnapshotView, zips: ZipEntries, query: ZipQuery): { name: string; state: string } | null {
  if (query.via !== 'address_locator' || !query.city) return null
  if (zips.of(query.zip5).length > 0 || factsOf(view).withheld(query.zip5)) return null
  return { name: query.city, state: query.state }
}

export function locateZip(view: SnapshotView, zips: ZipEntries, query: ZipQuery): Located {
  const zipEntry = zipEntryOf(view, zips, query.zip5, query.state)
  const zip4 = query.zip4 ? readZip4(view, zipEntry, query.zip4, query.isoDate) : null
  if (zip4?.kind === 'exact') return boundLocated(view, zip4, 'zip4', { city: query.city, zip4: query.zip4!, point: null })
  const address = query.street ? readAddressRanges(view, zipEntry, query.street, query.isoDate) : null
  if (address?.kind === 'exact') {
    const located = boundLocated(view, address, 'address_range', { city: query.city, zip4: query.zip4, point: null })
    if (zip4) located.warnings.push(zip4.warning)
    return located
  }
  const facts = factsOf(view)
  const model = facts.placeModel(query.state)
  let entry = zipEntry
  let choice = chooseCandidate(zipEntry, query.city, facts)
  const warnings = []
  let mismatch = placeMismatch(query.city, zipEntry.candidates[choice.index]!, model)
  // The city sent is a place with no ZIP of its own beside this ZIP (Cudahy on 90201): its own rates.
  const own = mismatch && model === 'geoid' ? ownPlaceNear(view, zipEntry, query.city!) : null
  if (own) {
    entry = onZipOf(zipEntry, own)
    choice = { index: 0, by: 'city' }
    mismatch = null
    warnings.push(placeWithoutZip(own, query.state, zipEntry.zip))
  }
  const candidate = entry.candidates[choice.index]!
  if (mismatch) warnings.push(mismatch)
  // An official state's ZIP the geography lacks was placed by an aggregator's name for it (pipeline/feeds/unlisted-zips.ts).
  const byRegionName = entry.unlisted && model === 'geoid'
  if (byRegionName) {
    const where = [candidate.place?.name, candidate.county?.name].filter(Boolean).join(', ')
    warnings.push(warning('zip_placed_by_region_name', `ZIP ${query.zip5} is not in the ZIP geography (a PO-box or unique ZIP): it was placed in ${where} by the tax region name an aggregator edition gives it, and that place's official rates were answered.`))
  }
  const carried = facts.carried(query.zip5, query.state)
  if (carried) {
    warnings.push(warning('zip_answer_carried_over', `The latest ${query.state} source figure for ZIP ${query.zip5} failed validation (${carried.reason}) and was not published: the ZIP's answer of snapshot ${carried.snapshot} is kept.`, { carried_from: carried.snapshot }))
  }
  const layered = facts.answeredByKnownLayers(query.zip5, query.state)
  if (layered) {
    warnings.push(
      warning(
        'zip_figure_rejected',
        `The ${query.state} source figure for ZIP ${query.zip5} was rejected (${layered.reason}) and no earlier answer is held: the state and county rates it carries are answered; city or district taxes may apply.`,
        { rejected: layered.reason },
      ),
    )
  }
  if (isStatewideZip(view, entry)) warnings.push(statewideZipWarning(entry))
  if (zip4) warnings.push(zip4.warning)
  if (address) warnings.push(address.warning)
  return {
    state: query.state,
    entry,
    choice: choice.index,
    chosenBy: choice.by,
    resolvedVia: query.via,
    // The ZIP's candidates do not list the place: its lying beside the ZIP is read from the distance only.
    confidenceCap: byRegionName || layered ? 'low' : own || zip4?.ambiguous || address ? 'medium' : null,
    warnings,
    zip4: query.zip4,
    point: null,
  }
}
