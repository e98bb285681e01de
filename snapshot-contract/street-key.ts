// The key a street is matched by, one spelling for the boundary file's address records (pre-directional,
// name, suffix, post-directional in four fields) and for an address's street as the lookup normalized it
// ("123 NORTH MAIN STREET APT 4"): every word upper case without accents, periods or apostrophes, and a
// suffix or directional in its USPS abbreviation. Word by word, so which part a word belongs to ("North"
// as a directional or as the name itself) never makes two keys of one street.
import {
  CITY_LIKE_SUFFIX_ABBREVIATIONS,
  DIRECTIONAL_ABBREVIATIONS,
  DIRECTIONALS,
  isFraction,
  isGluedUnit,
  isUnitDesignator,
  STREET_SUFFIX_ABBREVIATIONS,
} from './street-vocabulary.ts'

const wordsOf = (text: string): string[] =>
  text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toUpperCase()
    .replace(/[.']/g, '')
    .split(/[^A-Z0-9]+/)
    .filter((word) => word !== '')

const abbreviated = (word: string): string =>
  STREET_SUFFIX_ABBREVIATIONS.get(word) ?? CITY_LIKE_SUFFIX_ABBREVIATIONS.get(word) ?? DIRECTIONAL_ABBREVIATIONS.get(word) ?? word

/** The key of a street written in parts (empty parts are skipped); "" when no part has a letter or digit. */
export function streetKey(...parts: string[]): string {
  return wordsOf(parts.join(' ')).map(abbreviated).join(' ')
}

/** A house on a street: its number and its street's key. */
export type StreetAddressKey = { house: number; street: string }

/**
 * The house number and street key of a normalized street ("123 N MAIN ST APT 4" → 123, "N MAIN ST");
 * null when its house number is not a plain number ("123A", "123 1/2", "N123W456"), or it is a PO
 * box or rural route: such an address is not matched against address ranges.
 */
export function streetAddressKey(street: string): StreetAddressKey | null {
  const words = street.split(/\s+/).filter((word) => word !== '')
  const [house, ...rest] = words
  if (!house || !/^\d+$/.test(house) || isFraction(rest[0] ?? '')) return null
  const unit = rest.findIndex((word, i) => i > 0 && (isUnitDesignator(word) || isGluedUnit(word)))
  const key = streetKey(...(unit < 0 ? rest : rest.slice(0, unit)))
  return key === '' ? null : { house: Number(house), street: key }
}

/**
 * The key with its directional written on the other side ("N ROBERT ST" ↔ "ROBERT ST N"), for an
 * address written so where its ZIP has no street of its own key; null when the key has no directional
 * at one end only, or would be left with no name.
 */
export function otherDirectionalSide(key: string): string | null {
  const words = key.split(' ')
  if (words.length < 3) return null
  const [first, last] = [words[0]!, words[words.length - 1]!]
  if (DIRECTIONALS.has(first) === DIRECTIONALS.has(last)) return null
  return DIRECTIONALS.has(first) ? [...words.slice(1), first].join(' ') : [last, ...words.slice(0, -1)].join(' ')
}
