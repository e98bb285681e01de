// Census place names carry a legal-status suffix ("Springfield city"); USPS city names are upper
// case and abbreviated ("ST LOUIS", "FT WORTH"). These helpers bring both to one comparable form.

// Longest first, so "city and borough" wins over "borough" and "metro township" over "township".
const LEGAL_SUFFIXES = [
  'consolidated government',
  'metropolitan government',
  'unified government',
  'metro government',
  'city and borough',
  'metro township',
  'urban county',
  'municipality',
  'corporation',
  'zona urbana',
  'comunidad',
  'township',
  'borough',
  'village',
  'city',
  'town',
  'CDP',
]

/** Suffixes of Census CDP-type places (statistical, not governments); PR uses comunidad and zona urbana. */
const CDP_SUFFIXES = new Set(['CDP', 'comunidad', 'zona urbana'])

/** Suffixes used only by city-county consolidations, whose names read "Core city-County name". */
const CONSOLIDATION_SUFFIXES = new Set([
  'consolidated government',
  'metropolitan government',
  'unified government',
  'metro government',
  'urban county',
])

export type ParsedPlaceName = {
  /** "Springfield" */
  name: string
  /** the legal suffix removed, e.g. "city", "CDP"; null when there was none ("Carson City") */
  suffix: string | null
  /** true for "(balance)" parts of consolidated cities */
  balance: boolean
}

/** Splits a published Census place name ("Indianapolis city (balance)") into name and legal suffix. */
export function parsePlaceName(fullName: string): ParsedPlaceName {
  let rest = fullName.trim()
  const balance = rest.endsWith(' (balance)')
  if (balance) rest = rest.slice(0, -' (balance)'.length).trimEnd()
  // Suffixes are lower case in Census names; matching case-sensitively keeps "Carson City" whole.
  const suffix = LEGAL_SUFFIXES.find((s) => rest.endsWith(' ' + s)) ?? null
  if (suffix) rest = rest.slice(0, -(suffix.length + 1)).trimEnd()
  return { name: rest, suffix, balance }
}

export function stripLegalSuffix(fullName: string): string {
  return parsePlaceName(fullName).name
}

export function isCdpSuffix(suffix: string | null): boolean {
  return suffix !== null && CDP_SUFFIXES.has(suffix)
}

const WORD_EXPANSIONS: Record<string, string> = { ST: 'SAINT', FT: 'FORT', MT: 'MOUNT' }
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/

/** Upper case, accents and punctuation removed, ST/FT/MT expanded, single spaces: "St. Paul" → "SAINT PAUL". */
export function normalizePlaceName(name: string): string {
  // Most names are plain ASCII, which decomposing leaves as it is.
  const unaccented = PRINTABLE_ASCII.test(name) ? name : name.normalize('NFD').replace(/[\u0300-\u036f]/g, '')
  const words = unaccented
    .toUpperCase()
    .replace(/['’.]/g, '')
    .replace(/[^A-Z0-9]+/g, ' ')
    .trim()
    .split(' ')
    .filter((w) => w !== '')
  return words.map((w) => WORD_EXPANSIONS[w] ?? w).join(' ')
}

/**
 * A name's words for matching: normalized, and a leading "City of" dropped so USPS's and CDTFA's
 * "CITY OF INDUSTRY" meets the Census "Industry city".
 */
export function placeMatchWords(name: string): string {
  return normalizePlaceName(name).replace(/^CITY OF /, '')
}

/** Key for equality matching; spaces dropped so "DE KALB" meets "DeKalb" and "MC ALLEN" meets "McAllen". */
export function placeMatchKey(name: string): string {
  return placeMatchWords(name).replace(/ /g, '')
}

/** Census places known by a name their Census name does not contain, by Census name. */
const COMMON_NAMES: Record<string, string> = {
  // Its legal name is the City of Angels; USPS, CDTFA and everyone else say Angels Camp.
  'Angels city': 'Angels Camp',
}

/**
 * Keys a place answers to. A consolidated city-county ("Nashville-Davidson metropolitan government
 * (balance)", "Macon-Bibb County") is mailed to under its core city name, so that name is added. A
 * place whose name in common use follows its legal name in parentheses ("San Buenaventura
 * (Ventura) city", "El Paso de Robles (Paso Robles) city"), or is known otherwise (COMMON_NAMES),
 * answers to both. A city also answers to its name with "city" ("NEW YORK CITY").
 */
export function placeMatchKeys(fullName: string): string[] {
  const parsed = parsePlaceName(fullName)
  const { suffix, balance } = parsed
  const alias = /^(.*?)\s*\((.+)\)$/.exec(parsed.name)
  const name = alias ? alias[1]! : parsed.name
  const keys = [placeMatchKey(name)]
  // "New York city" is New York City to everyone who writes it.
  if (suffix === 'city') keys.push(placeMatchKey(`${name} city`))
  if (alias) keys.push(placeMatchKey(alias[2]!))
  const common = COMMON_NAMES[fullName]
  if (common) keys.push(placeMatchKey(common))
  const consolidated = balance || (suffix !== null && CONSOLIDATION_SUFFIXES.has(suffix)) || / County\b/.test(name)
  if (consolidated) {
    const core = name.split(/[-/,]/)[0]!.trim()
    const coreKey = placeMatchKey(core)
    if (core !== name && coreKey !== '' && !keys.includes(coreKey)) keys.push(coreKey)
  }
  return keys
}

/** Places grouped by every key they answer to (placeMatchKeys): the one index every name match uses. */
export function placesByMatchKey<P extends { fullName: string }>(places: Iterable<P>): Map<string, P[]> {
  const byKey = new Map<string, P[]>()
  for (const place of places) {
    for (const key of placeMatchKeys(place.fullName)) {
      const list = byKey.get(key)
      if (list) list.push(place)
      else byKey.set(key, [place])
    }
  }
  return byKey
}
