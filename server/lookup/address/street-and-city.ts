// Splitting what precedes the state and ZIP into a street and a city, with or without commas.
import { normalizePlaceName } from '../../../snapshot-contract/place-names.ts'
import { findStreetEnd } from './street-end.ts'
import { isGluedUnit, isHouseNumber, isUnitDesignator, matchPoBox } from '../../../snapshot-contract/street-vocabulary.ts'
import { hasComma, type Token } from './tokens.ts'

export type StreetAndCity = { street: string | null; city: string | null }

function commaParts(tokens: readonly Token[]): Token[][] {
  const parts: Token[][] = [[]]
  for (const token of tokens) {
    parts[parts.length - 1]!.push(token)
    if (hasComma(token.sep)) parts.push([])
  }
  return parts.filter((part) => part.length > 0)
}

/** Upper case, periods dropped, single spaces; PO boxes in one spelling: "P.O. Box #5" → "PO BOX 5". */
function streetText(tokens: readonly Token[]): string | null {
  if (tokens.length === 0) return null
  const keys = tokens.map((t) => t.key)
  const box = matchPoBox(keys, 0)
  const words = box ? [...(box.bare ? ['BOX'] : ['PO', 'BOX']), box.number, ...keys.slice(box.end)] : keys
  return words.join(' ')
}

function cityText(tokens: readonly Token[]): string | null {
  return normalizePlaceName(tokens.map((t) => t.text).join(' ')) || null
}

const looksLikeStreet = (part: readonly Token[]): boolean =>
  isHouseNumber(part[0]!.key) || findStreetEnd(part.map((t) => t.key)) !== null

const isUnitPart = (part: readonly Token[]): boolean => isUnitDesignator(part[0]!.key) || isGluedUnit(part[0]!.key)

export function splitStreetAndCity(tokens: readonly Token[]): StreetAndCity {
  const parts = commaParts(tokens)
  // "Apt 4, 123 Main St, Seattle": a leading unit part goes after the street.
  if (parts.length >= 3 && isUnitPart(parts[0]!) && looksLikeStreet(parts[1]!)) {
    const { street, city } = splitStreetAndCity(parts.slice(1).flat())
    return { street: `${street} ${streetText(parts[0]!)}`, city }
  }
  if (tokens.length === 0) return { street: null, city: null }
  if (parts.length >= 2 && looksLikeStreet(parts[0]!)) {
    const last = parts[parts.length - 1]!
    if (isUnitPart(last)) return { street: streetText(tokens), city: null }
    return { street: streetText(parts.slice(0, -1).flat()), city: cityText(last) }
  }
  const end = findStreetEnd(tokens.map((t) => t.key))
  if (end !== null) return { street: streetText(tokens.slice(0, end)), city: end < tokens.length ? cityText(tokens.slice(end)) : null }
  // A house number with no suffix or unit after it: where the street stops is unknown, so no city is guessed.
  if (isHouseNumber(tokens[0]!.key)) return { street: streetText(tokens), city: null }
  return { street: null, city: cityText(tokens) }
}
