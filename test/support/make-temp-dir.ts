// A new temporary folder, without vitest hooks: scripts outside vitest (bench, soak) use it as it
// is, and support/temp-dirs.ts adds the removal after a test file's tests.
import { mkdtemp } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'

/** A new `taxatlas-<label>-*` folder under the temp directory; the caller removes it. */
export const makeTempDir = (label: string) => mkdtemp(path.join(os.tmpdir(), `taxatlas-${label}-`))
