// Collects ZIP+4 ranges (model.ts Plus4Ranges) one at a time into typed columns that grow by
// doubling, so millions of boundary rows cost a few bytes each rather than an object each.
import type { Plus4Ranges, Plus4Record } from './model.ts'
import { PLUS4_RECORDS } from './model.ts'

const FIRST_CAPACITY = 1024

type Columns = { [K in keyof Plus4Ranges]: Plus4Ranges[K] }

const allocate = (capacity: number): Columns => ({
  zip: new Uint32Array(capacity),
  low: new Uint16Array(capacity),
  high: new Uint16Array(capacity),
  from: new Int32Array(capacity),
  to: new Int32Array(capacity),
  record: new Uint8Array(capacity),
  binding: new Uint32Array(capacity),
})

const COLUMNS = Object.keys(allocate(0)) as (keyof Plus4Ranges)[]

export type Plus4Row = { zip: number; low: number; high: number; from: number; to: number; record: Plus4Record; binding: number }

export class Plus4RangeBuilder {
  #columns = allocate(FIRST_CAPACITY)
  #length = 0

  get length(): number {
    return this.#length
  }

  push(row: Plus4Row): void {
    if (this.#length === this.#columns.zip.length) this.#grow()
    const at = this.#length++
    const c = this.#columns
    c.zip[at] = row.zip
    c.low[at] = row.low
    c.high[at] = row.high
    c.from[at] = row.from
    c.to[at] = row.to
    c.record[at] = PLUS4_RECORDS.indexOf(row.record)
    c.binding[at] = row.binding
  }

  /** The columns, trimmed to the rows pushed (views over the builder's buffers: push no more). */
  finish(): Plus4Ranges {
    const c = this.#columns
    const n = this.#length
    return { zip: c.zip.subarray(0, n), low: c.low.subarray(0, n), high: c.high.subarray(0, n), from: c.from.subarray(0, n), to: c.to.subarray(0, n), record: c.record.subarray(0, n), binding: c.binding.subarray(0, n) }
  }

  #grow(): void {
    const grown = allocate(this.#columns.zip.length * 2)
    for (const name of COLUMNS) (grown[name] as Uint32Array).set(this.#columns[name] as Uint32Array)
    this.#columns = grown
  }
}

/** Row indices ordered by ZIP, then +4 range, window and binding: the order the rates index stores them in. */
export function plus4Order(ranges: Plus4Ranges): Uint32Array {
  const order = new Uint32Array(ranges.zip.length)
  for (let i = 0; i < order.length; i++) order[i] = i
  const { zip, low, high, from, to, record, binding } = ranges
  return order.sort((a, b) => zip[a] - zip[b] || low[a] - low[b] || high[a] - high[b] || from[a] - from[b] || to[a] - to[b] || record[a] - record[b] || binding[a] - binding[b])
}
