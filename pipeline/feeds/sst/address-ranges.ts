// The address range of a boundary `A` record (fields 4–14, docs/sources-and-formats.md §4): its
// street as a street-key.ts key, its house numbers and the side of the street it binds.
import { HOUSE_MAX } from '../../../snapshot-contract/address-ranges.ts'
import type { AddressSide } from '../../../snapshot-contract/model.ts'
import { streetKey } from '../../../snapshot-contract/street-key.ts'
import type { BoundaryAddress } from './boundary-file.ts'

/** The odd/even/both indicator (field 6); blank reads as both. */
const SIDES: Readonly<Record<string, AddressSide>> = { O: 'odd', E: 'even', B: 'both', '': 'both' }

export type AddressRange = { street: string; low: number; high: number; side: AddressSide }

/**
 * Null when the record names no street. House numbers that are not plain numbers (`12A`, grid
 * addresses), one bound blank, a reversed range, an unknown indicator or a secondary-unit range
 * (fields 11–14) make the range `unread`: it can then make an answer on its street ambiguous, never
 * give one. Both house numbers blank bind the whole street on the indicator's side.
 */
export function addressRangeOf(address: BoundaryAddress): AddressRange | null {
  const street = streetKey(address.preDirectional, address.streetName, address.streetSuffix, address.postDirectional)
  if (street === '') return null
  const unread: AddressRange = { street, low: 0, high: HOUSE_MAX, side: 'unread' }
  const side = SIDES[address.oddEven.toUpperCase()]
  const secondary = address.secondaryAbbreviation || address.secondaryLow || address.secondaryHigh
  if (!side || secondary) return unread
  if (address.houseLow === '' && address.houseHigh === '') return { street, low: 0, high: HOUSE_MAX, side }
  const [low, high] = [address.houseLow, address.houseHigh].map((text) => (/^\d{1,9}$/.test(text) ? Number(text) : null))
  if (low === null || high === null || low! > high!) return unread
  return { street, low: low!, high: high!, side }
}
