// Rows a reader sets aside: a data row that does not fit (a code of another shape, a rate that is no
// number, a rate of 100% or more) costs that row, never the file. Each is counted and the first few
// are named, with where they are, in the state's freshness notes; their taxes are left out of every
// answer, and the answers say so (LeftOutRows). A file fails only past the share of its data rows
// every reader keeps (pipeline/fetch/set-aside-share.ts).
import type { LeftOutRows } from '../../snapshot-contract/model.ts'
import { formatRate } from '../../snapshot-contract/rate-units.ts'
import { RowsSetAside } from '../fetch/set-aside-share.ts'

/** How many set-aside rows a left-out record names. */
const NAMED = 5
/** 100% in 1e-5 units: no sales tax rate reaches it, so a row printing one is set aside. */
const WHOLE = 100_000

/** Why a rate of 100% or more is set aside; null for a rate below. */
export const wholeOrMore = (units: number): string | null => (units >= WHOLE ? `${formatRate(units)} is 100% or more: no sales tax rate` : null)

/** The days a set-aside row's tax would be in force, where the row gives them (null: open or not known). */
export type RowWindow = { from: string | null; to: string | null }

export class SetAsideRows extends RowsSetAside {
  readonly #rows: { where: string; reason: string; window: RowWindow; locality: string | null }[] = []

  /**
   * A row set aside: `where` it is (`line 18`, `row 40`), why, its window when the row gives one, and
   * the locality (county, independent city) it names when that can be read: a locality named only by
   * rows set aside is in the file, its own taxes left out (set-aside-counties.ts).
   */
  override add(where: string, reason: string, window: RowWindow = { from: null, to: null }, locality: string | null = null): void {
    super.add(where, reason)
    this.#rows.push({ where, reason, window, locality })
  }

  /** The localities the rows set aside name, as the file writes them, where a row names one. */
  namedLocalities(): string[] {
    return this.#rows.flatMap((r) => (r.locality === null ? [] : [r.locality]))
  }

  /** The note naming how many rows were set aside and the first few, with where they are; none when none was. */
  notes(): string[] {
    return this.count ? [`${this.fileName}: ${this.count} row(s) set aside, their taxes left out of every answer (${this.named()})`] : []
  }

  /** The rows as left out of the answers, those that ended before `inForceFrom` not counted; null when none counts. */
  leftOut(inForceFrom: string | null = null): LeftOutRows | null {
    const counted = this.#rows.filter((r) => inForceFrom === null || r.window.to === null || r.window.to >= inForceFrom)
    return leftOutRows('rows set aside', 'a row that does not fit the file\'s layout or units: its tax is not read', counted)
  }
}

/** A result's `leftOut` field holding the kinds given, none when none is. */
export const leftOutOf = (...kinds: (LeftOutRows | null)[]): { leftOut?: LeftOutRows[] } => {
  const found = kinds.filter((k): k is LeftOutRows => k !== null)
  return found.length ? { leftOut: found } : {}
}

/** Rows of one kind as left out of the answers, their windows counted; null for none. */
export function leftOutRows(kind: string, reason: string, rows: readonly { where: string; reason?: string; window: RowWindow }[]): LeftOutRows | null {
  if (rows.length === 0) return null
  const windows = new Map<string, { from: string | null; to: string | null; count: number }>()
  for (const { window } of rows) {
    const key = `${window.from}|${window.to}`
    const found = windows.get(key)
    if (found) found.count++
    else windows.set(key, { ...window, count: 1 })
  }
  return {
    kind,
    count: rows.length,
    reason,
    examples: rows.slice(0, NAMED).map((r) => (r.reason ? `${r.where}: ${r.reason}` : r.where)),
    windows: [...windows.values()],
  }
}
