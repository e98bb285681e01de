// The store over the server's life: opened in the background and retried with backoff until it
// opens (open-retry.ts), then watched. Its file's identity and header are checked on a timer and
// before every write and commit: a file removed or replaced under the server (an operator's rm, a
// clean-up job, a volume mounted again), or truncated or overwritten in place (store-file-header.ts),
// stops every write with 503 STORE_FILE_LOST and one error line,
// rather than acknowledging writes into a file nobody will read again; the same file back at the
// path (moved back, the volume back) lifts it. A database DuckDB gave up on (invalidated, after a
// checkpoint that failed) is closed and its file opened again in place, with backoff, until a
// reopen's own checkpoint succeeds (database.ts `reopen`); writes are refused with 503 meanwhile.
// Accounts stay in memory throughout, so keys are still checked and lookups answer. Its health is
// what /healthz reports.
import { HttpError, retryAfter } from '../base/errors.ts'
import type { Clock } from '../base/clock.ts'
import type { Logger } from '../base/logger.ts'
import type { StoreFault } from './duckdb-error-type.ts'
import { systemReason, type StoreOperation, type WriteGuard } from './database.ts'
import { changeOf, identityOf, type FileIdentity, type IdentityChange } from './file-identity.ts'
import { backoffDelay, retryUntilOpen } from './open-retry.ts'
import { StoreFileHeader } from './store-file-header.ts'
import { StoreOpenError } from './open-store-file.ts'
import type { StoreHealth, StoreProblem } from './store-health.ts'
import { STORE_UNAVAILABLE_MESSAGE, type OpenedStore, type StoreGate, type StoreParts } from './store.ts'

/** Seconds a client is told to wait after a write refused because the store's file was lost. */
export const FILE_LOST_RETRY_AFTER_SECONDS = 30

export const FILE_LOST_MESSAGE =
  "The store's file was removed, replaced or damaged while the server ran, so changes are refused rather than written where they would be lost. Rate lookups still answer; an operator must put the file back or restart the server."

/** A read that needed what the lost file no longer holds (a truncated file's blocks not in memory). */
export const FILE_LOST_READ_MESSAGE =
  "The store's file was removed, replaced or damaged while the server ran, and this read needs what is no longer in it; nothing was changed. Rate lookups still answer; an operator must put the file back or restart the server."

const invalidatedMessage = (reason: string) =>
  `The store stopped after a fatal error of its disk (${reason}) and is being opened again; changes are refused until then. A change answered with this error as the store stopped may have been saved. Retry later; rate lookups still answer.`

// An open failure that stays the same is logged again this often, so the log shows it persists.
const STILL_FAILING_LOG_MS = 5 * 60_000

type Problem = { problem: StoreProblem; reason: string; since: string }
/** The reopen of an invalidated store: its attempt now or next, when that one starts, and why the last one failed. */
type Reopening = { attempt: number; nextAt: number; failure: string | null; loggedAt: number; timer: NodeJS.Timeout | null }

/** How the file at the store's path differs from the one opened: another file or none, or the same one damaged in place. */
export type FileChange = IdentityChange | 'damaged'

export type SupervisorOptions = {
  storePath: string
  /** one attempt at opening the store, with the guard its writes go through */
  open: (guard: WriteGuard) => Promise<OpenedStore>
  /** longest wait between two attempts */
  retryCeilingMs: number
  /** how often the file's identity is checked between writes */
  identityCheckMs: number
  logger: Logger
  clock: Clock
}

export class StoreSupervisor implements StoreGate {
  #opened: OpenedStore | null = null
  #first: Promise<StoreParts> | null = null
  #firstFailed = false
  #nextAttemptAt = 0
  #openProblem: Problem | null = null
  #lost: (Problem & { change: FileChange }) | null = null
  #header: StoreFileHeader | null = null
  #writeFault: Problem | null = null
  #reopening: Reopening | null = null
  #reopens = 0
  #lastLoggedAt = 0
  #identityTimer: NodeJS.Timeout | null = null
  #stopRetrying = () => {}
  #closing = false
  readonly #guard: WriteGuard
  readonly #settledFirst: Promise<boolean>
  #resolveFirst!: (opened: boolean) => void
  /** resolves with the store once open, or null if the server closed first */
  readonly whenOpen: Promise<OpenedStore | null>
  #resolveOpen!: (store: OpenedStore | null) => void

