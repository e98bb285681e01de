// Temporary folders of a test file, and the run's cache. A folder made by tempDir is removed after
// the file's tests, whether they passed or failed; the run's cache (snapshots built once and
// shared by the test files) is removed with the run's temp directory (test/temp-dir-setup.ts).
import { rm } from 'node:fs/promises'
import path from 'node:path'
import { afterAll } from 'vitest'
import { makeTempDir } from './make-temp-dir.ts'

const made: string[] = []

afterAll(async () => {
  await Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true })))
})

/** A new `taxatlas-<label>-*` folder under the temp directory, removed after this file's tests. */
export async function tempDir(label: string): Promise<string> {
  const dir = await makeTempDir(label)
  made.push(dir)
  return dir
}

/** The folder this run's test files share built snapshots in (`name` below it); gone when the run ends. */
export function runCacheDir(name: string): string {
  const root = process.env.TAXATLAS_TEST_RUN_CACHE
  if (!root) throw new Error('TAXATLAS_TEST_RUN_CACHE is unset: run the tests through vitest (test/temp-dir-setup.ts sets it)')
  return path.join(root, name)
}
