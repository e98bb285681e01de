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

/**
 * A statement the store's disk refused (DuckDB's IO, commit or fatal error types, see
 * duckdb-error-type.ts): 503 SERVICE_UNAVAILABLE with the system's reason (never the file's
 * path), not a 500, so a client knows its change was not saved and may retry.
 */
export class StoreWriteError extends HttpError {
  constructor(
    cause: Error,
    readonly fault: StoreFault,
  ) {
    const reason = /:\s*([^:"]+)$/.exec(cause.message.split('\n')[0])?.[1]?.trim() ?? 'input/output error'
    super(
      'SERVICE_UNAVAILABLE',
      `The store cannot write to its file right now (${reason}): changes not yet committed were not saved. Retry later; rate lookups still answer.`,
      ...retryAfter(STORE_WRITE_RETRY_AFTER_SECONDS),
    )
    this.cause = cause
  }
}

/**
 * Who watches the store's writes (store-supervisor.ts): asked before every write and before every
 * commit, it throws to refuse the write (the file was removed or replaced); told the outcome of
 * each write, so the store's health follows its disk.
 */
export type WriteGuard = {
  beforeWrite(): void
  afterWrite(fault: StoreFault | null, error?: Error): void
}

const refusedWrite = (error: unknown): unknown => {
  if (error instanceof HttpError) return error
  const fault = storeFaultOf(error)
  return fault ? new StoreWriteError(error as Error, fault) : error
}

export class Database implements Statements {
  #queue: Promise<unknown> = Promise.resolve()

  private constructor(
    private readonly instance: DuckDBInstance,
    private readonly connection: DuckDBConnection,
    readonly file: string,
    private readonly guard: WriteGuard | null,
    /** false for a connection made by connectAgain: closing it leaves the file open */
    private readonly ownsInstance = true,
  ) {}

  /**
   * Another connection to the same file, with a queue of its own: a bulk import on it does not
   * hold up the statements of this one (DuckDB runs their transactions side by side). Its TEMP
   * tables are its own, its writes go through the same guard; closing it closes only the connection.
   */
  async connectAgain(): Promise<Database> {
    return new Database(this.instance, await this.instance.connect(), this.file, this.guard, false)
  }

  /**
   * Opens (or creates) the DuckDB file. `memoryLimit` caps DuckDB's buffer memory (DuckDB syntax,
   * e.g. "256MB"; DuckDB's default is 80% of RAM); `guard` watches every write. Whether a missing
   * file may be created is decided before (store-marker.ts).
   */
  static async open(file: string, options: { memoryLimit?: string; guard?: WriteGuard } = {}): Promise<Database> {
    await mkdir(path.dirname(file), { recursive: true })
    const { DuckDBInstance } = loadDuckDB()
    const instance = await DuckDBInstance.create(file, options.memoryLimit ? { memory_limit: options.memoryLimit } : {})
    try {
      const connection = await instance.connect()
      for (const statement of SCHEMA) await connection.run(statement)
      return new Database(instance, connection, file, options.guard ?? null)
    } catch (error) {
      instance.closeSync()
      throw error
    }
  }

  run(sql: string, params: DuckDBValue[] = []): Promise<void> {
    return this.#exclusive(() => runOn(this.connection, sql, params), true)
  }

  /** A read (or a statement inside a transaction, whose commit is watched). */
  rows(sql: string, params: DuckDBValue[] = []): Promise<Row[]> {
    return this.#exclusive(() => rowsOn(this.connection, sql, params), false)
  }

  append(table: string, rows: readonly (readonly AppendValue[])[], options: { temp?: boolean } = {}): Promise<void> {
    return this.#exclusive(() => appendOn(this.connection, table, rows, options), !options.temp)
  }

  /** Runs `work` inside BEGIN … COMMIT, rolling back if it throws; the guard is asked again right before COMMIT. */
  transaction<T>(work: (tx: Statements) => Promise<T>): Promise<T> {
    return this.#exclusive(async () => {
      const tx: Statements = {
        run: (sql, params = []) => runOn(this.connection, sql, params),
        rows: (sql, params = []) => rowsOn(this.connection, sql, params),
        append: (table, rows, options = {}) => appendOn(this.connection, table, rows, options),
      }
      await this.connection.run('BEGIN TRANSACTION')
      try {
        const result = await work(tx)
        this.guard?.beforeWrite()
        await this.connection.run('COMMIT')
        return result
      } catch (error) {
        await this.connection.run('ROLLBACK').catch(() => undefined)
        throw error
      }
    }, true)
  }

  /**
   * Waits for queued statements, then closes the file. Closing checkpoints the log into the file
   * and deletes the log; when the guard refuses writes because the file at the path is not the
   * one opened (removed, replaced, damaged), that would write into a file nobody will read and
   * delete the only copy of the changes since the last checkpoint, so the log is left for the
   * next start (or `admin recover-store`) to replay.
   */
  async close(): Promise<void> {
    await this.#queue.catch(() => undefined)
    if (this.ownsInstance && this.guard) {
      try {
        this.guard.beforeWrite()
      } catch {
        await this.connection.run('PRAGMA disable_checkpoint_on_shutdown')
      }
    }
    this.connection.closeSync()
    if (this.ownsInstance) this.instance.closeSync()
  }

  #exclusive<T>(work: () => Promise<T>, write: boolean): Promise<T> {
    const guarded = async () => {
      if (write) this.guard?.beforeWrite()
      return work()
    }
    const next = this.#queue.then(guarded).then(
      (value) => {
        if (write) this.guard?.afterWrite(null)
        return value
      },
      (error: unknown) => {
        const refused = refusedWrite(error)
        if (refused instanceof StoreWriteError) this.guard?.afterWrite(refused.fault, refused.cause as Error)
        throw refused
      },
    )
    this.#queue = next.catch(() => undefined)
    return next
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
