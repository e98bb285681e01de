// Checks an index reader runs over its sections once, when it opens them: every offset, range and
// index one section holds into another lies inside it, and every column read by binary search is
// sorted. A file whose checksum matches but whose bytes are damaged (or written by a faulty
// compiler) is then refused as a whole with a FormatError naming the section and row, instead of
// answering some lookups with a 500 or, worse, with a rate read from the wrong row.
import { FormatError, type StringColumn } from './format.ts'

type Column = ArrayLike<number>

export class SectionChecks {
  constructor(private readonly label: string) {}

  fail(section: string, row: number, what: string): never {
    throw new FormatError(`${this.label}: section ${section} row ${row}: ${what}`)
  }

  /** Columns that describe the same rows have the same length. */
  sameLength(rows: number, columns: Record<string, { length: number }>): void {
    for (const [name, column] of Object.entries(columns)) {
      if (column.length !== rows) throw new FormatError(`${this.label}: section ${name} has ${column.length} rows, expected ${rows}`)
    }
  }

  /** Every value is below `limit`, or equal to `none` (a sentinel for "no such row"). */
  indices(section: string, values: Column, limit: number, none?: number): void {
    for (let i = 0; i < values.length; i++) {
      const value = values[i]
      if (value >= limit && value !== none) this.fail(section, i, `${value} is past the ${limit} rows it points into`)
    }
  }

  /** Every range [start, start + count) lies within [0, total). */
  ranges(section: string, start: Column, count: Column, total: number): void {
    for (let i = 0; i < start.length; i++) {
      if (start[i] + count[i] > total) this.fail(section, i, `rows ${start[i]}…${start[i] + count[i] - 1} run past the ${total} rows they point into`)
    }
  }

  /**
   * Ranges laid end to end, as the writer lays them: the first from `first`, each from where the
   * one before ended, the last ending at `end`. A count or a start changed anywhere breaks it.
   */
  contiguous(section: string, start: Column, count: Column, first: number, end: number): void {
    let at = first
    for (let i = 0; i < start.length; i++) {
      if (start[i] !== at) this.fail(section, i, `starts at ${start[i]}, where the rows before end at ${at}`)
      at += count[i]
    }
    if (at !== end) throw new FormatError(`${this.label}: section ${section} ends at ${at}, not at ${end}`)
  }

  /** Offsets as a string column or a CSR index holds them: from 0, never decreasing, ending at `total` at most. */
  offsets(section: string, offsets: Column, total: number): void {
    if (offsets.length === 0) throw new FormatError(`${this.label}: section ${section} is empty (it holds one offset more than rows)`)
    if (offsets[0] !== 0) this.fail(section, 0, `starts at ${offsets[0]}, not 0`)
    for (let i = 1; i < offsets.length; i++) {
      if (offsets[i] < offsets[i - 1]) this.fail(section, i, `offset ${offsets[i]} is below the one before (${offsets[i - 1]})`)
    }
    if (offsets[offsets.length - 1] > total) this.fail(section, offsets.length - 1, `offset ${offsets[offsets.length - 1]} is past the ${total} elements`)
  }

  /** Never decreasing (`strict`: always increasing), as a binary search needs. */
  sorted(section: string, values: Column, strict = false): void {
    for (let i = 1; i < values.length; i++) {
      if (values[i] < values[i - 1] || (strict && values[i] === values[i - 1])) this.fail(section, i, `${values[i]} is out of order after ${values[i - 1]}`)
    }
  }

  /** Strings sorted by code unit, as the readers compare them. */
  sortedStrings(section: string, strings: StringColumn): void {
    for (let i = 1; i < strings.length; i++) {
      if (strings.compare(i - 1, i) > 0) this.fail(section, i, `${JSON.stringify(strings.get(i))} is out of order after ${JSON.stringify(strings.get(i - 1))}`)
    }
  }
}
