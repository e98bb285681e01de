// Which other process holds a lock on a file, read from the kernel's lock table (/proc/locks on
// Linux): how a store that fails to open is told apart as locked by another process (another
// server, the admin command, a backup tool) rather than damaged, without reading the words of
// the database's message. Null where there is no such table, or no other process holds a lock.
import { readFileSync, statSync } from 'node:fs'

// Linux's encoding of a device number (the kernel's new_encode_dev).
const major = (dev: number) => Number(((BigInt(dev) >> 8n) & 0xfffn) | ((BigInt(dev) >> 32n) & ~0xfffn))
const minor = (dev: number) => Number((BigInt(dev) & 0xffn) | ((BigInt(dev) >> 12n) & ~0xffn))

/** The pid of another process holding a lock on `file`, or null. */
export function lockHolder(file: string, locksTable = '/proc/locks'): number | null {
  let table: string
  let dev: number
  let ino: number
  try {
    ;({ dev, ino } = statSync(file))
    table = readFileSync(locksTable, 'utf8')
  } catch {
    return null
  }
  // "1: POSIX  ADVISORY  WRITE 22499 fe:00:2147943 0 EOF" (a blocked request's line has "->" after its number)
  const device = `${major(dev).toString(16).padStart(2, '0')}:${minor(dev).toString(16).padStart(2, '0')}:${ino}`
  for (const line of table.split('\n')) {
    const fields = line.replace(/^\d+:\s+(->\s+)?/, '').split(/\s+/)
    if (fields[4] !== device) continue
    const pid = Number(fields[3])
    if (Number.isInteger(pid) && pid !== process.pid) return pid
  }
  return null
}
