// The snapshot in service and how it changes: `reload()` reads the CURRENT pointer and swaps in
// the snapshot it names, or refuses it (logging why) and keeps serving the one it has. A refused
// snapshot is verified again by the poll once its files change (a copy onto this node's disk or
// a shared volume that was not finished when CURRENT moved), so a node never serves a
// half-copied snapshot and takes the finished one without a signal.
//
// Start-up serves the snapshot CURRENT names; when CURRENT is missing or empty, or names a
// snapshot that fails verification, it serves the newest valid earlier snapshot instead, logs
// that as an error and reports itself degraded (/healthz) until CURRENT names a valid one. A
// reload by signal re-verifies the snapshot in service even when CURRENT still names it: the
// sha256 of its bytes in memory and of its files on disk. A bad CURRENT is logged once, then
// again every `rereportMs` while it lasts, not at every poll. The older editions' files of a
// snapshot are checked before it is served and on every signal: a damaged one leaves out its
// edition only (history-files.ts), logged and reported.
import { readdir, stat } from 'node:fs/promises'
import path from 'node:path'
import { listSnapshotIds, readCurrentId, snapshotDir } from '../../snapshot-contract/snapshot-store.ts'
import { loadSnapshot } from '../../snapshot-contract/snapshot-store.ts'
import type { Clock } from '../base/clock.ts'
import type { Logger } from '../base/logger.ts'
import type { HistoryEvent } from './history-files.ts'
import { openSnapshot, servedBytesFault, type Snapshot } from './open-snapshot.ts'
import type { SnapshotHealth, SnapshotProblem } from './snapshot-health.ts'

export type ReloadTrigger = 'startup' | 'signal' | 'pointer-change' | 'poll' | 'manual' | 'refresh'

export type ReloadOutcome =
  | { kind: 'unchanged'; id: string }
  | { kind: 'loaded'; id: string; previous: string }
  | { kind: 'refused'; id: string | null; reason: string }

export class NoSnapshotError extends Error {}

export type SnapshotSourceOptions = {
  /** how often a refusal that lasts is logged again (TAXATLAS_SNAPSHOT_REREPORT_MS) */
  rereportMs: number
}

type Problem = { problem: SnapshotProblem; reason: string; since: string }

export class SnapshotSource {
  #current: Snapshot
  #queue: Promise<unknown> = Promise.resolve()
  /** an id CURRENT named that was refused: a poll does not verify it again */
  #refusedId: string | null = null
  /** the names, sizes and modification times of the refused snapshot's files when it was refused */
  #refusedFiles: string | null = null
  #problem: Problem | null = null
  #reported: { key: string; at: number } | null = null
  /** when an unreadable CURRENT was last logged */
  #unreadableLoggedAt: number | null = null

  private constructor(
    readonly artifactsDir: string,
    first: Snapshot,
    private readonly logger: Logger,
    private readonly clock: Clock,
    private readonly options: SnapshotSourceOptions,
  ) {
    this.#current = first
  }

  /**
   * Opens the snapshot CURRENT names, or, when there is none or it fails verification, the newest
   * valid earlier one; throws when no snapshot on disk is valid.
   */
  static async open(artifactsDir: string, logger: Logger, clock: Clock, options: SnapshotSourceOptions): Promise<SnapshotSource> {
    const wanted = await readCurrentId(artifactsDir)
    let failure: string
    if (wanted) {
      try {
        const snapshot = await openSnapshot(artifactsDir, wanted, clock())
        logger.info('snapshot_loaded', { snapshot: wanted, trigger: 'startup' })
        await checkHistory(snapshot, logger, clock, 'startup')
        return new SnapshotSource(artifactsDir, snapshot, logger, clock, options)
      } catch (error) {
        failure = `CURRENT names snapshot ${wanted}, which failed verification: ${(error as Error).message}`
      }
    } else {
      failure = 'CURRENT is missing or empty'
    }
    const fallback = await newestValid(artifactsDir, wanted, clock())
    if (!fallback.snapshot) {
      throw new NoSnapshotError(`no snapshot to serve in ${artifactsDir}: ${failure}, and no earlier snapshot is valid${fallback.refused.length ? ` (${fallback.refused.join('; ')})` : ''}; run make refresh`)
    }
    await checkHistory(fallback.snapshot, logger, clock, 'startup')
    const source = new SnapshotSource(artifactsDir, fallback.snapshot, logger, clock, options)
    source.#refusedId = wanted
    if (wanted) source.#refusedFiles = await filesOf(artifactsDir, wanted)
    source.#problem = { problem: 'fallback', reason: `${failure}; serving the earlier snapshot ${fallback.snapshot.id}`, since: new Date(clock()).toISOString() }
    logger.error('snapshot_fallback', { wanted, reason: failure, serving: fallback.snapshot.id, skipped: fallback.refused, trigger: 'startup' })
    source.#reported = { key: String(wanted), at: clock() }
    return source
  }

