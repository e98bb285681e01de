// The server's own refresh: on each tick of the cron schedule it runs the pipeline as a child
// process (`make refresh` in-process would block lookups for seconds), then swaps to the snapshot
// it published; requests keep being answered from the snapshot in service throughout. A run that
// fails as a whole and published nothing is recorded by republishing the snapshot in service with
// its states marked failed (snapshot-contract/failed-run.ts): freshness shows it, data unchanged.
// execa is imported on first use: a server without a schedule never loads it (start-up parses less
// of the bundle, docs/architecture.md "How the server starts"); one with a schedule loads it before
// it listens (optional-features.ts).
import { Cron } from 'croner'
import type { execa } from 'execa'
import { publishFailedRun } from '../../snapshot-contract/failed-run.ts'
import { readCurrentId } from '../../snapshot-contract/snapshot-store.ts'
import type { Clock } from '../base/clock.ts'
import type { Logger } from '../base/logger.ts'
import { onFirstUse } from '../base/on-first-use.ts'
import type { RefreshSettings } from './refresh-settings.ts'
import type { ReloadOutcome } from './snapshot-source.ts'

const STDERR_TAIL = 2_000

export const loadExeca = onFirstUse('execa', () => import('execa'), ['execa'])

export type RefreshRun = { ok: boolean; exitCode: number | null; snapshot: string | null; reason?: string; reload: ReloadOutcome | null }

export type RefreshScheduler = {
  /** when the next run starts (null when stopped) */
  nextRun(): Date | null
  /** one run now, as a tick would start it; resolves when it has finished and the swap is done */
  runNow(): Promise<RefreshRun>
  /** stops the schedule and any run in progress (SIGTERM), and waits for it */
  stop(): Promise<void>
}

export function scheduleRefresh(
  settings: RefreshSettings,
  deps: { artifactsDir: string; env: NodeJS.ProcessEnv; logger: Logger; clock: Clock; reload: () => Promise<ReloadOutcome> },
): RefreshScheduler {
  const { logger } = deps
  let running: Promise<RefreshRun> | null = null
  let child: ReturnType<typeof execa> | null = null
  let stopped = false

  const runOnce = async (trigger: 'schedule' | 'manual'): Promise<RefreshRun> => {
    const started = performance.now()
    const before = await readCurrentId(deps.artifactsDir)
    logger.info('refresh_started', { trigger, command: settings.command.join(' '), serving: before })
    const [file, ...args] = settings.command
    const { execa } = await loadExeca()
    child = execa(file!, args, {
      cwd: settings.cwd,
      env: { ...deps.env, TAXATLAS_ARTIFACTS: deps.artifactsDir },
      extendEnv: false,
      reject: false,
      timeout: settings.timeoutMs,
      killSignal: 'SIGTERM',
      forceKillAfterDelay: 10_000,
      stdin: 'ignore',
      all: false,
    })
    const result = await child
    child = null
    const seconds = Math.round(performance.now() - started) / 1000
    const after = await readCurrentId(deps.artifactsDir)
    const ok = result.exitCode === 0
    let reason: string | undefined
    if (!ok) {
      reason = result.timedOut ? `timed out after ${settings.timeoutMs} ms` : result.signal ? `stopped by ${result.signal}` : `exit code ${result.exitCode}`
      const tail = String(result.stderr ?? '').trim().split('\n').slice(-3).join(' | ').slice(-STDERR_TAIL)
      logger.error('refresh_failed', { trigger, reason, seconds, stderr_tail: tail })
      if (after === before && !stopped) {
        // It published nothing, not even its own failure: record it, data unchanged.
        const failure = await publishFailedRun(deps.artifactsDir, { reason: `${reason}${tail ? `: ${tail}` : ''}`, now: new Date(deps.clock()), states: null }).catch((error: Error) => {
          logger.error('refresh_failure_not_recorded', { reason: error.message })
          return null
        })
        if (failure) logger.warn('refresh_failure_recorded', { snapshot: failure.snapshot })
      }
    }
    const reload = stopped ? null : await deps.reload()
    const snapshot = await readCurrentId(deps.artifactsDir)
    if (ok) logger.info('refresh_finished', { trigger, seconds, snapshot, previous: before })
    return { ok, exitCode: result.exitCode ?? null, snapshot, reload, ...(reason ? { reason } : {}) }
  }

  const start = (trigger: 'schedule' | 'manual'): Promise<RefreshRun> => {
    if (running) {
      if (trigger === 'schedule') logger.warn('refresh_skipped', { reason: 'the previous run is still going' })
      return running
    }
    running = runOnce(trigger).finally(() => (running = null))
    return running
  }

  const cron = new Cron(settings.schedule, { timezone: 'UTC', protect: true }, () => {
    void start('schedule').catch((error: Error) => logger.error('refresh_failed', { trigger: 'schedule', reason: error.message }))
  })
  logger.info('refresh_scheduled', { schedule: settings.schedule, next_run: cron.nextRun()?.toISOString() ?? null })

  return {
    nextRun: () => (stopped ? null : cron.nextRun()),
    runNow: () => start('manual'),
    stop: async () => {
      stopped = true
      cron.stop()
      child?.kill('SIGTERM')
      await running?.catch(() => undefined)
    },
  }
}
