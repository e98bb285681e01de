// Group commit: writes that arrive while a commit is under way wait for the next one, which
// takes all of them in one transaction, and each caller is answered only once that transaction
// has committed. Fifty clients writing at once then cost one commit (one log flush) instead of
// fifty, and nothing is acknowledged before it is durable. A batch that fails as a whole is
// tried again one write at a time, so a write that cannot be stored fails alone; a failure of
// the database itself (unreachable, disk refused) fails every write of the batch.

export type GroupCommitOptions = {
  /** batches committing at once (1 for the DuckDB store's one connection) */
  concurrency: number
  /** most writes in one batch */
  maxBatch: number
  /** a failure that is the store's rather than a write's: the batch is not split to try each write alone */
  storeFailure: (error: unknown) => boolean
}

type Waiting<T, R> = { item: T; resolve: (result: R) => void; reject: (error: unknown) => void }

export class GroupCommit<T, R> {
  #queue: Waiting<T, R>[] = []
  #running = 0

  /** `commit` writes the items of a batch in one transaction and returns their results in order. */
  constructor(
    private readonly commit: (items: T[]) => Promise<R[]>,
    private readonly options: GroupCommitOptions,
  ) {}

  submit(item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.#queue.push({ item, resolve, reject })
      this.#next()
    })
  }

  #next(): void {
    while (this.#running < this.options.concurrency && this.#queue.length > 0) {
      const batch = this.#queue.splice(0, this.options.maxBatch)
      this.#running++
      void this.#commit(batch).finally(() => {
        this.#running--
        this.#next()
      })
    }
  }

  async #commit(batch: Waiting<T, R>[]): Promise<void> {
    try {
      const results = await this.commit(batch.map((w) => w.item))
      batch.forEach((w, i) => w.resolve(results[i]))
    } catch (error) {
      if (batch.length === 1 || this.options.storeFailure(error)) {
        for (const w of batch) w.reject(error)
        return
      }
      for (const w of batch) {
        try {
          w.resolve((await this.commit([w.item]))[0])
        } catch (alone) {
          w.reject(alone)
        }
      }
    }
  }
}
