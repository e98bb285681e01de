// Which file a path names: its device and inode. A file removed, or replaced by another one
// (restored from a copy, moved over, a volume mounted again with other contents), no longer has
// the identity it had when it was opened, although a process holding it open still reads and
// writes the old one.
import { statSync } from 'node:fs'

export type FileIdentity = { readonly dev: number; readonly ino: number }

/** The identity of the file at `file` now; null when there is none. */
export function identityOf(file: string): FileIdentity | null {
  try {
    const { dev, ino } = statSync(file)
    return { dev, ino }
  } catch {
    return null
  }
}

export const sameFile = (a: FileIdentity | null, b: FileIdentity | null): boolean => a !== null && b !== null && a.dev === b.dev && a.ino === b.ino

/** What is at the path compared with the file opened: `missing` (removed or moved away) or `replaced` (another file). */
export type IdentityChange = 'missing' | 'replaced'

export function changeOf(opened: FileIdentity, now: FileIdentity | null): IdentityChange | null {
  if (now === null) return 'missing'
  return sameFile(opened, now) ? null : 'replaced'
}
