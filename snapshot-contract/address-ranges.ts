// Collects the address ranges of boundary `A` records (model.ts AddressRanges) into typed columns,
// each street key stored once, and puts them in the order the rates index stores them in.
import { ADDRESS_SIDES, type AddressRangeTable, type AddressRanges, type AddressSide } from './model.ts'
import { GrowingColumns } from './growing-columns.ts'

/** The highest house number a range can hold (u32 columns): a range open at the top runs to it. */
export const HOUSE_MAX = 0xffffffff

export type AddressRow = { zip: number; street: string; low: number; high: number; side: AddressSide; from: number; to: number; binding: number }

const ADDRESS_COLUMNS = { zip: Uint32Array, street: Uint32Array, low: Uint32Array, high: Uint32Array, side: Uint8Array, from: Int32Array, to: Int32Array, binding: Uint32Array }

export class AddressRangeBuilder {
  readonly #columns = new GrowingColumns(ADDRESS_COLUMNS)
  readonly #streetIds = new Map<string, number>()
  readonly #streets: string[] = []

  get length(): number {
    return this.#columns.length
  }

  push(row: AddressRow): void {
    let street = this.#streetIds.get(row.street)
    if (street === undefined) {
      street = this.#streets.push(row.street) - 1
      this.#streetIds.set(row.street, street)
    }
    this.#columns.push({ ...row, street, side: ADDRESS_SIDES.indexOf(row.side) })
  }

  /** The streets and columns, trimmed to the rows pushed (views over the builder's buffers: push no more). */
  finish(): AddressRangeTable {
    return { streets: this.#streets, ranges: this.#columns.finish() }
  }
}

/**
 * The table with its streets sorted (as strings compare) and its rows ordered by ZIP, street, house
 * range, side, window and binding: a reader finds a ZIP's street by binary search on both.
 */
export function sortedAddressRanges({ streets, ranges }: AddressRangeTable): AddressRangeTable {
  const byName = streets.map((_, i) => i).sort((a, b) => (streets[a]! < streets[b]! ? -1 : streets[a]! > streets[b]! ? 1 : 0))
  const rank = new Uint32Array(streets.length)
  byName.forEach((id, position) => (rank[id] = position))
  const { zip, street, low, high, side, from, to, binding } = ranges
  const order = new Uint32Array(zip.length)
  for (let i = 0; i < order.length; i++) order[i] = i
  order.sort((a, b) => zip[a]! - zip[b]! || rank[street[a]!]! - rank[street[b]!]! || low[a]! - low[b]! || high[a]! - high[b]! || side[a]! - side[b]! || from[a]! - from[b]! || to[a]! - to[b]! || binding[a]! - binding[b]!)
  const sorted = new GrowingColumns(ADDRESS_COLUMNS)
  for (const i of order) sorted.push({ zip: zip[i]!, street: rank[street[i]!]!, low: low[i]!, high: high[i]!, side: side[i]!, from: from[i]!, to: to[i]!, binding: binding[i]! })
  return { streets: byName.map((id) => streets[id]!), ranges: sorted.finish() }
}

/** Whether house `house` lies in row `i` on the side it binds (an `unread` row holds every house of its street). */
export function rangeHolds(ranges: Pick<AddressRanges, 'low' | 'high' | 'side'>, i: number, house: number): boolean {
  const side = ADDRESS_SIDES[ranges.side[i]!]
  if (side === 'unread') return true
  if (house < ranges.low[i]! || house > ranges.high[i]!) return false
  return side === 'both' || (side === 'odd') === (house % 2 === 1)
}
