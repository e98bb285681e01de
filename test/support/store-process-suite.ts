// The setup of test files that run the server as its own process on a DuckDB store of their own:
// the portability snapshot and a temp folder made before the file's tests, and after them every
// server started killed (kill -9) and both folders removed, whether the tests passed or failed.
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, inject } from 'vitest'
import { portabilityArtifacts } from './portability-snapshot.ts'
import { startServerProcess, type ServerProcess } from './reliability-server-process.ts'

export type StoreProcessSuite = {
  /** the artifacts directory holding the portability snapshot (once the file's beforeAll ran) */
  readonly artifactsDir: string
  /** the file's `taxatlas-<label>-*` temp folder (once the file's beforeAll ran) */
  readonly tmp: string
  /** a server on `storePath`, with `env` over the suite's */
  start(storePath: string, options?: { env?: Record<string, string>; waitForStore?: boolean }): Promise<ServerProcess>
}

export function storeProcessSuite(label: string, env: Record<string, string> = {}): StoreProcessSuite {
  let artifactsDir = ''
  let tmp = ''
  const servers: ServerProcess[] = []
  beforeAll(async () => {
    artifactsDir = await portabilityArtifacts(inject('mirrorUrl'))
    tmp = await mkdtemp(path.join(os.tmpdir(), `taxatlas-${label}-`))
  })
  afterAll(async () => {
    for (const server of servers) await server.kill9()
    if (tmp) await rm(tmp, { recursive: true, force: true })
    if (artifactsDir) await rm(artifactsDir, { recursive: true, force: true })
  })
  return {
    get artifactsDir() {
      return artifactsDir
    },
    get tmp() {
      return tmp
    },
    async start(storePath, options = {}) {
      const server = await startServerProcess({ artifactsDir, storePath, env: { ...env, ...options.env }, waitForStore: options.waitForStore })
      servers.push(server)
      return server
    },
  }
}
