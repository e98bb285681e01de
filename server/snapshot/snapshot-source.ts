// The snapshot in service and how it changes: `reload()` reads the CURRENT pointer and swaps in
// the snapshot it names, or refuses it (logging why) and keeps serving the one it has.
import { readCurrentId } from '../../snapshot-contract/snapshot-store.ts'
import type { Clock } from '../base/clock.ts'
import type { Logger } from '../base/logger.ts'
import { openSnapshot, type Snapshot } from './open-snapshot.ts'

export type ReloadTrigger = 'startup' | 'signal' | 'pointer-change' | 'poll' | 'manual' | 'refresh'

export type ReloadOutcome =
  | { kind: 'unchanged'; id: string }
  | { kind: 'loaded'; id: string; previous: string }
  | { kind: 'refused'; id: string | null; reason: string }

export class NoSnapshotError extends Error {}

export class SnapshotSource {
  #current: Snapshot
  #queue: Promise<unknown> = Promise.resolve()
  #refusedId: string | null = null

  private constructor(
    readonly artifactsDir: string,
    first: Snapshot,
    private readonly logger: Logger,
    private readonly clock: Clock,
  ) {
    this.#current = first
  }

  /** Opens the snapshot CURRENT names; throws when there is none or it fails verification. */
  static async open(artifactsDir: string, logger: Logger, clock: Clock): Promise<SnapshotSource> {
    const id = await readCurrentId(artifactsDir)
    if (!id) throw new NoSnapshotError(`no snapshot published in ${artifactsDir} (CURRENT is missing or empty); run make refresh`)
    const snapshot = await openSnapshot(artifactsDir, id, clock())
    logger.info('snapshot_loaded', { snapshot: id, trigger: 'startup' })
    return new SnapshotSource(artifactsDir, snapshot, logger, clock)
  }

  get current(): Snapshot {
    return this.#current
  }

  /** Reloads are serialized: a second trigger waits for the first and then re-reads the pointer. */
  reload(trigger: ReloadTrigger): Promise<ReloadOutcome> {
    const next = this.#queue.then(() => this.#reloadOnce(trigger))
    this.#queue = next.catch(() => undefined)
    return next
  }

  async #reloadOnce(trigger: ReloadTrigger): Promise<ReloadOutcome> {
    const id = await readCurrentId(this.artifactsDir)
    if (!id) return this.#refuse(null, 'CURRENT is missing or empty', trigger)
    if (id === this.#current.id) return { kind: 'unchanged', id }
    // The poll would otherwise re-verify (and re-log) a refused snapshot every few seconds.
    if (id === this.#refusedId && trigger === 'poll') return { kind: 'refused', id, reason: 'refused earlier' }
    try {
      const snapshot = await openSnapshot(this.artifactsDir, id, this.clock())
      const previous = this.#current.id
      this.#current = snapshot
      this.#refusedId = null
      this.logger.info('snapshot_loaded', { snapshot: id, previous, trigger })
      return { kind: 'loaded', id, previous }
    } catch (error) {
      return this.#refuse(id, (error as Error).message, trigger)
    }
  }

  #refuse(id: string | null, reason: string, trigger: ReloadTrigger): ReloadOutcome {
    this.#refusedId = id
    this.logger.error('snapshot_refused', { snapshot: id, reason, trigger, serving: this.#current.id })
    return { kind: 'refused', id, reason }
  }
}
