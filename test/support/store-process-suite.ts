// The setup of test files that run the server as its own process on a DuckDB store of their own:
// the portability snapshot and a temp folder made before the file's tests (with, on request, a
// small disk of its own: a tmpfs mounted in it, to be filled up while a server runs; the tests run
// as root), and after them every server started killed (kill -9), the disk unmounted and both
// folders removed, whether the tests passed or failed.
import { mkdir, mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { execa } from 'execa'
import { afterAll, beforeAll, inject } from 'vitest'
import { portabilityArtifacts } from './portability-snapshot.ts'
import { startServerProcess, type ServerProcess } from './reliability-server-process.ts'

export type StoreProcessSuite = {
  /** the artifacts directory holding the portability snapshot (once the file's beforeAll ran) */
  readonly artifactsDir: string
  /** the file's `taxatlas-<label>-*` temp folder (once the file's beforeAll ran) */
  readonly tmp: string
  /** the small disk's mount point, `<tmp>/disk` (with `smallDisk`) */
  readonly disk: string
  /** a server on `storePath`, with `env` over the suite's */
  start(storePath: string, options?: { env?: Record<string, string>; waitForStore?: boolean; stdoutFile?: string }): Promise<ServerProcess>
}

/** `smallDisk`: the size of a tmpfs to mount at `<tmp>/disk`, as tmpfs takes it ("256k", "96m"). */
export function storeProcessSuite(label: string, env: Record<string, string> = {}, options: { smallDisk?: string } = {}): StoreProcessSuite {
  let artifactsDir = ''
  let tmp = ''
  let disk = ''
  const servers: ServerProcess[] = []
  beforeAll(async () => {
    artifactsDir = await portabilityArtifacts(inject('mirrorUrl'))
    tmp = await mkdtemp(path.join(os.tmpdir(), `taxatlas-${label}-`))
    if (options.smallDisk) {
      await mkdir(path.join(tmp, 'disk'))
      await execa('mount', ['-t', 'tmpfs', '-o', `size=${options.smallDisk}`, 'tmpfs', path.join(tmp, 'disk')])
      disk = path.join(tmp, 'disk')
    }
  })
  afterAll(async () => {
    for (const server of servers) await server.kill9()
    if (disk) await execa('umount', [disk], { reject: false })
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
    get disk() {
      return disk
    },
    async start(storePath, options = {}) {
      const server = await startServerProcess({ ...options, artifactsDir, storePath, env: { ...env, ...options.env } })
      servers.push(server)
      return server
    },
  }
}
