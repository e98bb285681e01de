/** Rows a PostgreSQL backfill moves into `transactions` per transaction (pg-bulk-writer.ts). */
export const PG_COMMIT_ROWS = 50_000