  constructor(private readonly options: SupervisorOptions) {
    this.#settledFirst = new Promise((resolve) => (this.#resolveFirst = resolve))
    this.whenOpen = new Promise((resolve) => (this.#resolveOpen = resolve))
    this.#guard = {
      beforeWrite: () => this.#refuseWrite(),
      afterWrite: (fault, error, operation) => this.#wrote(fault, error, operation),
    }
  }

  /** Starts the attempts; the first one is what key requests arriving meanwhile wait for. */
  start(): void {
    let firstAttempt = true
    const { result, stop } = retryUntilOpen(
      () => {
        const attempt = this.options.open(this.#guard)
        if (firstAttempt) {
          firstAttempt = false
          this.#first = attempt.then((store) => store, () => Promise.reject(this.#unavailable()))
          this.#first.catch(() => undefined)
        }
        return attempt
      },
      this.options.retryCeilingMs,
      {
        stopped: () => this.#closing,
        failed: (error, attempt, nextInMs) => this.#openFailed(error, attempt, nextInMs),
      },
    )
    this.#stopRetrying = stop
    void result.then((store) => {
      if (store === null) {
        this.#resolveFirst(false)
        this.#resolveOpen(null)
        return
      }
      this.#opened = store
      this.#openProblem = null
      // A fault met by an attempt that failed belongs to the store it was opening, not to this one.
      this.#writeFault = null
      if (this.#reopening?.timer) clearTimeout(this.#reopening.timer)
      this.#reopening = null
      this.#resolveFirst(!this.#firstFailed)
      this.#resolveOpen(store)
      // A DuckDB file is watched for being removed or replaced; PostgreSQL has no file.
      if (store.identity) {
        this.#header = new StoreFileHeader(this.options.storePath, store.identity)
        this.#header.damage()
        this.#watchIdentity(store.identity)
      }
    })
  }

  /** true when the first attempt opened the store, false when it failed (later attempts go on) or the server closed first */
  get firstAttempt(): Promise<boolean> {
    return this.#settledFirst
  }

  get opened(): StoreParts | null {
    return this.#opened
  }

  get ready(): Promise<StoreParts> {
    if (this.#opened) return Promise.resolve(this.#opened)
    if (!this.#firstFailed && this.#first) return this.#first
    return Promise.reject(this.#unavailable())
  }

  health(): StoreHealth {
    const problem = this.#lost ?? this.#writeFault ?? this.#openProblem
    if (problem) return { status: 'degraded', problem: problem.problem, reason: problem.reason, since: problem.since }
    return this.#opened ? { status: 'ok' } : { status: 'opening' }
  }

  /** Times the store was opened again in place after DuckDB gave up on it. */
  get reopens(): number {
    return this.#reopens
  }

  /** Ends the retries, the reopens and the identity checks; the store, if open, is the caller's to close. */
  stop(): void {
    this.#closing = true
    this.#stopRetrying()
    if (this.#reopening?.timer) clearTimeout(this.#reopening.timer)
    if (this.#identityTimer) clearInterval(this.#identityTimer)
    this.#header?.close()
  }

  #unavailable(): HttpError {
    const seconds = Math.max(1, Math.ceil((this.#nextAttemptAt - this.options.clock()) / 1000))
    return new HttpError('SERVICE_UNAVAILABLE', STORE_UNAVAILABLE_MESSAGE, ...retryAfter(seconds))
  }

  #openFailed(error: Error, attempt: number, nextInMs: number): void {
    const now = this.options.clock()
    this.#nextAttemptAt = now + nextInMs
    this.#firstFailed = true
    this.#resolveFirst(false)
    const problem: StoreProblem = error instanceof StoreOpenError ? error.problem : 'unavailable'
    const changed = this.#openProblem?.problem !== problem || this.#openProblem.reason !== error.message
    if (changed) this.#openProblem = { problem, reason: error.message, since: new Date(now).toISOString() }
    if (changed || now - this.#lastLoggedAt >= STILL_FAILING_LOG_MS) {
      this.#lastLoggedAt = now
      this.options.logger.error(changed ? 'store_failed' : 'store_still_failing', {
        store: this.options.storePath,
        problem,
        reason: error.message,
        attempt,
        since: this.#openProblem!.since,
        retry_in_ms: nextInMs,
      })
    }
  }

  #watchIdentity(identity: FileIdentity): void {
    if (this.#closing) return
    this.#identityTimer = setInterval(() => this.#checkIdentity(identity), this.options.identityCheckMs)
    this.#identityTimer.unref()
  }

  #checkIdentity(identity: FileIdentity): void {
    const moved = changeOf(identity, identityOf(this.options.storePath))
    const damage = moved ? null : (this.#header?.damage() ?? null)
    const change: FileChange | null = moved ?? (damage ? 'damaged' : null)
    if (change && this.#lost?.change !== change) {
      const now = new Date(this.options.clock()).toISOString()
      const reason = damage ?? (change === 'missing' ? 'the store file was removed from its path while open' : 'the store file at its path was replaced by another file while open')
      this.#lost = { problem: 'file_lost', change, reason, since: this.#lost?.since ?? now }
      this.options.logger.error('store_file_lost', { store: this.options.storePath, change, reason, opened_inode: identity.ino, writes: 'refused until the file is back or the server restarts' })
    } else if (change && damage && this.#lost) {
      // Damaged still, perhaps otherwise (a copy being written over it): the reason follows, the log line is not repeated.
      this.#lost.reason = damage
    } else if (!change && this.#lost) {
      this.options.logger.info('store_file_restored', { store: this.options.storePath, lost_since: this.#lost.since })
      this.#lost = null
    }
  }

  #refuseWrite(): void {
    if (this.#opened?.identity) this.#checkIdentity(this.#opened.identity)
    if (this.#lost) {
      throw new HttpError('STORE_FILE_LOST', FILE_LOST_MESSAGE, ...retryAfter(FILE_LOST_RETRY_AFTER_SECONDS))
    }
    if (this.#writeFault?.problem === 'invalidated') throw this.#refusedInvalidated()
  }

  #wrote(fault: StoreFault | null, error?: Error, operation: StoreOperation = 'write'): Error | void {
    // While invalidated every statement fails, reads too: each is answered with when the next reopen is due.
    if (this.#writeFault?.problem === 'invalidated') return this.#refusedInvalidated()
    // A read that failed on a file lost under the server: the file, not its disk, is what is wrong.
    if (fault !== null && fault !== 'invalidated' && operation === 'read' && this.#opened?.identity) {
      this.#checkIdentity(this.#opened.identity)
      if (this.#lost) return new HttpError('STORE_FILE_LOST', FILE_LOST_READ_MESSAGE, ...retryAfter(FILE_LOST_RETRY_AFTER_SECONDS))
    }
    if (fault === null) {
      if (this.#writeFault) {
        this.options.logger.info('store_writes_resumed', { store: this.options.storePath, refused_since: this.#writeFault.since })
        this.#writeFault = null
      }
      return
    }
    const reason = error?.message.split('\n')[0] ?? fault
    const since = new Date(this.options.clock()).toISOString()
    if (fault === 'invalidated') {
      this.#writeFault = { problem: 'invalidated', reason, since }
      this.#scheduleReopen(1)
      this.options.logger.error('store_invalidated', { store: this.options.storePath, reason, writes: 'refused until the store is opened again', retry_in_ms: this.#reopening ? this.#reopening.nextAt - this.options.clock() : null })
      return this.#refusedInvalidated()
    }
    if (this.#writeFault?.problem === 'write_refused') return
    this.#writeFault = { problem: 'write_refused', reason, since }
    this.options.logger.error('store_write_refused', { store: this.options.storePath, reason })
  }

  #refusedInvalidated(): HttpError {
    const seconds = Math.max(1, Math.ceil(((this.#reopening?.nextAt ?? 0) - this.options.clock()) / 1000))
    const reason = systemReason(new Error(this.#writeFault!.reason))
    return new HttpError('SERVICE_UNAVAILABLE', invalidatedMessage(reason), ...retryAfter(seconds))
  }

  #scheduleReopen(attempt: number): void {
    if (this.#closing) return
    const delay = backoffDelay(attempt, this.options.retryCeilingMs)
    const timer = setTimeout(() => void this.#reopen(attempt), delay)
    timer.unref()
    this.#reopening ??= { attempt, nextAt: 0, failure: null, loggedAt: 0, timer: null }
    Object.assign(this.#reopening, { attempt, nextAt: this.options.clock() + delay, timer })
  }

  /** One attempt at opening the store again in the file opened (never another file at the path). */
  async #reopen(attempt: number): Promise<void> {
    const store = this.#opened
    if (this.#closing || !store?.reopen || !store.identity) return
    this.#reopening!.timer = null
    const identity = store.identity
    const ownFile = () => {
      this.#checkIdentity(identity)
      if (this.#lost) throw new Error(this.#lost.reason)
    }
    try {
      await store.reopen(ownFile)
    } catch (error) {
      const reason = (error as Error).message.split('\n')[0]
      const reopening = this.#reopening!
      const now = this.options.clock()
      const changed = reopening.failure !== reason
      reopening.failure = reason
      this.#scheduleReopen(attempt + 1)
      if (changed || now - reopening.loggedAt >= STILL_FAILING_LOG_MS) {
        reopening.loggedAt = now
        this.options.logger.error('store_reopen_failed', { store: this.options.storePath, reason, attempt, invalidated_since: this.#writeFault?.since, retry_in_ms: reopening.nextAt - now })
      }
      return
    }
    this.#reopens++
    this.options.logger.info('store_reopened', { store: this.options.storePath, invalidated_since: this.#writeFault?.since, attempts: attempt })
    this.#writeFault = null
    this.#reopening = null
  }
}
