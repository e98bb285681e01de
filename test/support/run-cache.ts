// Snapshots built once per vitest run in the run's cache (temp-dirs.ts runCacheDir) and shared by
// the test files. Files run in parallel: one builds while the others wait for its CURRENT pointer.
import { mkdir, rename, rm, stat } from 'node:fs/promises'
import path from 'node:path'
import { setTimeout } from 'node:timers/promises'
import { readCurrentId } from '../../snapshot-contract/snapshot-store.ts'

// A lock older than this was left by a process that died while building: taken over.
const STALE_LOCK_MS = 10 * 60_000

/** Runs `build` on a scratch folder that becomes `dir`, unless `dir` (or another process's build of it) has a CURRENT pointer. */
export async function buildOnce(dir: string, build: (building: string) => Promise<void>): Promise<void> {
  await mkdir(path.dirname(dir), { recursive: true })
  const lock = `${dir}.lock`
  while (!(await readCurrentId(dir))) {
    const locked = await mkdir(lock).then(
      () => true,
      () => false,
    )
    if (!locked) {
      const age = Date.now() - ((await stat(lock).catch(() => null))?.mtimeMs ?? Date.now())
      if (age > STALE_LOCK_MS) await rm(lock, { recursive: true, force: true })
      await setTimeout(500)
      continue
    }
    try {
      if (await readCurrentId(dir)) return
      const building = `${dir}.tmp-${process.pid}`
      await rm(building, { recursive: true, force: true })
      await build(building)
      await rename(building, dir)
    } finally {
      await rm(lock, { recursive: true, force: true })
    }
  }
}
