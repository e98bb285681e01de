// One refresh at a time per artifacts directory. Two at once (the schedule and an operator) used
// to collide on the staging database: the second published the data in service with every state
// it tried `failed`, and the pointer could end on the older of the two snapshots. A refresh takes
// `<artifacts>/refresh.lock` (created exclusively, holding its pid) before it reads anything, and
// a second one is refused with the holder's pid. A lock whose process no longer runs (a run
// killed with -9) is taken over.
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { isProcessRunning } from '../../snapshot-contract/snapshot-store.ts'

export const refreshLockPath = (artifactsDir: string) => path.join(artifactsDir, 'refresh.lock')

export type RefreshLock = { release(): Promise<void> }

/** The lock, or the pid of the refresh that holds it. */
export async function takeRefreshLock(artifactsDir: string, now: Date): Promise<RefreshLock | { heldBy: number; since: string }> {
  const file = refreshLockPath(artifactsDir)
  await mkdir(artifactsDir, { recursive: true })
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await writeFile(file, `${JSON.stringify({ pid: process.pid, started: now.toISOString() })}\n`, { flag: 'wx' })
      return { release: () => rm(file, { force: true }) }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    }
    const holder = await readFile(file, 'utf8').then((text) => JSON.parse(text) as { pid?: unknown; started?: unknown }, () => null)
    const pid = Number(holder?.pid)
    if (Number.isInteger(pid) && pid > 0 && isProcessRunning(pid)) return { heldBy: pid, since: String(holder?.started ?? 'unknown') }
    // Left by a run that was killed (or unreadable): moved aside, then taken as above.
    await rename(file, `${file}.stale-${process.pid}`).catch(() => undefined)
    await rm(`${file}.stale-${process.pid}`, { force: true })
  }
  throw new Error(`${file} could not be taken: another refresh took it at the same moment`)
}
