// The snapshot in service and how it changes: `reload()` reads the CURRENT pointer and swaps in
// the snapshot it names, or refuses it (logging why) and keeps serving the one it has. A refused
// snapshot is verified again by the poll once its files change (a copy onto this node's disk or
// a shared volume that was not finished when CURRENT moved), so a node never serves a
// half-copied snapshot and takes the finished one without a signal.
import { readdir, stat } from 'node:fs/promises'
import path from 'node:path'
import { readCurrentId, snapshotDir } from '../../snapshot-contract/snapshot-store.ts'
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
  /** the names, sizes and modification times of the refused snapshot's files when it was refused */
  #refusedFiles: string | null = null

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
    if (id === this.#refusedId && trigger === 'poll' && (await filesOf(this.artifactsDir, id)) === this.#refusedFiles) {
      return { kind: 'refused', id, reason: 'refused earlier' }
    }
    try {
      const snapshot = await openSnapshot(this.artifactsDir, id, this.clock())
      const previous = this.#current.id
      this.#current = snapshot
      this.#refusedId = null
      this.logger.info('snapshot_loaded', { snapshot: id, previous, trigger })
      return { kind: 'loaded', id, previous }
    } catch (error) {
      this.#refusedFiles = await filesOf(this.artifactsDir, id)
      return this.#refuse(id, (error as Error).message, trigger)
    }
  }

  #refuse(id: string | null, reason: string, trigger: ReloadTrigger): ReloadOutcome {
    this.#refusedId = id
    this.logger.error('snapshot_refused', { snapshot: id, reason, trigger, serving: this.#current.id })
    return { kind: 'refused', id, reason }
  }
}

/** What changes when a snapshot's files are written: their names, sizes and modification times. */
async function filesOf(artifactsDir: string, id: string): Promise<string> {
  const dir = snapshotDir(artifactsDir, id)
  const names = await readdir(dir).catch(() => [] as string[])
  const files = await Promise.all(names.sort().map(async (name) => {
    const info = await stat(path.join(dir, name)).catch(() => null)
    return info ? `${name}:${info.size}:${info.mtimeMs}` : name
  }))
  return files.join('|')
}
