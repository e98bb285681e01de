// The exit status of a refresh run (pipeline/main.ts), as whatever scheduled it reads it: the
// server's own schedule (server/snapshot/refresh-schedule.ts), a cron line, the GitHub workflow.
// 2 is left out: `make` exits 2 whenever its recipe fails, whatever the status was.
export const REFRESH_EXIT = {
  /** a snapshot was published, and every state the run was asked for has data */
  published: 0,
  /** nothing was published: invalid settings, another run holding the artifacts, or a failure (recorded in freshness) */
  failed: 1,
  /** a snapshot was published, but a state the run was asked for has no data: its lookups answer 503 */
  statesWithoutData: 3,
} as const
