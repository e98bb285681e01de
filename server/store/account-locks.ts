// Writes that must not interleave for the same account on the DuckDB store, which keeps a
// transaction's key unique by looking it up before writing (no PRIMARY KEY, see transactions.ts):
// a batch of saves and a backfill's bulk commit run on two connections side by side, but never
// for the same account at once, or each could miss a key the other is inserting.
export class AccountLocks {
  readonly #held = new Set<string>()
  #released: { promise: Promise<void>; resolve: () => void } | null = null

  /** Runs `work` once none of `accounts` is held by another write, holding them meanwhile. */
  async run<T>(accounts: Iterable<string>, work: () => Promise<T>): Promise<T> {
    const wanted = [...new Set(accounts)]
    while (wanted.some((account) => this.#held.has(account))) await this.#nextRelease()
    for (const account of wanted) this.#held.add(account)
    try {
      return await work()
    } finally {
      for (const account of wanted) this.#held.delete(account)
      const released = this.#released
      this.#released = null
      released?.resolve()
    }
  }

  #nextRelease(): Promise<void> {
    if (!this.#released) {
      let resolve!: () => void
      const promise = new Promise<void>((r) => (resolve = r))
      this.#released = { promise, resolve }
    }
    return this.#released.promise
  }
}