  get current(): Snapshot {
    return this.#current
  }

  health(): SnapshotHealth {
    return this.#problem ? { status: 'degraded', ...this.#problem } : { status: 'ok' }
  }

  /** Reloads are serialized: a second trigger waits for the first and then re-reads the pointer. */
  reload(trigger: ReloadTrigger): Promise<ReloadOutcome> {
    const next = this.#queue.then(() => this.#reloadOnce(trigger))
    this.#queue = next.catch(() => undefined)
    return next
  }

  async #reloadOnce(trigger: ReloadTrigger): Promise<ReloadOutcome> {
    const asked = trigger === 'signal' || trigger === 'manual'
    let id: string | null
    try {
      id = await readCurrentId(this.artifactsDir)
    } catch (error) {
      // Not a missing pointer (the process may be out of file descriptors): the snapshot in service stays, with no problem reported.
      const now = this.clock()
      if (this.#unreadableLoggedAt === null || now - this.#unreadableLoggedAt >= this.options.rereportMs) {
        this.#unreadableLoggedAt = now
        this.logger.warn('snapshot_pointer_unreadable', { reason: (error as Error).message, trigger, serving: this.#current.id })
      }
      return { kind: 'unchanged', id: this.#current.id }
    }
    if (!id) return this.#refuse(null, 'current_missing', 'CURRENT is missing or empty', trigger)
    if (id === this.#current.id) {
      if (asked) return this.#verifyServed(trigger)
      if (this.#problem && this.#problem.problem !== 'damaged_on_disk') this.#recovered(id, trigger)
      return { kind: 'unchanged', id }
    }
    // The poll would otherwise re-verify a refused snapshot every few seconds.
    if (id === this.#refusedId && trigger === 'poll' && (await filesOf(this.artifactsDir, id)) === this.#refusedFiles) {
      const reason = this.#problem?.reason ?? 'refused earlier'
      this.#report('snapshot_refused', String(id), { snapshot: id, reason, trigger, serving: this.#current.id, repeated: true })
      return { kind: 'refused', id, reason: 'refused earlier' }
    }
    try {
      const snapshot = await openSnapshot(this.artifactsDir, id, this.clock())
      await checkHistory(snapshot, this.logger, this.clock, trigger)
      const previous = this.#current.id
      this.#current = snapshot
      this.#refusedId = null
      this.#problem = null
      this.#reported = null
      this.logger.info('snapshot_loaded', { snapshot: id, previous, trigger })
      return { kind: 'loaded', id, previous }
    } catch (error) {
      this.#refusedFiles = await filesOf(this.artifactsDir, id)
      return this.#refuse(id, 'current_refused', (error as Error).message, trigger)
    }
  }

  /**
   * CURRENT names the snapshot in service: its bytes in memory and its files on disk are verified
   * again, and its older editions' files (a damaged one leaves out its edition, a sound one is put back).
   */
  async #verifyServed(trigger: ReloadTrigger): Promise<ReloadOutcome> {
    const served = this.#current
    const inMemory = servedBytesFault(served)
    await served.history.check(this.clock(), trigger)
    const onDisk = await loadSnapshot(this.artifactsDir, served.id).then(
      () => null,
      (error: Error) => error.message,
    )
    if (!inMemory && !onDisk) {
      if (this.#problem) this.#recovered(served.id, trigger)
      this.logger.info('snapshot_verified', { snapshot: served.id, trigger })
      return { kind: 'unchanged', id: served.id }
    }
    if (inMemory && !onDisk) {
      // The files are sound: serve them again rather than the damaged copy in memory (its older editions just checked).
      this.#current = Object.freeze({ ...(await openSnapshot(this.artifactsDir, served.id, this.clock())), history: served.history })
      this.#problem = null
      this.logger.error('snapshot_reloaded', { snapshot: served.id, reason: inMemory, trigger })
      return { kind: 'loaded', id: served.id, previous: served.id }
    }
    const reason = [onDisk, inMemory].filter(Boolean).join('; ')
    this.#problem = { problem: 'damaged_on_disk', reason: `the files of snapshot ${served.id} no longer verify: ${reason}`, since: this.#problem?.since ?? new Date(this.clock()).toISOString() }
    this.logger.error('snapshot_damaged', { snapshot: served.id, reason, trigger, serving: served.id, memory: inMemory ? 'damaged' : 'verified' })
    return { kind: 'refused', id: served.id, reason }
  }

  #recovered(id: string, trigger: ReloadTrigger): void {
    this.logger.info('snapshot_recovered', { snapshot: id, was: this.#problem?.problem, trigger })
    this.#problem = null
    this.#refusedId = null
    this.#reported = null
  }

  #refuse(id: string | null, problem: SnapshotProblem, reason: string, trigger: ReloadTrigger): ReloadOutcome {
    // Still the CURRENT that made start-up fall back: the problem stays a fallback.
    const fallback = this.#problem?.problem === 'fallback' && id === this.#refusedId
    if (!fallback) {
      const since = this.#problem?.problem === problem ? this.#problem.since : new Date(this.clock()).toISOString()
      this.#problem = { problem, reason, since }
    }
    this.#refusedId = id
    this.#report('snapshot_refused', String(id), { snapshot: id, reason, trigger, serving: this.#current.id }, trigger === 'signal' || trigger === 'manual')
    return { kind: 'refused', id, reason }
  }

  /** Logs an error when it differs from the last one, was asked for, or the last was `rereportMs` ago. */
  #report(event: string, key: string, fields: Record<string, unknown>, always = false): void {
    const now = this.clock()
    const last = this.#reported
    if (!always && last && last.key === key && now - last.at < this.options.rereportMs) return
    this.#reported = { key, at: now }
    this.logger.error(event, fields)
  }
}

/** Logs, from now on, each older edition's file of `snapshot` left out or put back; checks them all now. */
async function checkHistory(snapshot: Snapshot, logger: Logger, clock: Clock, trigger: ReloadTrigger): Promise<void> {
  snapshot.history.watch(({ kind, file, trigger: foundBy }: HistoryEvent) => {
    if (kind === 'left_out') {
      logger.error('snapshot_history_damaged', { snapshot: snapshot.id, file: file.file, edition: file.edition, states: file.states, reason: file.reason, trigger: foundBy, dates: 'answered as not held until a SIGHUP finds the file sound' })
    } else {
      logger.info('snapshot_history_restored', { snapshot: snapshot.id, file: file.file, edition: file.edition, left_out_since: file.since, trigger: foundBy })
    }
  })
  await snapshot.history.check(clock(), trigger)
}

/** The newest snapshot on disk that verifies, before `before` when given (else any); what was refused on the way. */
async function newestValid(artifactsDir: string, before: string | null, now: number): Promise<{ snapshot: Snapshot | null; refused: string[] }> {
  const ids = (await listSnapshotIds(artifactsDir)).filter((id) => before === null || id < before).reverse()
  const refused: string[] = []
  for (const id of ids) {
    try {
      return { snapshot: await openSnapshot(artifactsDir, id, now), refused }
    } catch (error) {
      refused.push(`${id}: ${(error as Error).message}`)
    }
  }
  return { snapshot: null, refused }
}

/** What changes when a snapshot's files are written: their names, sizes and modification times. */
async function filesOf(artifactsDir: string, id: string): Promise<string> {
  const dir = snapshotDir(artifactsDir, id)
  const names = await readdir(dir).catch(() => [] as string[])
  const files = await Promise.all(
    names.sort().map(async (name) => {
      const info = await stat(path.join(dir, name)).catch(() => null)
      return info ? `${name}:${info.size}:${info.mtimeMs}` : name
    }),
  )
  return files.join('|')
}
