// meta.warnings items: plain strings (the address module's repair messages) or objects with a
// `code` and a `message`. Every object code this endpoint sends is listed in WARNING_CODES.
import { feedTraits } from '../../snapshot-contract/feed-traits.ts'
import type { StateRecord } from '../../snapshot-contract/manifest.ts'

export const WARNING_CODES = {
  aggregator_estimate: 'the state is served from Avalara ZIP5 tables: estimates by an aggregator, not an official source',
  feed_fallback: "the state is served by a fallback feed (meta.feed): its preferred official feed had no file for the state or failed; `reason` says which and why",
  rate_varies_by_address: "the rate file prints no rate for a jurisdiction of the answer (or flags the rate it prints as varying): the rate varies by address within it; the answer is what the file supports (`basis`), and the exact rate is in the publisher's address-level file (`exact_source`)",
  local_tax_not_included: "a local tax may apply where the answer is that no source the service reads publishes a rate for (an Idaho resort city's local option tax, or the local taxes of a state answered by its statutory floor for want of its official source): the answer leaves it out and is a lower bound; `exact_source` says who has the rate",
  rows_left_out:
    "rows of the state's file were left out of every answer: set aside (they do not fit the file's layout or units) or of a kind whose meaning is not decoded (an SST type code no source documents); the taxes they carry may apply here and are not included (`kinds`: each kind with how many of its rows are in force on the date)",
  unplaced_jurisdictions: 'local or district taxes of the state that could not be bound to ZIPs may lie where the answer is (in its county, in force on its date); they may apply and are not included (listed in full mode)',
  state_data_status: 'the state data is stale, or its last refresh failed and earlier data is served',
  ambiguous_zip5: 'the ZIP has several candidate jurisdictions; the highest-weight one was answered',
  sub_zip_district: 'the aggregator\'s figure for the ZIP includes a special district covering part of it; the rate the other ZIPs of its city in its county agree on was answered (the district stays a candidate)',
  neighbour_region: 'the aggregator files the ZIP under a tax region named for a neighbouring place or another county; the rate the other ZIPs of its own city (or county) agree on, or for a ZIP in no city the row without the neighbouring city\'s rate, was answered (the region stays a candidate)',
  place_input_mismatch: 'the city or location sent is not the place the answer is for',
  place_name_ambiguous: 'several places in the state have the name sent; the most populous (without population figures: the largest by land area) was answered',
  postal_city: 'the name sent is no place of the state but the USPS name of some of its ZIPs; the taxing place most of them resolve to was answered (others listed)',
  county_only: 'the place is a CDP (unincorporated), or no ZIP carries its own rates; its county\'s rates are answered',
  place_without_zip: 'the place has no ZIP of its own (it shares its ZIPs with neighbouring places); its own official rates were answered, with a ZIP of its county near it as the answer\'s ZIP',
  nearest_zip: 'no ZIP matches the point\'s county and place, or the point fell outside the county outlines near the shore; the nearest ZIP centroid was answered',
  zip4_not_used: 'no ZIP+4 data is held for the state; the 5-digit ZIP was answered',
  zip4_not_covered: "the ZIP+4 lies in no range of the state's SST boundary file in force on the date (or the ZIP's latest figure was not published); the 5-digit ZIP was answered",
  zip4_ambiguous: "ranges of the state's SST boundary file bind the ZIP+4 to different jurisdictions; the 5-digit ZIP was answered, not a guess among them (`bindings` lists them)",
  zip4_unrated_district: "the state's SST boundary file binds the ZIP+4 to a district the rate file gives no rate; it may apply and is not included",
  address_ambiguous: "address ranges of the state's SST boundary file holding the address's house number bind it to different jurisdictions; the 5-digit ZIP was answered, not a guess among them (`bindings` lists them)",
  address_unrated_district: "the state's SST boundary file binds the address's house number to a district the rate file gives no rate; it may apply and is not included",
  zip_answer_carried_over: "the latest source figure for the ZIP failed validation and was not published; the ZIP's answer of an earlier snapshot was kept",
  zip_figure_rejected: 'the source figure for the ZIP failed the legal bounds and no earlier answer was held: the state and county rates it carries were answered (city or district taxes may apply), at low confidence',
  zip_placed_by_region_name: 'the ZIP geography lacks the ZIP (a PO-box or unique ZIP); it was placed by the tax region name an aggregator edition gives it, and the official rates of that place were answered',
  zip_placed_by_prefix: 'the ZIP geography lacks the ZIP (a PO-box or unique ZIP); USPS assigns its prefix to a state that levies one statutory rate at every address, and that rate was answered',
  zip_not_known: 'the address\'s ZIP is held by no served state (a PO-box or unique ZIP the ZIP geography lacks); the address was placed by its city instead',
  date_after_data: 'the date asked for is after the newest data held; the latest rates were answered',
  data_not_yet_effective: 'today is before the first day of the data in service and no earlier data covers it',
  earlier_snapshot: 'the date is before the data in service; an earlier snapshot answered',
  earlier_edition: 'the date is before the data in service; an older edition held in the snapshot answered, for the window it is valid (from its month until the next edition held)',
  statutory_rate_undated: 'a statutory rate has no published start date; it is verified for the rules table date only',
  state_from_input: 'the path state is not a state; the state of the place or point was served',
  geocoder_no_match: 'the upstream geocoder found no match for the address in its state and ZIPs; the address was resolved without it',
  geocoder_place_unmatched: 'no candidate of the geocoded ZIP has the county and place the geocoder found; the highest-weight one was answered',
} as const
export type WarningCode = keyof typeof WARNING_CODES

