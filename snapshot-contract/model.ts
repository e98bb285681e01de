// The shapes every feed adapter and the geography builder hand to the compiler.
// Identity of an authority is (state, level, code); names are metadata only (trap P37).
import * as z from 'zod'

export const LEVELS = ['state', 'county', 'city', 'district'] as const
export type Level = (typeof LEVELS)[number]

export const StateCode = z.string().regex(/^[A-Z]{2}$/, 'a 2-letter upper-case state code')
export const IsoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'an ISO date YYYY-MM-DD')
export const Zip5 = z.string().regex(/^\d{5}$/, 'a 5-digit ZIP')

/** One rate of one authority over one effective window (null bound = open). */
export const JurisdictionRate = z.object({
  state: StateCode,
  level: z.enum(LEVELS),
  code: z.string().min(1),
  name: z.string(),
  /** integer, units of 1e-5 */
  rate: z.number().int().nonnegative(),
  from: IsoDate.nullable(),
  to: IsoDate.nullable(),
  /** file name (or statute label) the row came from */
  source: z.string(),
  /**
   * the code the state's return names the authority by, where the publisher gives one other than
   * `code` (a Texas county's Comptroller code beside its FIPS code); absent: none, or `code` itself
   */
  filingCode: z.string().min(1).optional(),
})
export type JurisdictionRate = z.infer<typeof JurisdictionRate>

export const JurisdictionRef = z.object({ level: z.enum(LEVELS), code: z.string().min(1) })
export type JurisdictionRef = z.infer<typeof JurisdictionRef>

/**
 * Why a candidate is one of its ZIP's, and why it ranks where it does (docs/api.md lists them):
 *   published         the source's own answer for the ZIP: an aggregator row, or the official stack
 *                     of the one county part or place the ZIP geography binds
 *   zip_point         official stack of the place holding the ZIP's Census point (a shared ZIP)
 *   usps_city         official stack of the place the ZIP's USPS city names (a shared ZIP)
 *   within_zip        official stack of a place with no ZIP of its own whose point lies nearest
 *                     the ZIP's Census point (East Palo Alto in 94303, Cudahy in 90201)
 *   usual_rate        aggregator: the rate the other ZIPs of the ZIP's city in its county (or of
 *                     the county's unincorporated area, for a ZIP in no city) agree on,
 *                     answered instead of the ZIP's own row (sub_zip_district / neighbour_region)
 *   sub_zip_district  aggregator row that folds a district covering part of the ZIP into all of it
 *   neighbour_region  aggregator row whose tax region names a neighbouring place, not the ZIP's city
 *   aggregator_figure an official state's ZIP whose official answer is only a lower bound: the
 *                     aggregator drop's combined rate for the ZIP, answered instead
 *   lower_bound       the official answer that is only a lower bound (RateVaries.lower_bound)
 *   zip_area          official stack of a place holding part of the ZIP's land (Census ZCTA→place
 *                     file), weighted by that part (a shared ZIP)
 *   known_layers      the state and county layers of a ZIP whose source figure failed the legal
 *                     bounds and which had no earlier answer (validate-state.ts withholdViolations)
 *   boundary_share    official stack of a county/place/district combination an SST boundary file
 *                     binds in the ZIP, weighted by its share of the ZIP's +4 codes (or of its
 *                     address ranges, where only address records bind the ZIP)
 */
export const CANDIDATE_BASES = ['published', 'zip_point', 'usps_city', 'within_zip', 'usual_rate', 'sub_zip_district', 'neighbour_region', 'aggregator_figure', 'lower_bound', 'zip_area', 'known_layers', 'boundary_share'] as const
export type CandidateBasis = (typeof CANDIDATE_BASES)[number]

/**
 * One way a ZIP can resolve: a county/place combination with its share of the ZIP's
 * addresses and the authorities stacked on it. A ZIP has one candidate unless it spans
 * several counties or places.
 */
export const ZipCandidate = z.object({
  zip: Zip5,
  state: StateCode,
  countyFips: z.string().regex(/^\d{5}$/).nullable(),
  countyName: z.string(),
  placeFips: z.string().nullable(),
  placeName: z.string(),
  /** share of the ZIP's addresses, 0..1 (a ranking where no measured share is held: see `basis`) */
  weight: z.number().min(0).max(1),
  stack: z.array(JurisdictionRef),
  /** absent: `published` */
  basis: z.enum(CANDIDATE_BASES).optional(),
})
export type ZipCandidate = z.infer<typeof ZipCandidate>

/**
 * The stack of an incorporated place that no ZIP candidate names (the ZIP geography gives it no
 * ZIP of its own: Cudahy, CA shares 90201 with Bell and Bell Gardens), in one of its counties.
 * Answered when a lookup names the place or points into it; its taxes stay listed as unplaced,
 * since no ZIP answer can include them.
 */
export type PlaceStack = {
  countyFips: string
  countyName: string
  placeFips: string
  placeName: string
  stack: JurisdictionRef[]
}

/** An authority whose rate is known but which could not be bound to any ZIP. */
export type UnplacedJurisdiction = {
  level: Level
  code: string
  name: string
  rate: number
  reason: string
  /** county FIPS codes the tax lies within, when known (a city's); absent: anywhere in the state */
  counties?: string[]
  /** the last day the tax is in force (ISO date); absent: it has no end */
  until?: string
}

/**
 * What an SST boundary file binds one ZIP+4 range to: a county, a place and the stack of their
 * authorities; `unrated`: district codes the boundary file names there that have no rate row (left
 * out of the stack, so an answer from it is short of them).
 */
export type Plus4Binding = {
  countyFips: string | null
  countyName: string
  placeFips: string | null
  placeName: string
  stack: JurisdictionRef[]
  unrated: string[]
}

