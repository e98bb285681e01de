// The embedded store: one DuckDB file, one connection, opened by exactly one process (DuckDB
// locks the file). Statements are queued so a transaction never interleaves with another write.
// The DuckDB module (native, slow to load) is loaded by open() only, never at module
// top level: a bundle would hoist a static import of it, and the server answers public routes
// before it has loaded (see server.ts).
import { mkdir } from 'node:fs/promises'
import { createRequire } from 'node:module'
import path from 'node:path'
import type { DuckDBConnection, DuckDBInstance, DuckDBValue } from '@duckdb/node-api'
import { HttpError, retryAfter } from '../base/errors.ts'
import { storeFaultOf, type StoreFault } from './duckdb-error-type.ts'

// require(), not import(): import() of a CommonJS package first scans its sources for their
// exports, ~80-110 ms more on the event loop, which runs just after listen (server.ts).
const loadDuckDB = () => createRequire(import.meta.url)('@duckdb/node-api') as typeof import('@duckdb/node-api')

const SCHEMA = [
  `CREATE TABLE IF NOT EXISTS accounts (
     id VARCHAR PRIMARY KEY, name VARCHAR NOT NULL, tier VARCHAR NOT NULL,
     created_at VARCHAR NOT NULL, trial_ends_at VARCHAR)`,
  // key_hash is the hex sha256 of the key; the key itself is never stored.
  `CREATE TABLE IF NOT EXISTS api_keys (
     id VARCHAR PRIMARY KEY, account_id VARCHAR NOT NULL, key_hash VARCHAR NOT NULL UNIQUE,
     prefix VARCHAR NOT NULL, created_at VARCHAR NOT NULL, revoked_at VARCHAR)`,
  `CREATE TABLE IF NOT EXISTS usage (
     account_id VARCHAR NOT NULL, month VARCHAR NOT NULL, lookups BIGINT NOT NULL,
     PRIMARY KEY (account_id, month))`,
]

export type Row = Record<string, unknown>
/** A value for `append`, by JS type: string → VARCHAR, bigint → BIGINT, boolean → BOOLEAN, null → NULL. */
export type AppendValue = string | bigint | boolean | null
export type Statements = {
  run(sql: string, params?: DuckDBValue[]): Promise<void>
  rows(sql: string, params?: DuckDBValue[]): Promise<Row[]>
  /**
   * Appends rows through DuckDB's appender — many times faster than INSERT for thousands of
   * rows. Inside `transaction` the rows are part of the transaction. `temp` for a TEMP table.
   */
  append(table: string, rows: readonly (readonly AppendValue[])[], options?: { temp?: boolean }): Promise<void>
}

/** Seconds a client is told to wait after a write the store's disk refused. */
export const STORE_WRITE_RETRY_AFTER_SECONDS = 30

