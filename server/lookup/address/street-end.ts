// Where the street part of "123 Main St Apt 4 Seattle" ends, from suffixes, route numbers and units.
import {
  DIRECTIONALS,
  ROUTE_WORDS,
  RURAL_ROUTE_WORDS,
  SAINT_OR_STREET,
  STREET_SUFFIXES,
  UNIT_WITH_VALUE,
  UNIT_WITHOUT_VALUE,
  hasDigit,
  isFraction,
  isGluedUnit,
  isHouseNumber,
  isUnitDesignator,
  isUnitValue,
  matchPoBox,
} from '../../../snapshot-contract/street-vocabulary.ts'

const isRouteNumber = (key: string | undefined): boolean => key !== undefined && /^\d+[A-Z]?$/.test(key)

/** Past any unit designators and their values starting at `end`. */
function afterUnits(keys: readonly string[], end: number): number {
  for (;;) {
    const key = keys[end]
    if (key === undefined) return end
    if (isGluedUnit(key)) end += 1
    else if (UNIT_WITH_VALUE.has(key) && keys[end + 1] !== undefined && isUnitValue(keys[end + 1]!)) end += 2
    else if (UNIT_WITHOUT_VALUE.has(key)) end += keys[end + 1] !== undefined && hasDigit(keys[end + 1]!) ? 2 : 1
    else return end
  }
}

/** Past a trailing directional ("St NE") and units. */
function afterStreetName(keys: readonly string[], end: number): number {
  if (keys[end] !== undefined && DIRECTIONALS.has(keys[end]!)) end += 1
  return afterUnits(keys, end)
}

/**
 * Index just past the street in a comma-free run of token keys, or null when the street's end cannot be
 * told (no house number, or no suffix and no unit: "123 Broadway Seattle").
 */
export function findStreetEnd(keys: readonly string[]): number | null {
  const box = matchPoBox(keys, 0)
  if (box) return afterUnits(keys, box.end)
  if (RURAL_ROUTE_WORDS.has(keys[0] ?? '') && isRouteNumber(keys[1])) return afterUnits(keys, 2)
  if (!isHouseNumber(keys[0] ?? '')) return null
  const nameStart = isFraction(keys[1] ?? '') ? 2 : 1
  if (ROUTE_WORDS.has(keys[nameStart] ?? '') && isRouteNumber(keys[nameStart + 1])) return afterStreetName(keys, nameStart + 2)
  // A suffix right after the number is the street's name ("123 Court St"), so one name word must come first.
  for (let i = nameStart + 1; i < keys.length; i++) {
    if (!STREET_SUFFIXES.has(keys[i]!)) continue
    let end = i + 1
    while (end < keys.length && keys[end] !== SAINT_OR_STREET && STREET_SUFFIXES.has(keys[end]!)) end++
    if (isRouteNumber(keys[end])) end++ // "County Road 12"
    return afterStreetName(keys, end)
  }
  for (let i = nameStart + 1; i < keys.length; i++) {
    if (!isUnitDesignator(keys[i]!) && !isGluedUnit(keys[i]!)) continue
    const end = afterUnits(keys, i)
    if (end > i) return end
  }
  return null
}
