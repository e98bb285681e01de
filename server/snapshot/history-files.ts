// The older editions' rates files a served snapshot holds for `as_of` lookups (Manifest.history,
// `history-<edition>.bin`), and which of them are left out because their file failed verification.
// A damaged file costs only its edition: the snapshot is served, the edition answers no date (its
// dates are answered as not held, never from bytes that do not verify), /healthz names the file and
// it is logged once. A file is checked when the snapshot is loaded and on SIGHUP, and whenever a
// lookup reads it; a check that finds it sound again puts its edition back.
//
// The one part of a snapshot that changes after it is opened: the files on disk do.
import type { HistoryLayer } from '../../snapshot-contract/manifest.ts'
import { readSnapshotFile } from '../../snapshot-contract/snapshot-store.ts'
import type { HistoryHealth } from './snapshot-health.ts'

export type LeftOutFile = Extract<HistoryHealth, { status: 'degraded' }>['left_out'][number]

/** A file left out (`left_out`) or put back (`put_back`), and what found it. */
export type HistoryEvent = { kind: 'left_out' | 'put_back'; file: LeftOutFile; trigger: string }

export class HistoryFiles {
  /** for a view that holds no older editions (an edition opened for history itself); one each, as it holds state */
  static none(): HistoryFiles {
    return new HistoryFiles('', '', [])
  }

  readonly #leftOut = new Map<string, LeftOutFile>()
  #listener: (event: HistoryEvent) => void = () => {}
  #changes = 0

  constructor(
    private readonly artifactsDir: string,
    private readonly snapshotId: string,
    private readonly layers: readonly HistoryLayer[],
  ) {}

  /** Told of every file left out or put back from now on (the snapshot source logs them). */
  watch(listener: (event: HistoryEvent) => void): void {
    this.#listener = listener
  }

  /** Files left out or put back so far: replies kept for the snapshot before a change no longer hold. */
  get changes(): number {
    return this.#changes
  }

  isLeftOut(layer: HistoryLayer): boolean {
    return this.#leftOut.has(layer.file.name)
  }

  /** A read of `layer`'s file failed verification: its edition is left out until a check finds it sound. */
  failed(layer: HistoryLayer, reason: string, now: number, trigger = 'lookup'): void {
    if (this.#leftOut.has(layer.file.name)) return
    const file = { file: layer.file.name, edition: layer.edition, states: layer.states.map((s) => s.code), reason, since: new Date(now).toISOString() }
    this.#leftOut.set(layer.file.name, file)
    this.#changes++
    this.#listener({ kind: 'left_out', file, trigger })
  }

  /** Verifies every file, one at a time (each is read whole): a failing one is left out, a sound one put back. */
  async check(now: number, trigger: string): Promise<void> {
    for (const layer of this.layers) {
      const reason = await readSnapshotFile(this.artifactsDir, this.snapshotId, layer.file).then(
        () => null,
        (error: Error) => error.message,
      )
      if (reason !== null) {
        this.failed(layer, reason, now, trigger)
        continue
      }
      const was = this.#leftOut.get(layer.file.name)
      if (!was) continue
      this.#leftOut.delete(layer.file.name)
      this.#changes++
      this.#listener({ kind: 'put_back', file: was, trigger })
    }
  }

  health(): HistoryHealth {
    const files = [...this.#leftOut.values()]
    if (files.length === 0) return { status: 'ok' }
    const names = files.map((f) => f.file).join(', ')
    return {
      status: 'degraded',
      problem: 'damaged',
      reason: `${names} of snapshot ${this.snapshotId} failed verification: ${files.length === 1 ? 'its edition is' : 'their editions are'} left out, and the dates only ${files.length === 1 ? 'it' : 'they'} held are answered as not held until a SIGHUP finds ${files.length === 1 ? 'it' : 'them'} sound`,
      since: files.map((f) => f.since).sort()[0]!,
      left_out: files,
    }
  }
}