/** `4`: a boundary `4` record's +4 range; `Z`: a `Z` record, the default for the +4s of its ZIP no `4` record lists. */
export const PLUS4_RECORDS = ['4', 'Z'] as const
export type Plus4Record = (typeof PLUS4_RECORDS)[number]

/**
 * The ZIP+4 ranges of a boundary file as columns, row i being one range inside one ZIP: +4 codes
 * `low[i]…high[i]` (inclusive, 0…9999) of ZIP `zip[i]`, in force over days `from[i]…to[i]` (day
 * numbers, format.ts; OPEN_TO: no end), from a record of kind `PLUS4_RECORDS[record[i]]`, bound
 * to `bindings[binding[i]]`.
 */
export type Plus4Ranges = {
  zip: Uint32Array
  low: Uint16Array
  high: Uint16Array
  from: Int32Array
  to: Int32Array
  record: Uint8Array
  binding: Uint32Array
}

/**
 * Which house numbers of an address range it binds: every one, the odd or the even ones; `unread`:
 * bounds that cannot be compared (not plain numbers, reversed, an unknown side, or a secondary-unit
 * range), so the range covers every house of its street only to make an answer ambiguous, never to give one.
 */
export const ADDRESS_SIDES = ['both', 'odd', 'even', 'unread'] as const
export type AddressSide = (typeof ADDRESS_SIDES)[number]

/**
 * The address ranges of a boundary file's `A` records as columns, row i being house numbers
 * `low[i]…high[i]` (inclusive) on the `ADDRESS_SIDES[side[i]]` of street `streets[street[i]]` (a
 * street-key.ts key) in ZIP `zip[i]`, in force over days `from[i]…to[i]`, bound to `bindings[binding[i]]`.
 */
export type AddressRanges = {
  zip: Uint32Array
  street: Uint32Array
  low: Uint32Array
  high: Uint32Array
  side: Uint8Array
  from: Int32Array
  to: Int32Array
  binding: Uint32Array
}

export type AddressRangeTable = { streets: string[]; ranges: AddressRanges }

/** `addresses`: the `A` records' ranges, bound to the same bindings as the ZIP+4 ranges (absent: none) */
export type Plus4Table = { bindings: Plus4Binding[]; ranges: Plus4Ranges; addresses?: AddressRangeTable }

export type RawFile = { url: string; name: string; sha256: string; size: number; member?: string }

export type FeedResult = {
  jurisdictions: JurisdictionRate[]
  candidates: ZipCandidate[]
  /** places with no ZIP of their own, with their stacks (feeds that bind places by GEOID) */
  placeStacks?: PlaceStack[]
  unplaced: UnplacedJurisdiction[]
  /** edition label of the source, e.g. `2026Q2FEB19`, `202512`, `2026-01-01` */
  edition: string
  /** newest effective date the data reflects */
  effectiveThrough: string
  /** how effective_date is known for rows of this feed */
  effectiveDateBasis: 'publisher_effective_date' | 'edition_only' | 'no_published_date'
  rowsRead: number
  rowsParsed: number
  files: RawFile[]
  notes: string[]
  /**
   * the first day every jurisdiction has a known rate, when later than the state-level rate's first
   * day (a file giving only each record's current and prior period); earlier dates are not answered from it
   */
  coverageFrom?: string
  /** jurisdictions whose rate varies by address, answered with what the file supports */
  rateVaries?: RateVaries[]
  /** the ZIP+4 and address ranges of the state's boundary file (SST feeds with one) */
  plus4?: Plus4Table
  /** ZIPs the file has a row for, every one of them rejected (a garbled rate, parts not summing): each keeps its previous answer where it had one */
  rejectedZips?: { zip: string; reason: string }[]
  /** rows of the file left out of every answer (set aside, or of a kind not decoded) whose taxes may apply */
  leftOut?: LeftOutRows[]
}

/**
 * A jurisdiction whose rate varies by address within it: the rate file prints no rate for it, or one
 * it flags as varying; the answer is what the file supports, and the exact rate is in `exact_source`.
 */
export const RateVaries = z.object({
  level: z.enum(LEVELS),
  code: z.string(),
  name: z.string(),
  /**
   * estimated: derived from other records (see basis); published: the file's rate, flagged as
   * varying; unpublished: no source the service reads publishes the tax's rate (an Idaho resort
   * city's, or the local taxes of a state answered by its statutory floor): left out of the answer
   */
  kind: z.enum(['estimated', 'published', 'unpublished']),
  basis: z.string(),
  /** the answer leaves out taxes known to apply (a city's own, where the file gives no way to derive them): a lower bound */
  lower_bound: z.boolean().optional(),
  /** the publisher's file that has the exact rates */
  exact_source: z.string(),
})
export type RateVaries = z.infer<typeof RateVaries>

/**
 * Rows of a state's file read and left out of every answer, of one kind: rows set aside (a row that
 * does not fit the layout, a rate of 100% or more) or rows of a kind whose meaning is not decoded (an
 * SST type code no source documents). The taxes they carry may apply where an answer is, so every
 * answer they may concern says so. Rows that ended before the file's first day never count.
 */
export const LeftOutRows = z.object({
  /** what the rows are, e.g. `SST type-79 rows (meaning not decoded)`, `rows set aside` */
  kind: z.string(),
  /** how many rows, every window's */
  count: z.number().int().positive(),
  /** why they are left out */
  reason: z.string(),
  /** the first few, where they are in the file (`line 18: …`) */
  examples: z.array(z.string()),
  /** how many of them are in force over which days (a null bound: open) */
  windows: z.array(z.object({ from: IsoDate.nullable(), to: IsoDate.nullable(), count: z.number().int().positive() })).min(1),
})
export type LeftOutRows = z.infer<typeof LeftOutRows>
