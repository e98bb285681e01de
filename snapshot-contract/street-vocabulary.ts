// Words that mark where a street ends: USPS suffixes, route words, directionals, unit designators, PO boxes.
// All sets hold token keys (upper case, periods removed).

/**
 * Common USPS street suffixes, written out and abbreviated, each with its USPS standard abbreviation
 * (the form of a boundary file's `street_suffix_abbr`). Words frequent in city names (Park, Springs,
 * Bend, Pass, Point, Key, Heights) are left out: a missed suffix costs the city, a false one corrupts it.
 */
const SUFFIX_FORMS: Readonly<Record<string, readonly string[]>> = {
  ST: ['STR', 'STREET'], AVE: ['AV', 'AVENUE'], RD: ['ROAD'], BLVD: ['BOULEVARD'], DR: ['DRIVE'],
  LN: ['LANE'], WAY: ['WY'], CT: ['COURT'], PL: ['PLACE'], PKWY: ['PKY', 'PARKWAY'], HWY: ['HIGHWAY'],
  CIR: ['CIRCLE'], TER: ['TERR', 'TERRACE'], TRL: ['TRAIL'], SQ: ['SQUARE'], LOOP: [], ALY: ['ALLEY'],
  EXPY: ['EXPRESSWAY'], FWY: ['FREEWAY'], PIKE: [], TPKE: ['TURNPIKE'], ROW: [], RUN: [], PATH: [], WALK: [],
  XING: ['CROSSING'], PLZ: ['PLAZA'], CV: ['COVE'], BYP: ['BYPASS'], CSWY: ['CAUSEWAY'], HOLW: ['HOLLOW'],
  RTE: ['ROUTE', 'RT'], TRCE: ['TRACE'], CRES: ['CRESCENT'], ESPLANADE: [],
}

/** Every written form of a known suffix → its USPS standard abbreviation. */
export const STREET_SUFFIX_ABBREVIATIONS: ReadonlyMap<string, string> = new Map(
  Object.entries(SUFFIX_FORMS).flatMap(([abbreviation, forms]) => [abbreviation, ...forms].map((form) => [form, abbreviation] as const)),
)

export const STREET_SUFFIXES: ReadonlySet<string> = new Set(STREET_SUFFIX_ABBREVIATIONS.keys())

/**
 * The suffixes left out of STREET_SUFFIXES for being frequent in city names, with their USPS
 * abbreviations: a street already known to be one may still end in them ("Summit Heights" → "SUMMIT HTS").
 */
export const CITY_LIKE_SUFFIX_ABBREVIATIONS: ReadonlyMap<string, string> = new Map([
  ['PARK', 'PARK'], ['SPRINGS', 'SPGS'], ['BEND', 'BND'], ['PASS', 'PASS'], ['POINT', 'PT'], ['KEY', 'KY'], ['HEIGHTS', 'HTS'],
])

/** "123 Main St St Paul": an ST after a suffix starts the city (Saint), so it never extends the street. */
export const SAINT_OR_STREET = 'ST'

/** Words that take a route number right after the house number: "123 Hwy 101", "456 Route 66". */
export const ROUTE_WORDS: ReadonlySet<string> = new Set(['HWY', 'HIGHWAY', 'RTE', 'ROUTE', 'RT', 'SR', 'CR', 'FM'])

/** Rural and highway-contract routes, which stand in for the house number: "RR 2 Box 5", "HC 1 Box 40". */
export const RURAL_ROUTE_WORDS: ReadonlySet<string> = new Set(['RR', 'HC'])

/** Only abbreviations: "North Bend" after a street is a city, "N" is a directional. */
export const DIRECTIONALS: ReadonlySet<string> = new Set(['N', 'S', 'E', 'W', 'NE', 'NW', 'SE', 'SW'])

/** Directionals written out → their abbreviation (within a street already told apart from its city). */
export const DIRECTIONAL_ABBREVIATIONS: ReadonlyMap<string, string> = new Map([
  ['NORTH', 'N'], ['SOUTH', 'S'], ['EAST', 'E'], ['WEST', 'W'], ['NORTHEAST', 'NE'], ['NORTHWEST', 'NW'], ['SOUTHEAST', 'SE'], ['SOUTHWEST', 'SW'],
])

