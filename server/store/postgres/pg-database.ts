// The PostgreSQL store's connections: one pool per server node (`pg`), a transaction helper that
// retries what PostgreSQL asks to be retried (a deadlock, a serialization failure, a key another
// node inserted first), and the translation of "the database is not there" — refused or dropped
// connections, a server shutting down or starting — into 503 SERVICE_UNAVAILABLE with
// Retry-After, so a request that needs the database is told to come back rather than failing
// with a 500, while lookups (which never wait on it) keep answering.
import pg from 'pg'
import { HttpError, retryAfter } from '../../base/errors.ts'

export type PgRow = Record<string, unknown>
export type PgParams = readonly unknown[]

/** What runs statements: the pool, or one client inside a transaction. */
export type PgStatements = {
  rows(sql: string, params?: PgParams): Promise<PgRow[]>
  run(sql: string, params?: PgParams): Promise<number>
}

/** Seconds a client is told to wait when the database cannot be reached. */
export const DATABASE_RETRY_AFTER_SECONDS = 5

/** How long a request waits for a connection before it is refused with 503. */
const CONNECT_TIMEOUT_MS = 3_000

// SQLSTATE classes and codes that say the database, not the statement, is at fault:
// 08 connection exception, 57P01-57P03 shutting down / crashed / starting, 53 insufficient
// resources, 58 system error.
const UNAVAILABLE_STATES = /^(08|53|58|57P0[1-3])/
// Node's errors of a connection that could not be made or was cut.
const UNAVAILABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND', 'EAI_AGAIN'])
const UNAVAILABLE_MESSAGES = /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection ended unexpectedly/i

/** Retried inside `transaction`: deadlock, serialization failure, unique violation (a key another node wrote first). */
const RETRIED_STATES = new Set(['40P01', '40001', '23505'])
const TRANSACTION_ATTEMPTS = 5

export class DatabaseUnavailableError extends HttpError {
  constructor(cause: Error) {
    super(
      'SERVICE_UNAVAILABLE',
      // Said of every route: a backfill cut by the outage keeps the chunks it committed before it.
      'The database is unreachable right now: changes not yet committed were not saved (a backfill keeps the chunks it committed before; sending it again is safe). Retry later; rate lookups still answer.',
      ...retryAfter(DATABASE_RETRY_AFTER_SECONDS),
    )
    this.cause = cause
  }
}

export function isUnavailable(error: unknown): boolean {
  if (error instanceof DatabaseUnavailableError) return true
  if (!(error instanceof Error)) return false
  const { code } = error as { code?: string }
  return (code !== undefined && (UNAVAILABLE_CODES.has(code) || UNAVAILABLE_STATES.test(code))) || UNAVAILABLE_MESSAGES.test(error.message)
}

const translated = (error: unknown): unknown => (error instanceof HttpError || !isUnavailable(error) ? error : new DatabaseUnavailableError(error as Error))

const statementsOf = (client: pg.Pool | pg.PoolClient): PgStatements => ({
  rows: async (sql, params = []) => (await client.query(sql, params as unknown[])).rows,
  run: async (sql, params = []) => (await client.query(sql, params as unknown[])).rowCount ?? 0,
})

const ignoreError = () => {}

export class PgDatabase implements PgStatements {
  readonly #statements: PgStatements

  private constructor(
    readonly pool: pg.Pool,
    readonly url: string,
  ) {
    this.#statements = statementsOf(pool)
  }

  /** A pool of up to `size` connections; nothing is connected until the first statement. */
  static connect(url: string, options: { size: number; name: string; onIdleError?: (error: Error) => void }): PgDatabase {
    const pool = new pg.Pool({
      connectionString: url,
      max: options.size,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      idleTimeoutMillis: 30_000,
      application_name: options.name,
      keepAlive: true,
      options: '-c TimeZone=UTC',
    })
    // An idle connection cut by the server (a restart) must not end the process: the pool drops it.
    pool.on('error', (error) => options.onIdleError?.(error))
    return new PgDatabase(pool, url)
  }

  rows(sql: string, params?: PgParams): Promise<PgRow[]> {
    return this.#statements.rows(sql, params).catch((error) => Promise.reject(translated(error)))
  }

  run(sql: string, params?: PgParams): Promise<number> {
    return this.#statements.run(sql, params).catch((error) => Promise.reject(translated(error)))
  }

  /**
   * Runs `work` inside BEGIN … COMMIT on one connection, rolling back if it throws. A deadlock,
   * a serialization failure or a unique violation (a row another node inserted between this
   * transaction's read and its write) runs the whole of `work` again, so `work` must have no
   * effect outside the transaction before it returns.
   */
  async transaction<T>(work: (tx: PgStatements) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      const client = await this.#connect()
      let broken = false
      try {
        await client.query('BEGIN')
        const result = await work(statementsOf(client))
        await client.query('COMMIT')
        return result
      } catch (error) {
        broken = isUnavailable(error)
        if (!broken) await client.query('ROLLBACK').catch(() => (broken = true))
        const state = (error as { code?: string }).code
        if (!broken && state !== undefined && RETRIED_STATES.has(state) && attempt < TRANSACTION_ATTEMPTS) continue
        throw translated(error)
      } finally {
        client.release(broken)
      }
    }
  }

  /** One connection of its own for `work` (a COPY stream), returned to the pool after. */
  async withClient<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await this.#connect()
    let broken = false
    try {
      return await work(client)
    } catch (error) {
      broken = isUnavailable(error)
      throw translated(error)
    } finally {
      client.release(broken)
    }
  }

  close(): Promise<void> {
    return this.pool.end()
  }

  /**
   * A client of the pool, with an error listener while it is checked out: a connection cut between
   * two statements (a server restart) emits an error no query is waiting for, which would otherwise
   * end the process. The next statement on it fails, and it is released as broken.
   */
  async #connect(): Promise<pg.PoolClient> {
    const client = await this.pool.connect().catch((error) => Promise.reject(translated(error)))
    if (!client.listeners('error').includes(ignoreError)) client.on('error', ignoreError)
    return client
  }
}
