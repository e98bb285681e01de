// A ZIP+4 sent with a ZIP or an address, read against the ZIP+4 ranges of the state's SST boundary
// file (rates.bin x.* sections): the one binding that holds the +4 on the date answers exactly. A `4`
// record wins over the `Z` record of its ZIP (the `Z` record is the default for the +4s no `4`
// record lists). No range, or ranges of different bindings: the ZIP5 answer, with a warning. The
// located form of an exact answer and the ambiguity listing serve address ranges too
// (address-range-location.ts), and so does the warning of districts bound without a rate.
import type { Candidate, Plus4Match, ZipEntry } from '../../snapshot-contract/rate-index.ts'
import { formatRate } from '../../snapshot-contract/rate-units.ts'
import { placeMismatch, type Located } from './located.ts'
import { warning, type WarningObject } from './lookup-warnings.ts'
import { factsOf, type SnapshotView } from './snapshot-facts.ts'

/**
 * `exact`: the ZIP+4's binding, as the one candidate of its ZIP; `unrated` warns of district codes
 * bound there without a rate row (the answer is then short of them, at low confidence).
 * `zip5`: the ZIP5 answer stands, for the reason the warning gives.
 */
export type Zip4Reading =
  | ({ kind: 'exact' } & BoundReading)
  | { kind: 'zip5'; warning: WarningObject; ambiguous: boolean }

const where = (candidate: Candidate) => [candidate.place?.name, candidate.county?.name].filter(Boolean).join(', ') || 'no county or place'

export function readZip4(view: SnapshotView, entry: ZipEntry, zip4: string, isoDate: string): Zip4Reading {
  const { zip, state } = entry
  const sent = `${zip}-${zip4}`
  if (!view.rates.hasPlus4(state)) {
    return { kind: 'zip5', ambiguous: false, warning: warning('zip4_not_used', `No ZIP+4 data is held for ${state}: ZIP+4 ${sent} was answered as ZIP ${zip}.`, { zip4 }) }
  }
  const facts = factsOf(view)
  if (facts.carried(zip, state) || facts.answeredByKnownLayers(zip, state)) {
    const message = `The latest ${state} source figure for ZIP ${zip} was not published, so its ZIP+4 ranges are not used: ZIP+4 ${sent} was answered as ZIP ${zip}.`
    return { kind: 'zip5', ambiguous: false, warning: warning('zip4_not_covered', message, { zip4 }) }
  }
  const matches = view.rates.plus4Matches(zip, Number(zip4), state, isoDate)
  const fours = matches.filter((match) => match.record === '4')
  const bindings = [...new Map((fours.length > 0 ? fours : matches).map((match) => [match.binding, match])).values()]
  if (bindings.length === 0) {
    const message = `ZIP+4 ${sent} lies in no range of the ${state} boundary file in force on ${isoDate}: it was answered as ZIP ${zip}.`
    return { kind: 'zip5', ambiguous: false, warning: warning('zip4_not_covered', message, { zip4 }) }
  }
  if (bindings.length > 1) return { kind: 'zip5', ambiguous: true, warning: ambiguousWarning(view, sent, bindings, isoDate) }
  const [{ candidate, unrated }] = bindings as [Plus4Match]
  return { kind: 'exact', entry: { ...entry, candidates: [candidate] }, unrated: unrated.length > 0 ? unratedWarning('zip4_unrated_district', `ZIP+4 ${sent}`, state, unrated) : null }
}

/** An exact reading of the boundary file: the binding, as the one candidate of its ZIP; `unrated` as in Zip4Reading. */
export type BoundReading = { entry: ZipEntry; unrated: WarningObject | null }

/**
 * The located answer of an exact reading of a ZIP+4 or of an address's street and house number
 * (`via`); `city`: the city sent, checked against the binding's place.
 */
export function boundLocated(
  view: SnapshotView,
  reading: BoundReading,
  via: 'zip4' | 'address_range',
  sent: { city: string | null; zip4: string | null; point: Located['point'] },
): Located {
  const { entry, unrated } = reading
  const warnings: WarningObject[] = []
  const mismatch = placeMismatch(sent.city, entry.candidates[0]!, factsOf(view).placeModel(entry.state))
  if (mismatch) warnings.push(mismatch)
  if (unrated) warnings.push(unrated)
  return {
    state: entry.state,
    entry,
    choice: 0,
    chosenBy: via,
    resolvedVia: via,
    confidenceCap: unrated ? 'low' : null,
    warnings,
    zip4: sent.zip4,
    point: sent.point,
    ...(unrated ? {} : { exact: true as const }),
  }
}

/** The bindings an ambiguity warning lists: each one's county, city and combined rate on the date. */
export const listedBindings = (view: SnapshotView, bindings: { candidate: Candidate }[], isoDate: string) =>
  bindings.map(({ candidate }) => ({
    county: candidate.county?.name ?? '',
    city: candidate.place?.name ?? '',
    combined_rate: formatRate(view.rates.combinedRate(candidate.stack, isoDate)),
  }))

/** "Minneapolis, Hennepin; Dakota": where each binding lies. */
export const bindingPlaces = (bindings: { candidate: Candidate }[]): string => bindings.map((b) => where(b.candidate)).join('; ')

function ambiguousWarning(view: SnapshotView, sent: string, bindings: Plus4Match[], isoDate: string): WarningObject {
  const listed = listedBindings(view, bindings, isoDate)
  return warning(
    'zip4_ambiguous',
    `The ${bindings.length} ranges of the boundary file holding ZIP+4 ${sent} bind it to different jurisdictions (${bindingPlaces(bindings)}): it was answered as its ZIP5, not by a guess among them.`,
    { zip4: sent.slice(6), bindings: listed },
  )
}

/** The warning of district `codes` the boundary file binds `subject` ("ZIP+4 55401-1234", "1 Main St, 55401") to, which the rate file gives no rate. */
export const unratedWarning = (
  code: 'zip4_unrated_district' | 'address_unrated_district',
  subject: string,
  state: string,
  codes: string[],
): WarningObject =>
  warning(
    code,
    `The ${state} boundary file binds ${subject} to district${codes.length > 1 ? 's' : ''} ${codes.join(', ')}, which the rate file gives no rate: ${codes.length > 1 ? 'they' : 'it'} may apply and ${codes.length > 1 ? 'are' : 'is'} not included.`,
    { districts: codes },
  )
