// How many of a downloaded file's rows a reader may set aside before the file itself is refused, for
// every reader of the pipeline (rate files in pipeline/feeds/set-aside.ts, the Census geography
// tables): a row that does not fit costs that row, and is counted and named with where it is; a
// layout or unit change makes most rows unreadable, far above the share (docs/data-sources.md,
// "Rows set aside").

/** The share of a file's data rows that may be set aside before the file fails. */
export const SET_ASIDE_SHARE = 0.05
/** Below this many set aside, a file never fails on the share (a small sheet's few odd rows). */
export const SET_ASIDE_FLOOR = 5
/** How many set-aside rows a note or an error names. */
const NAMED = 5

export class RowsSetAside {
  readonly #rows: { where: string; reason: string }[] = []

  constructor(readonly fileName: string) {}

  /** A row set aside: `where` it is (`line 18`, `row 40`) and why. */
  add(where: string, reason: string): void {
    this.#rows.push({ where, reason })
  }

  get count(): number {
    return this.#rows.length
  }

  /** The first few rows set aside, each `where: why`, with `…` after them when there are more. */
  named(): string {
    return `${this.#rows.slice(0, NAMED).map((r) => `${r.where}: ${r.reason}`).join('; ')}${this.#rows.length > NAMED ? '; …' : ''}`
  }

  /** Fails the file when more rows were set aside than the share of its `dataRows` (set-aside ones included) allows. */
  assertWithinShare(dataRows: number): void {
    const limit = Math.max(SET_ASIDE_FLOOR, Math.floor(dataRows * SET_ASIDE_SHARE))
    if (this.#rows.length <= limit) return
    const named = this.#rows.slice(0, NAMED).map((r) => `${r.where}: ${r.reason}`)
    throw new Error(`${this.fileName}: ${this.#rows.length} of ${dataRows} rows set aside, more than ${SET_ASIDE_SHARE * 100}% (${limit}): its layout or units changed? (${named.join('; ')})`)
  }
}