/** Unit designators followed by a unit value ("APT 4", "STE 200", "# 5", "BOX 7" after a rural route). */
export const UNIT_WITH_VALUE: ReadonlySet<string> = new Set([
  'APT', 'APARTMENT', 'STE', 'SUITE', 'UNIT', '#', 'RM', 'ROOM', 'FL', 'FLR', 'FLOOR', 'BLDG', 'BUILDING',
  'LOT', 'SPC', 'SPACE', 'DEPT', 'TRLR', 'HNGR', 'BOX',
])

/** Unit designators that may stand alone ("REAR", "PH"); they take a value only when it has a digit. */
export const UNIT_WITHOUT_VALUE: ReadonlySet<string> = new Set(['BSMT', 'FRNT', 'LBBY', 'LOWR', 'OFC', 'PH', 'REAR', 'SIDE', 'UPPR'])

export const isUnitDesignator = (key: string): boolean => UNIT_WITH_VALUE.has(key) || UNIT_WITHOUT_VALUE.has(key)

/** "#5", "APT#5": a designator and its value in one word. */
export const isGluedUnit = (key: string): boolean => {
  const glued = /^([A-Z]*)#(\w[\w-]*)$/.exec(key)
  return glued !== null && (glued[1] === '' || isUnitDesignator(glued[1]!))
}

export const hasDigit = (key: string): boolean => /\d/.test(key)

const NUMBER_WORDS: ReadonlySet<string> = new Set(['ONE', 'TWO', 'THREE', 'FOUR', 'FIVE', 'SIX', 'SEVEN', 'EIGHT', 'NINE', 'TEN'])

/** 123, 123A, 123-45 (Queens), N123W45678 (Wisconsin grid), and the spelled numbers of "One Microsoft Way". */
export function isHouseNumber(key: string): boolean {
  return /^\d+[A-Z]?$|^\d+-\d+[A-Z]?$|^[NSEW]\d+[NSEW]\d+$/.test(key) || NUMBER_WORDS.has(key)
}

/** "1/2" in "123 1/2 Main St". */
export const isFraction = (key: string): boolean => /^\d+\/\d+$/.test(key)

/** Words that make a following number a box, unit or route number rather than a ZIP. */
export const NUMBER_TAKING_WORDS: ReadonlySet<string> = new Set([...UNIT_WITH_VALUE, ...ROUTE_WORDS, ...RURAL_ROUTE_WORDS, 'POB'])

/** What may follow a unit designator as its value: "4", "200A", "B", "PH". */
export const isUnitValue = (key: string): boolean => /^#?[A-Z0-9][A-Z0-9-]*$/.test(key) && (hasDigit(key) || key.replace(/^#/, '').length <= 2)

/** `bare` for "Box 5" without a PO: kept as written, since rural route boxes are not PO boxes. */
export type PoBox = { end: number; number: string; bare: boolean }

const PO_BOX_PREFIXES: readonly (readonly string[])[] = [
  ['POST', 'OFFICE', 'BOX'],
  ['P', 'O', 'BOX'],
  ['PO', 'BOX'],
  ['POBOX'],
  ['POB'],
  ['BOX'],
]

/** "PO Box 5", "P.O. Box 5", "P. O. Box #5", "POB 5", "Post Office Box 5", "Box 5" starting at `start`. */
export function matchPoBox(keys: readonly string[], start: number): PoBox | null {
  for (const prefix of PO_BOX_PREFIXES) {
    if (!prefix.every((word, i) => keys[start + i] === word)) continue
    const numberKey = keys[start + prefix.length]
    if (numberKey === undefined) return null
    const number = numberKey.replace(/^#/, '')
    if (!/^[A-Z0-9-]+$/.test(number) || !(hasDigit(number) || number.length === 1)) return null
    return { end: start + prefix.length + 1, number, bare: prefix.length === 1 && prefix[0] === 'BOX' }
  }
  return null
}
