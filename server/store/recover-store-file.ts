// `admin recover-store`: puts back the store file (and its write-ahead log) a running server still
// holds open after they were removed or replaced at their path (store_file_lost). The server's
// open descriptors, under /proc/<pid>/fd, still reach the data; each is copied whole to a new file
// beside the path, synced, and renamed into place. A file found at the path in its stead is moved
// aside, never deleted. The server keeps refusing writes meanwhile (it has refused every write
// since the loss, so the copy is whole), and at its next shutdown keeps the log rather than
// checkpointing it into the file it no longer owns (database.ts): the next start opens the copy
// and replays the log, losing nothing acknowledged.
import { closeSync, copyFileSync, fsyncSync, mkdirSync, openSync, readdirSync, readlinkSync, renameSync, statSync } from 'node:fs'
import path from 'node:path'
import { identityOf, sameFile } from './file-identity.ts'

export type RecoveredFile = { file: string; outcome: 'restored' | 'in_place' | 'not_open'; displaced?: string }

const DELETED = ' (deleted)'

/** The descriptor of `pid` open on what was `file` (removed since, or not), if any. */
function openDescriptor(pid: number, file: string): string | null {
  const dir = `/proc/${pid}/fd`
  for (const fd of readdirSync(dir)) {
    let target: string
    try {
      target = readlinkSync(path.join(dir, fd))
    } catch {
      continue
    }
    if (target === file || target === `${file}${DELETED}`) return path.join(dir, fd)
  }
  return null
}

function syncFile(file: string): void {
  const fd = openSync(file, 'r')
  try {
    fsyncSync(fd)
  } finally {
    closeSync(fd)
  }
}

function recoverOne(pid: number, file: string, stamp: string): RecoveredFile {
  const descriptor = openDescriptor(pid, file)
  if (descriptor === null) return { file, outcome: 'not_open' }
  const opened = statSync(descriptor)
  if (sameFile({ dev: opened.dev, ino: opened.ino }, identityOf(file))) return { file, outcome: 'in_place' }
  mkdirSync(path.dirname(file), { recursive: true })
  const copy = `${file}.recovering-${pid}`
  copyFileSync(descriptor, copy)
  syncFile(copy)
  let displaced: string | undefined
  if (identityOf(file) !== null) {
    displaced = `${file}.displaced-${stamp}`
    renameSync(file, displaced)
  }
  renameSync(copy, file)
  syncFile(path.dirname(file))
  return { file, outcome: 'restored', ...(displaced ? { displaced } : {}) }
}

/** Restores the store file and its log from the server `pid`'s open descriptors where they are not in place. */
export function recoverStoreFile(storePath: string, pid: number, now: number): RecoveredFile[] {
  const stamp = new Date(now).toISOString().replace(/[:.]/g, '-')
  const file = path.resolve(storePath)
  return [file, `${file}.wal`].map((one) => recoverOne(pid, one, stamp))
}
