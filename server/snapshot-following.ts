// The background work of start-up that keeps the snapshot current: the CURRENT pointer followed
// (a change reloads), and the server's own refresh runs when TAXATLAS_REFRESH_SCHEDULE is set.
import type { Clock } from './base/clock.ts'
import type { Logger } from './base/logger.ts'
import type { ServerSettings } from './settings.ts'
import { scheduleRefresh, type RefreshScheduler } from './snapshot/refresh-schedule.ts'
import type { SnapshotSource } from './snapshot/snapshot-source.ts'
import { watchPointer } from './snapshot/watch-pointer.ts'

export type SnapshotFollowing = {
  /** the server's own refresh runs, when scheduled */
  readonly refresh: RefreshScheduler | null
  /** Stops following the pointer, then waits for a refresh run under way. */
  stop(): Promise<void>
}

export function followSnapshots(
  settings: Pick<ServerSettings, 'artifactsDir' | 'snapshotPollMs' | 'refresh' | 'env'>,
  parts: { snapshots: SnapshotSource; logger: Logger; clock: Clock },
): SnapshotFollowing {
  const { snapshots, logger, clock } = parts
  const stopWatching = watchPointer(settings.artifactsDir, (trigger) => void snapshots.reload(trigger), { pollMs: settings.snapshotPollMs, logger })
  let refresh: RefreshScheduler | null = null
  try {
    if (settings.refresh) {
      refresh = scheduleRefresh(settings.refresh, { artifactsDir: settings.artifactsDir, env: settings.env, logger, clock, reload: () => snapshots.reload('refresh') })
    }
  } catch (error) {
    stopWatching()
    throw error
  }
  return {
    refresh,
    async stop() {
      stopWatching()
      await refresh?.stop()
    },
  }
}
