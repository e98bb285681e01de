// Where the store is, as TAXATLAS_STORE says: a DuckDB file path, or a PostgreSQL database by its
// postgres:// URL. Kept apart from the engines so that reading the settings loads neither.

export type StoreLocation = { kind: 'duckdb'; file: string } | { kind: 'postgres'; url: string }

/** Whether TAXATLAS_STORE names PostgreSQL: a postgres:// (or postgresql://) URL. */
export const isPostgresUrl = (value: string) => /^postgres(ql)?:\/\//i.test(value)

/**
 * Whether TAXATLAS_STORE reads as a URL of some other kind (`mysql://…`, `postgres:/typo`,
 * `file:…`): a scheme of two letters or more before a colon. Taken for a file path, it would put a
 * node on a DuckDB file of its own in a folder named after the scheme.
 */
export const hasOtherScheme = (value: string) => !isPostgresUrl(value) && /^[a-z][a-z0-9+.-]+:/i.test(value)

/** The URL as it may be logged or shown: without its password. */
export function redactedUrl(url: string): string {
  try {
    const parsed = new URL(url)
    if (parsed.password) parsed.password = '***'
    return parsed.toString()
  } catch {
    return 'postgres://(unparseable URL)'
  }
}
