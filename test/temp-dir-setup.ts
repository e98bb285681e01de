// The run's own temp directory: every worker, and every process a test starts, gets it as TMPDIR,
// so whatever a test leaves behind is found there. At the end of the run it is removed, and the
// run fails when a test left a taxatlas-* folder in it: tests remove what they create, also when
// they fail. The shared snapshot cache lives in it too (cache/, not a taxatlas-* folder).
// A run killed outright (SIGKILL, a machine stopped) never reaches its teardown: the next run
// removes the directory of every earlier run whose process is gone.
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { isProcessRunning } from '../snapshot-contract/snapshot-store.ts'

const RUN_PREFIX = 'taxatlas-test-run-'
const OWNER_FILE = 'owner.pid'
/** A run directory with no owner file yet may be one another run is just creating. */
const OWNERLESS_GRACE_MS = 60_000

export default async function setup() {
  await removeAbandonedRuns()
  const runDir = await mkdtemp(path.join(os.tmpdir(), RUN_PREFIX))
  await writeFile(path.join(runDir, OWNER_FILE), String(process.pid))
  // PostgreSQL's test servers run as the postgres user, which must reach their folders inside.
  await chmod(runDir, 0o711)
  const cache = path.join(runDir, 'cache')
  await mkdir(cache)
  const before = { TMPDIR: process.env.TMPDIR, TAXATLAS_TEST_RUN_CACHE: process.env.TAXATLAS_TEST_RUN_CACHE }
  process.env.TMPDIR = runDir
  process.env.TAXATLAS_TEST_RUN_CACHE = cache
  return async () => {
    const left = (await readdir(runDir)).filter((name) => name.startsWith('taxatlas-')).sort()
    await rm(runDir, { recursive: true, force: true })
    for (const [name, value] of Object.entries(before)) {
      if (value === undefined) delete process.env[name]
      else process.env[name] = value
    }
    if (left.length > 0) throw new Error(`the tests left ${left.length} taxatlas-* folder(s) in the temp directory: ${left.join(', ')}`)
  }
}

async function removeAbandonedRuns(): Promise<void> {
  const tmp = os.tmpdir()
  for (const name of await readdir(tmp)) {
    if (!name.startsWith(RUN_PREFIX)) continue
    const dir = path.join(tmp, name)
    const owner = await readFile(path.join(dir, OWNER_FILE), 'utf8').then(Number, () => null)
    // another run may remove it first
    const age = await stat(dir).then((s) => Date.now() - s.mtimeMs, () => null)
    if (age === null) continue
    const abandoned = owner === null ? age > OWNERLESS_GRACE_MS : !isProcessRunning(owner)
    if (abandoned) await rm(dir, { recursive: true, force: true })
  }
}
