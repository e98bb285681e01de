// The client package as `npm pack` in client/ makes it (its prepack builds client/dist first), for
// tests that install it. Packs run one at a time: each rebuilds client/dist.
import { mkdir, mkdtemp, rm, stat } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { setTimeout } from 'node:timers/promises'
import { execa } from 'execa'
import { PROJECT_ROOT } from './shared.ts'

export type PackedClient = {
  /** the .tgz file */
  tarball: string
  /** its size in bytes */
  size: number
  /** the paths inside the package */
  files: string[]
  dispose: () => Promise<void>
}

const LOCK = path.join(os.tmpdir(), 'taxatlas-client-pack.lock')
const STALE_LOCK_MS = 5 * 60_000

export async function packClient(): Promise<PackedClient> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'taxatlas-client-pack-'))
  while (!(await mkdir(LOCK).then(() => true, () => false))) {
    const age = Date.now() - ((await stat(LOCK).catch(() => null))?.mtimeMs ?? Date.now())
    if (age > STALE_LOCK_MS) await rm(LOCK, { recursive: true, force: true })
    await setTimeout(250)
  }
  try {
    const { stdout } = await execa('npm', ['pack', '--json', '--pack-destination', dir], { cwd: path.join(PROJECT_ROOT, 'client') })
    const [info] = JSON.parse(stdout) as { filename: string; size: number; files: { path: string }[] }[]
    return {
      tarball: path.join(dir, info.filename),
      size: info.size,
      files: info.files.map((file) => file.path),
      dispose: () => rm(dir, { recursive: true, force: true }),
    }
  } finally {
    await rm(LOCK, { recursive: true, force: true })
  }
}
