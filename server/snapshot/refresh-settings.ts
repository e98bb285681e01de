// Settings of the scheduled refresh the server runs as a child process (snapshot/refresh-schedule.ts).
import { Cron } from 'croner'
import * as z from 'zod'

/** The spec's schedule for `auto` states: weekly, Sunday 03:00 UTC. */
export const WEEKLY_SCHEDULE = '0 3 * * 0'

export const RefreshEnv = z.object({
  TAXATLAS_REFRESH_SCHEDULE: z
    .string()
    .trim()
    .min(1)
    .transform((value) => (value === 'weekly' ? WEEKLY_SCHEDULE : value))
    .superRefine((value, context) => {
      const error = cronError(value)
      if (error) context.addIssue({ code: 'custom', message: `not a cron expression: ${error}` })
    })
    .optional()
    .describe(`cron expression (UTC) of the server's own refresh runs, or "weekly" (${WEEKLY_SCHEDULE}); unset = the server never refreshes`),
  TAXATLAS_REFRESH_COMMAND: z
    .string()
    .trim()
    .min(1)
    .default('node --import tsx pipeline/main.ts')
    .describe('the refresh run, split on spaces, started in TAXATLAS_REFRESH_DIR with the server\'s environment'),
  TAXATLAS_REFRESH_DIR: z.string().min(1).optional().describe('working directory of the refresh run; default the server\'s'),
  TAXATLAS_REFRESH_TIMEOUT_MS: z.coerce.number().int().positive().default(3_600_000).describe('a run still going after this is stopped and counted failed'),
})

export type RefreshSettings = {
  schedule: string
  command: string[]
  cwd: string
  timeoutMs: number
}

export function refreshSettingsOf(env: z.infer<typeof RefreshEnv>): RefreshSettings | null {
  if (!env.TAXATLAS_REFRESH_SCHEDULE) return null
  return {
    schedule: env.TAXATLAS_REFRESH_SCHEDULE,
    command: env.TAXATLAS_REFRESH_COMMAND.split(/\s+/),
    cwd: env.TAXATLAS_REFRESH_DIR ?? process.cwd(),
    timeoutMs: env.TAXATLAS_REFRESH_TIMEOUT_MS,
  }
}

function cronError(expression: string): string | null {
  try {
    new Cron(expression, { timezone: 'UTC', paused: true }).stop()
    return null
  } catch (error) {
    return (error as Error).message
  }
}
