// Collects ZIP+4 ranges (model.ts Plus4Ranges) one at a time into typed columns.
import type { Plus4Ranges, Plus4Record } from './model.ts'
import { PLUS4_RECORDS } from './model.ts'
import { GrowingColumns } from './growing-columns.ts'

export type Plus4Row = { zip: number; low: number; high: number; from: number; to: number; record: Plus4Record; binding: number }

const PLUS4_COLUMNS = { zip: Uint32Array, low: Uint16Array, high: Uint16Array, from: Int32Array, to: Int32Array, record: Uint8Array, binding: Uint32Array }

export class Plus4RangeBuilder {
  readonly #columns = new GrowingColumns(PLUS4_COLUMNS)

  get length(): number {
    return this.#columns.length
  }

  push(row: Plus4Row): void {
    this.#columns.push({ ...row, record: PLUS4_RECORDS.indexOf(row.record) })
  }

  /** The columns, trimmed to the rows pushed (views over the builder's buffers: push no more). */
  finish(): Plus4Ranges {
    return this.#columns.finish()
  }
}

/** Row indices ordered by ZIP, then +4 range, window and binding: the order the rates index stores them in. */
export function plus4Order(ranges: Plus4Ranges): Uint32Array {
  const order = new Uint32Array(ranges.zip.length)
  for (let i = 0; i < order.length; i++) order[i] = i
  const { zip, low, high, from, to, record, binding } = ranges
  return order.sort((a, b) => zip[a] - zip[b] || low[a] - low[b] || high[a] - high[b] || from[a] - from[b] || to[a] - to[b] || record[a] - record[b] || binding[a] - binding[b])
}
