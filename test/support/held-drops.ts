// A drop directory (TAXATLAS_DROPS) holding part of the shared drops, laid out as they are. A
// refresh builds history layers from every drop held, for every state: a test about a few states
// that holds only their drops gets the same data and history for them and skips compiling the
// other states' tables (most of a first refresh's work).
import { copyFile, mkdir, readdir, symlink } from 'node:fs/promises'
import path from 'node:path'
import { sharedPath } from './shared.ts'
import { tempDir } from './temp-dirs.ts'

const DROP_NAME = /^TAXRATES_ZIP5_([A-Z]{2})(\d{6})\.csv$/i

/**
 * A new drop directory (removed after the test file) with the shared drops of `states` (a
 * comma-separated list, as TAXATLAS_STATES) of every edition, or of `editions` only; symlinks,
 * or copies (`copy`) for a test that rewrites a drop.
 */
export async function heldDrops(states: string, options: { editions?: string[]; copy?: boolean } = {}): Promise<string> {
  const wanted = new Set(states.toUpperCase().split(','))
  const root = sharedPath('drops')
  const dir = await tempDir('drops')
  for (const name of (await readdir(root, { recursive: true })).sort()) {
    const match = DROP_NAME.exec(path.basename(name))
    if (!match || !wanted.has(match[1]!.toUpperCase()) || (options.editions && !options.editions.includes(match[2]!))) continue
    await mkdir(path.join(dir, path.dirname(name)), { recursive: true })
    await (options.copy ? copyFile : symlink)(path.join(root, name), path.join(dir, name))
  }
  return dir
}
