// Keeps a small disk (a tmpfs of a test's own) as full as a test needs: one filler file, grown or
// shrunk so that a given number of bytes stays free while the files beside it grow.
import { appendFile, stat, statfs, truncate } from 'node:fs/promises'
import path from 'node:path'

/** The filler file on `disk`; removing it frees the disk. */
export const fillerOf = (disk: string) => path.join(disk, 'filler')

/** Resizes the filler so that `free` bytes are left on `disk` (in whole pages). */
export async function leaveFree(disk: string, free: number): Promise<void> {
  const { bavail, bsize } = await statfs(disk)
  const change = Math.floor((bavail * bsize - free) / 4096) * 4096
  const filler = fillerOf(disk)
  if (change > 0) await appendFile(filler, Buffer.alloc(change))
  else if (change < 0) await truncate(filler, Math.max(0, (await stat(filler)).size + change))
}