/** The system's reason at the end of a DuckDB error's first line ("No space left on device"), without the file's path. */
export const systemReason = (error: Error): string => /:\s*([^:"]+)$/.exec(error.message.split('\n')[0])?.[1]?.trim() ?? 'input/output error'

/** Whether a statement changes the store (a write, or a statement inside a transaction) or only reads it. */
export type StoreOperation = 'write' | 'read'

/**
 * A statement the store's disk refused (DuckDB's IO, commit or fatal error types, see
 * duckdb-error-type.ts): 503 SERVICE_UNAVAILABLE with the system's reason (never the file's
 * path), not a 500, so a client knows its change was not saved, or that a read changed nothing,
 * and may retry.
 */
export class StoreWriteError extends HttpError {
  constructor(
    cause: Error,
    readonly fault: StoreFault,
    operation: StoreOperation = 'write',
  ) {
    super(
      'SERVICE_UNAVAILABLE',
      operation === 'write'
        ? `The store cannot write to its file right now (${systemReason(cause)}): changes not yet committed were not saved. Retry later; rate lookups still answer.`
        : `The store cannot read its file right now (${systemReason(cause)}): nothing was changed. Retry later; rate lookups still answer.`,
      ...retryAfter(STORE_WRITE_RETRY_AFTER_SECONDS),
    )
    this.cause = cause
  }
}

/**
 * Who watches the store's writes (store-supervisor.ts): asked before every write and before every
 * commit, it throws to refuse the write (the file was removed or replaced, or DuckDB gave up on
 * it); told the outcome of each write, so the store's health follows its disk, it may return the
 * error the caller gets instead of the store's own (one that says when to retry).
 */
export type WriteGuard = {
  beforeWrite(): void
  afterWrite(fault: StoreFault | null, error?: Error, operation?: StoreOperation): Error | void
}

export const REOPENED_MESSAGE =
  'The store was reopened after a fatal error while this import ran: its rows not yet committed were not saved. Send it again; rows already stored count as duplicates.'

/** What a statement meets between closing the instance DuckDB gave up on and opening it again: the same fault. */
const closedToReopen = () => new StoreWriteError(new Error('closed: being opened again after a fatal error'), 'invalidated')

const refusedStatement = (error: unknown, operation: StoreOperation): unknown => {
  if (error instanceof HttpError) return error
  const fault = storeFaultOf(error)
  return fault ? new StoreWriteError(error as Error, fault, operation) : error
}

export class Database implements Statements {
  #queue: Promise<unknown> = Promise.resolve()
  #instance: DuckDBInstance
  #connection: DuckDBConnection
  /** closed to be opened again (reopen), until it is */
  #closed = false
  /** set on a connection made by connectAgain once the instance it was made on is closed by reopen */
  #orphaned = false
  /** the connections made by connectAgain and not closed yet */
  readonly #others = new Set<Database>()
  /** statements every connection of this file starts with (its TEMP tables), run again after reopen */
  readonly #sessionSetup: string[] = []

  private constructor(
    instance: DuckDBInstance,
    connection: DuckDBConnection,
    readonly file: string,
    private readonly config: Record<string, string>,
    private readonly guard: WriteGuard | null,
    /** the connection connectAgain was called on: closing this one leaves the file open */
    private readonly main: Database | null = null,
  ) {
    this.#instance = instance
    this.#connection = connection
  }

  /**
   * Another connection to the same file, with a queue of its own: a bulk import on it does not
   * hold up the statements of this one (DuckDB runs their transactions side by side). Its TEMP
   * tables are its own, its writes go through the same guard; closing it closes only the connection.
   */
  async connectAgain(): Promise<Database> {
    // Closed to be opened again (or closed meanwhile): refused like a statement, with when to retry.
    const refused = () => {
      const error = closedToReopen()
      return this.guard?.afterWrite(error.fault, error.cause as Error) ?? error
    }
    if (this.#closed) throw refused()
    const instance = this.#instance
    const connection = await instance.connect().catch((error: unknown) => {
      throw this.#closed || instance !== this.#instance ? refused() : error
    })
    if (this.#closed || instance !== this.#instance) {
      connection.closeSync()
      throw refused()
    }
    const other = new Database(instance, connection, this.file, this.config, this.guard, this)
    this.#others.add(other)
    return other
  }

  /**
   * Opens (or creates) the DuckDB file. `memoryLimit` caps DuckDB's buffer memory (DuckDB syntax,
   * e.g. "256MB"; DuckDB's default is 80% of RAM); `guard` watches every write. Whether a missing
   * file may be created is decided before (store-marker.ts).
   */
  static async open(file: string, options: { memoryLimit?: string; guard?: WriteGuard } = {}): Promise<Database> {
    await mkdir(path.dirname(file), { recursive: true })
    const config: Record<string, string> = options.memoryLimit ? { memory_limit: options.memoryLimit } : {}
    const { instance, connection } = await connect(file, config)
    try {
      for (const statement of SCHEMA) await connection.run(statement)
      return new Database(instance, connection, file, config, options.guard ?? null)
    } catch (error) {
      instance.closeSync()
      throw error
    }
  }

  /** Runs statements now and again on the connection a reopen makes: what lives with the connection (TEMP tables). */
  async setUpSession(statements: readonly string[]): Promise<void> {
    for (const statement of statements) await this.run(statement)
    this.#sessionSetup.push(...statements)
  }

  run(sql: string, params: DuckDBValue[] = []): Promise<void> {
    return this.#exclusive(() => runOn(this.#connection, sql, params), true)
  }

  /** A read (or a statement inside a transaction, whose commit is watched). */
  rows(sql: string, params: DuckDBValue[] = []): Promise<Row[]> {
    return this.#exclusive(() => rowsOn(this.#connection, sql, params), false)
  }

  append(table: string, rows: readonly (readonly AppendValue[])[], options: { temp?: boolean } = {}): Promise<void> {
    return this.#exclusive(() => appendOn(this.#connection, table, rows, options), !options.temp)
  }

  /** Runs `work` inside BEGIN … COMMIT, rolling back if it throws; the guard is asked again right before COMMIT. */
  transaction<T>(work: (tx: Statements) => Promise<T>): Promise<T> {
    return this.#exclusive(async () => {
      const connection = this.#connection
      const tx: Statements = {
        run: (sql, params = []) => runOn(connection, sql, params),
        rows: (sql, params = []) => rowsOn(connection, sql, params),
        append: (table, rows, options = {}) => appendOn(connection, table, rows, options),
      }
      await connection.run('BEGIN TRANSACTION')
      try {
        const result = await work(tx)
        this.guard?.beforeWrite()
        await connection.run('COMMIT')
        return result
      } catch (error) {
        await connection.run('ROLLBACK').catch(() => undefined)
        throw error
      }
    }, true)
  }

  /**
   * Closes the instance DuckDB gave up on (a failed checkpoint invalidates it: every statement
   * fails until the file is opened again) and opens the same file again, after the statements
   * queued before. Nothing committed is lost: the invalidated instance closes without a checkpoint
   * and leaves the log, which the new one replays. Connections made by connectAgain on the old
   * instance are closed with it (their imports end with REOPENED_MESSAGE). `ownFile` throws when
   * the file at the path is not the one opened; it is asked before closing, before opening and
   * again before the checkpoint that follows, which proves the disk takes the log again: a reopen
   * whose checkpoint fails leaves the store closed, to be reopened later.
   */
  reopen(ownFile: () => void): Promise<void> {
    if (this.main) return Promise.reject(new Error('only the main connection reopens the store'))
    const next = this.#queue.then(async () => {
      // Asked before closing too: the descriptors of a file removed meanwhile are what `admin recover-store` copies.
      ownFile()
      await this.#closeInstance()
      ownFile()
      const { instance, connection } = await connect(this.file, this.config)
      this.#instance = instance
      this.#connection = connection
      try {
        ownFile()
      } catch (error) {
        await connection.run('PRAGMA disable_checkpoint_on_shutdown').catch(() => undefined)
        await this.#closeInstance()
        throw error
      }
      try {
        for (const statement of this.#sessionSetup) await connection.run(statement)
        await connection.run('CHECKPOINT')
      } catch (error) {
        await this.#closeInstance()
        throw error
      }
      this.#closed = false
    })
    this.#queue = next.catch(() => undefined)
    return next
  }

  /** Closes every connection on the instance, each once its statement under way (if any) has ended, then the instance. */
  async #closeInstance(): Promise<void> {
    this.#closed = true
    for (const other of this.#others) {
      other.#orphaned = true
      await other.#queue.catch(() => undefined)
      other.#connection.closeSync()
    }
    this.#others.clear()
    this.#connection.closeSync()
    this.#instance.closeSync()
  }

  /**
   * Waits for queued statements, then closes the file. Closing checkpoints the log into the file
   * and deletes the log; when the guard refuses writes because the file at the path is not the
   * one opened (removed, replaced, damaged), that would write into a file nobody will read and
   * delete the only copy of the changes since the last checkpoint, so the log is left for the
   * next start (or `admin recover-store`) to replay. (An instance DuckDB gave up on never
   * checkpoints; one closed to be reopened has nothing left to close.)
   */
  async close(): Promise<void> {
    await this.#queue.catch(() => undefined)
    if (this.main) {
      this.main.#others.delete(this)
      this.#connection.closeSync()
      return
    }
    if (this.#closed) return
    if (this.guard) {
      try {
        this.guard.beforeWrite()
      } catch {
        await this.#connection.run('PRAGMA disable_checkpoint_on_shutdown').catch(() => undefined)
      }
    }
    this.#connection.closeSync()
    this.#instance.closeSync()
  }

  #exclusive<T>(work: () => Promise<T>, write: boolean): Promise<T> {
    const guarded = async () => {
      if (this.#orphaned) throw new HttpError('SERVICE_UNAVAILABLE', REOPENED_MESSAGE, ...retryAfter(1))
      if (write) this.guard?.beforeWrite()
      if (this.#closed) throw closedToReopen()
      return work()
    }
    const next = this.#queue.then(guarded).then(
      (value) => {
        if (write) this.guard?.afterWrite(null)
        return value
      },
      (error: unknown) => {
        const operation = write ? 'write' : 'read'
        const refused = refusedStatement(error, operation)
        if (refused instanceof StoreWriteError) throw this.guard?.afterWrite(refused.fault, refused.cause as Error, operation) ?? refused
        throw refused
      },
    )
    this.#queue = next.catch(() => undefined)
    return next
  }
}

