// What the server derives from one snapshot (its states' facts, a place's answer, the day's order
// locations, summary rates, a state's changes…), held in one set that belongs to the snapshot: made
// when the snapshot opens, each view built the first time a request reads it, and dropped with the
// snapshot when a swap lets it go. The snapshot is immutable, so a view never goes stale. Building
// every view at open would delay every start and every swap for views most requests never read.
// Each view is declared once, where it is read (`derivedView`), so this floor knows none of them.

/** A snapshot, or a view of one (an earlier edition's), that holds its derived views. */
export type Derives = { readonly derived: DerivedViews }

export type DerivedView<S extends Derives, T> = {
  /** names the view in DerivedViews.built */
  readonly name: string
  /** The view of `snapshot`, built on first use. */
  of(snapshot: S): T
}

export class DerivedViews {
  readonly #built = new Map<DerivedView<never, unknown>, unknown>()

  /** The names of the views built so far. */
  get built(): string[] {
    return [...this.#built.keys()].map((view) => view.name)
  }

  viewOf<S extends Derives, T>(view: DerivedView<S, T>, build: () => T): T {
    const key = view as DerivedView<never, unknown>
    if (!this.#built.has(key)) this.#built.set(key, build())
    return this.#built.get(key) as T
  }
}

/** Declares a view: `build` runs once per snapshot, the first time `of` is asked for that snapshot. */
export function derivedView<S extends Derives, T>(name: string, build: (snapshot: S) => T): DerivedView<S, T> {
  const view: DerivedView<S, T> = { name, of: (snapshot) => snapshot.derived.viewOf(view, () => build(snapshot)) }
  return view
}
