// Where the store is, as TAXATLAS_STORE says: a DuckDB file path, or a PostgreSQL database by its
// postgres:// URL. Kept apart from the engines so that reading the settings loads neither.

export type StoreLocation = { kind: 'duckdb'; file: string } | { kind: 'postgres'; url: string }

/** Whether TAXATLAS_STORE names PostgreSQL: a postgres:// (or postgresql://) URL; anything else is a file path. */
export const isPostgresUrl = (value: string) => /^postgres(ql)?:\/\//i.test(value)

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