async function connect(file: string, config: Record<string, string>): Promise<{ instance: DuckDBInstance; connection: DuckDBConnection }> {
  const { DuckDBInstance } = loadDuckDB()
  const instance = await DuckDBInstance.create(file, config)
  try {
    return { instance, connection: await instance.connect() }
  } catch (error) {
    instance.closeSync()
    throw error
  }
}

async function runOn(connection: DuckDBConnection, sql: string, params: DuckDBValue[]): Promise<void> {
  await connection.run(sql, params)
}

async function rowsOn(connection: DuckDBConnection, sql: string, params: DuckDBValue[]): Promise<Row[]> {
  const reader = await connection.runAndReadAll(sql, params)
  return reader.getRowObjectsJS() as Row[]
}

async function appendOn(connection: DuckDBConnection, table: string, rows: readonly (readonly AppendValue[])[], options: { temp?: boolean }): Promise<void> {
  const appender = options.temp ? await connection.createAppender(table, 'main', 'temp') : await connection.createAppender(table)
  try {
    for (const row of rows) {
      for (const value of row) {
        if (value === null) appender.appendNull()
        else if (typeof value === 'string') appender.appendVarchar(value)
        else if (typeof value === 'bigint') appender.appendBigInt(value)
        else appender.appendBoolean(value)
      }
      appender.endRow()
    }
    appender.flushSync()
  } finally {
    appender.closeSync()
  }
}
