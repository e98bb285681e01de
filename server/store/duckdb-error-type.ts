// DuckDB's exception type of an error it threw. The Node API hands over only the message, and
// DuckDB writes every message as "<type> Error: <text>", the type being the name of its
// ExceptionType (duckdb/common/exception.hpp). The type is read from that fixed prefix against
// the list below, never from words in the text after it.

/** DuckDB's ExceptionType names, as its messages spell them. */
export const DUCKDB_ERROR_TYPES = [
  'Invalid', 'Out of Range', 'Conversion', 'Unknown Type', 'Decimal', 'Mismatch Type', 'Divide by Zero',
  'Object Size', 'Invalid type', 'Serialization', 'TransactionContext', 'Not implemented', 'Expression',
  'Catalog', 'Parser', 'Binder', 'Planner', 'Scheduler', 'Executor', 'Constraint', 'Index', 'Stat',
  'Connection', 'Syntax', 'Settings', 'Optimizer', 'NullPointer', 'IO', 'INTERRUPT', 'FATAL', 'INTERNAL',
  'Invalid Input', 'Out of Memory', 'Permission', 'Parameter Not Resolved', 'Parameter Not Allowed',
  'Dependency', 'HTTP', 'Missing Extension', 'Auto-load', 'Sequence', 'INVALID_CONFIGURATION',
] as const
export type DuckDBErrorType = (typeof DUCKDB_ERROR_TYPES)[number]

const KNOWN = new Set<string>(DUCKDB_ERROR_TYPES)
const PREFIX = /^([A-Za-z_ -]+?) Error: /

/** The exception type of an error DuckDB threw; null for anything else (a Node error, ours). */
export function duckdbErrorType(error: unknown): DuckDBErrorType | null {
  if (!(error instanceof Error) || 'code' in error) return null
  const type = PREFIX.exec(error.message)?.[1]
  return type !== undefined && KNOWN.has(type) ? (type as DuckDBErrorType) : null
}

/**
 * What a failed statement means for the store, by DuckDB's type:
 * - `io`: the file could not be read or written (disk full, a size limit, a vanished or read-only
 *   file system, a damaged block);
 * - `commit`: the transaction could not be committed (its log write failed);
 * - `invalidated`: DuckDB gave up on the database after a fatal error (a failed checkpoint); every
 *   later statement fails until the store is opened again;
 * - null: a fault of the statement itself (a constraint, a bug), not of the store.
 */
export type StoreFault = 'io' | 'commit' | 'invalidated'

export function storeFaultOf(error: unknown): StoreFault | null {
  switch (duckdbErrorType(error)) {
    case 'IO':
    case 'Permission':
      return 'io'
    case 'TransactionContext':
      return 'commit'
    case 'FATAL':
      return 'invalidated'
    default:
      return null
  }
}
