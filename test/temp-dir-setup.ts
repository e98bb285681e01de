// The run's own temp directory: every worker, and every process a test starts, gets it as TMPDIR,
// so whatever a test leaves behind is found there. At the end of the run it is removed, and the
// run fails when a test left a taxatlas-* folder in it: tests remove what they create, also when
// they fail. The shared snapshot cache lives in it too (cache/, not a taxatlas-* folder).
import { chmod, mkdir, mkdtemp, readdir, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'

export default async function setup() {
  const runDir = await mkdtemp(path.join(os.tmpdir(), 'taxatlas-test-run-'))
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