export type WarningObject = { code: WarningCode; message: string; [detail: string]: unknown }
export type LookupWarning = string | WarningObject

const UNPLACED_LEVELS = new Set(['city', 'district'])

export type UnplacedTax = StateRecord['unplaced'][number]

/** A jurisdiction whose rate the state's file does not give exactly (the record's `rate_varies`). */
export type RateVaries = StateRecord['rate_varies'][number]

/** The state's taxes that could not be bound to ZIPs and may apply somewhere: a city's or a district's, above 0. */
export const taxingUnplaced = (record: StateRecord): UnplacedTax[] => record.unplaced.filter((u) => UNPLACED_LEVELS.has(u.level) && u.rate !== '0.00000')

/** Of `taxes`, those that may apply to an answer in the county (null: not known). */
export const unplacedInCounty = (taxes: UnplacedTax[], countyFips: string | null): UnplacedTax[] =>
  taxes.filter((u) => !u.counties || countyFips === null || u.counties.includes(countyFips))

/** Of `taxes`, those still in force on the date. */
export const unplacedOn = (taxes: UnplacedTax[], isoDate: string): UnplacedTax[] => taxes.filter((u) => !u.until || u.until >= isoDate)

/** An answered tax a warning can be compared with: its level, code, name and rate (5-decimal text). */
export type AnsweredTax = { level: string; code: string; name: string; rate: string }

/**
 * The unplaced tax to give as an example: a named one whose rate no answered tax of its level
 * carries, else a named one, else the first. `sameAs` is the answered tax of its level with the
 * same rate, when the example has one (it may be that tax filed under another code).
 */
export function unplacedExample(unplaced: readonly UnplacedTax[], answered: readonly AnsweredTax[]): { tax: UnplacedTax; sameAs: AnsweredTax | null } {
  const twin = (u: UnplacedTax) => answered.find((a) => a.level === u.level && a.rate === u.rate) ?? null
  const tax = unplaced.find((u) => u.name && !twin(u)) ?? unplaced.find((u) => !twin(u)) ?? unplaced.find((u) => u.name) ?? unplaced[0]!
  return { tax, sameAs: twin(tax) }
}

const taxLabel = (tax: { level: string; code: string; name: string }) =>
  tax.name.includes(tax.code) ? tax.name : tax.name ? `${tax.name} (${tax.level} ${tax.code})` : `${tax.level} ${tax.code}`

/**
 * Warnings that hold for every answer of a state in a snapshot: the aggregator label, the status,
 * and the `unplaced` taxes that may apply to the answer (`unplacedInCounty`, `unplacedOn`), listed when `detailed` (full
 * mode); `inCounty`: the answer's county is known, so those taxes are the ones that may lie there;
 * `answered`: the taxes the answer includes, so the example given is told apart from them.
 */
export function standingWarnings(
  record: StateRecord,
  snapshotId: string,
  unplaced: UnplacedTax[],
  inCounty: boolean,
  detailed: boolean,
  answered: readonly AnsweredTax[] = [],
): WarningObject[] {
  const warnings: WarningObject[] = []
  if (feedTraits(record.feed).sourceKind === 'aggregator') {
    warnings.push({
      code: 'aggregator_estimate',
      message: `Rates for ${record.code} are Avalara estimates (an aggregator, not an official source), edition ${record.edition}.`,
      edition: record.edition,
    })
  }
  if (record.fallback_reason) {
    warnings.push({
      code: 'feed_fallback',
      message: `${record.code} is served by ${record.feed}, not its preferred feed: ${record.fallback_reason}.`,
      feed: record.feed,
      reason: record.fallback_reason,
    })
  }
  if (unplaced.length > 0) {
    const { tax, sameAs } = unplacedExample(unplaced, answered)
    const twinNote = sameAs ? `, the rate of the ${sameAs.level} tax ${taxLabel(sameAs)} this answer includes: it may be that tax under another code` : ''
    warnings.push({
      code: 'unplaced_jurisdictions',
      message:
        `${unplaced.length} ${record.code} local or district tax${unplaced.length > 1 ? 'es' : ''} (e.g. ${taxLabel(tax)} at ${tax.rate}${twinNote}) ` +
        `could not be bound to ZIPs${inCounty ? ' and may lie in this county' : ''}; they may apply and are not included.`,
      count: unplaced.length,
      ...(detailed ? { jurisdictions: unplaced.map(({ level, code, name, rate }) => ({ level, code, name, rate })) } : {}),
    })
  }
  const status = statusWarning(record, snapshotId)
  if (status) warnings.push(status)
  return warnings
}

function statusWarning(record: StateRecord, snapshotId: string): WarningObject | null {
  const carried = record.data_from_snapshot && record.data_from_snapshot !== snapshotId ? ` (data from snapshot ${record.data_from_snapshot})` : ''
  const base = { code: 'state_data_status' as const, status: record.status }
  switch (record.status) {
    case 'failed':
      return { ...base, message: `The last refresh of ${record.code} failed; the previous data${carried} is served.` }
    case 'anchor_regression':
      return { ...base, message: `New ${record.code} data diverged from a pinned anchor and was not published; the previous data${carried} is served.` }
    case 'maintenance':
      return { ...base, message: `${record.code} is under maintenance (known upstream outage); the last good data${carried} is served.` }
    case 'stale':
      return { ...base, message: `${record.code} data is stale: edition ${record.edition}, effective through ${record.effective_through}.` }
    default:
      return null
  }
}

/**
 * rate_varies_by_address for the answered jurisdictions whose rate the file does not give exactly
 * (`varies`: those of the state's `rate_varies` that the answer includes, in their order), and the
 * confidence that leaves: low for a rate estimated from other records, medium for a printed rate
 * flagged as varying. Null when no answered jurisdiction is one of them.
 */
export function rateVariesWarning(record: StateRecord, answered: readonly RateVaries[]): { warning: WarningObject; cap: 'low' | 'medium' } | null {
  const varies = answered.filter((v) => v.kind !== 'unpublished')
  if (varies.length === 0) return null
  const first = varies[0]!
  const estimated = varies.some((v) => v.kind === 'estimated')
  const what = estimated ? 'prints no rate for' : 'flags the rate it prints as varying within'
  return {
    cap: estimated ? 'low' : 'medium',
    warning: {
      code: 'rate_varies_by_address',
      message: `The ${record.code} rate file ${what} ${first.name}: the rate varies by address. Answered: ${first.basis}. The exact rate is in ${first.exact_source}.`,
      exact_source: first.exact_source,
      jurisdictions: varies.map(({ level, code, name, kind, basis }) => ({ level, code, name, kind, basis })),
    },
  }
}

/**
 * local_tax_not_included for the answered jurisdictions standing for a local tax whose rate no source
 * publishes (`unpublished` in the state's rate_varies): the answer is a lower bound, at low confidence.
 * Null when the answer includes none.
 */
export function notIncludedWarning(record: StateRecord, answered: readonly RateVaries[]): { warning: WarningObject; cap: 'low' } | null {
  const unpublished = answered.filter((v) => v.kind === 'unpublished')
  if (unpublished.length === 0) return null
  const first = unpublished[0]!
  return {
    cap: 'low',
    warning: {
      code: 'local_tax_not_included',
      message: `A ${record.code} local tax may apply here that this answer does not include: ${first.basis}. Its rate is with ${first.exact_source}.`,
      exact_source: first.exact_source,
      jurisdictions: unpublished.map(({ level, code, name, basis }) => ({ level, code, name, basis })),
    },
  }
}

/** How many of a kind of left-out rows are in force on the date. */
const inForceOn = (kind: StateRecord['left_out'][number], isoDate: string): number =>
  kind.windows.reduce((sum, w) => sum + ((w.from === null || w.from <= isoDate) && (w.to === null || w.to >= isoDate) ? w.count : 0), 0)

/**
 * rows_left_out for an answer of the state on the date: the kinds of rows its file had left out with
 * how many of each are in force then (rows not in force on the date do not count); null when none is.
 * Where they lie is not known, so it concerns every answer of the state.
 */
export function leftOutWarning(record: StateRecord, isoDate: string): WarningObject | null {
  const kinds = record.left_out.map((kind) => ({ kind: kind.kind, count: inForceOn(kind, isoDate), reason: kind.reason, examples: kind.examples })).filter((k) => k.count > 0)
  if (kinds.length === 0) return null
  const total = kinds.reduce((sum, k) => sum + k.count, 0)
  const what = kinds.map((k) => `${k.count} ${k.kind} (${k.reason})`).join('; ')
  return {
    code: 'rows_left_out',
    message: `${total} row${total > 1 ? 's' : ''} of the ${record.code} file in service ${total > 1 ? 'were' : 'was'} left out of every answer: ${what}. The taxes they carry may apply here and are not included.`,
    count: total,
    kinds,
  }
}

export const warning = (code: WarningCode, message: string, detail: Record<string, unknown> = {}): WarningObject => ({ code, message, ...detail })
