// Published snapshots on disk:
//   <artifacts>/snapshots/<id>/{rates.bin, places.bin, shapes.bin, manifest.json, freshness.json}
//   <artifacts>/CURRENT          the id of the snapshot in service (replaced atomically)
// A snapshot directory is written under a temporary name and renamed into place whole; the
// pointer moves only after that, so a reader never sees a half-published snapshot.
import { existsSync } from 'node:fs'
import { mkdir, open, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { sha256Hex, sha256HexOffThread, writeAtomically } from './file-bytes.ts'
import { FORMAT_VERSION } from './format.ts'
import { Manifest, freshnessEnvelope, type HistoryLayer } from './manifest.ts'

export const INDEX_FILES = ['rates.bin', 'places.bin', 'shapes.bin'] as const
export type IndexFile = (typeof INDEX_FILES)[number]

export const snapshotsDir = (artifactsDir: string) => path.join(artifactsDir, 'snapshots')
export const snapshotDir = (artifactsDir: string, id: string) => path.join(snapshotsDir(artifactsDir), id)
export const pointerPath = (artifactsDir: string) => path.join(artifactsDir, 'CURRENT')

export class SnapshotError extends Error {}

/** The id CURRENT names; null when it is missing or empty. Any other failure to read it (no file descriptor left, no permission) throws: it says nothing about the pointer. */
export async function readCurrentId(artifactsDir: string): Promise<string | null> {
  const text = await readFile(pointerPath(artifactsDir), 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return null
    throw error
  })
  const id = text?.trim()
  return id ? id : null
}

export async function listSnapshotIds(artifactsDir: string): Promise<string[]> {
  const names = await readdir(snapshotsDir(artifactsDir)).catch(() => [] as string[])
  return names.filter((name) => !name.includes('.tmp-')).sort()
}

export type LoadedSnapshot = {
  id: string
  manifest: Manifest
  files: Record<IndexFile, Buffer>
}

/**
 * Reads a snapshot and checks every index file's size and sha256 against its manifest (the older
 * editions' files are checked one by one where they are read: `readSnapshotFile`).
 */
export async function loadSnapshot(artifactsDir: string, id: string): Promise<LoadedSnapshot> {
  const { verified, ...loaded } = await readSnapshot(artifactsDir, id)
  await verified
  return loaded
}

/**
 * A snapshot whose files are read, their sizes checked, and their sha256 still being computed (off
 * the event loop): `verified` settles once every file is checked, rejecting with the first failure
 * in the order `loadSnapshot` checks them. Nothing read from `files` may be used before it resolves,
 * and it must always be awaited.
 */
export type ReadSnapshot = LoadedSnapshot & { verified: Promise<void> }

/**
 * `loadSnapshot` with the hashing left running: a reader can lay its own checks over the bytes
 * while they are hashed. The index files are read while the manifest is parsed.
 */
export async function readSnapshot(artifactsDir: string, id: string): Promise<ReadSnapshot> {
  const dir = snapshotDir(artifactsDir, id)
  const reads = new Map(INDEX_FILES.map((name) => [name, settled(readFile(path.join(dir, name)))]))
  const manifestText = await readFile(path.join(dir, 'manifest.json'), 'utf8').catch(() => {
    throw new SnapshotError(`snapshot ${id}: manifest.json is missing`)
  })
  const parsed = Manifest.safeParse(JSON.parse(manifestText))
  if (!parsed.success) throw new SnapshotError(`snapshot ${id}: manifest.json is invalid: ${parsed.error.message}`)
  const manifest = parsed.data
  if (manifest.format_version !== FORMAT_VERSION) {
    throw new SnapshotError(`snapshot ${id}: format version ${manifest.format_version}, this build reads ${FORMAT_VERSION}`)
  }
  const files = {} as Record<IndexFile, Buffer>
  // Each file's check as it finishes, in the order they are reported: never rejecting, so none is left unhandled meanwhile.
  const faults: Promise<unknown>[] = []
  for (const name of INDEX_FILES) {
    const expected = manifest.files.find((file) => file.name === name)
    const read = await reads.get(name)!
    const problem = !expected ? `manifest does not list ${name}` : 'error' in read ? `${name} is missing` : sizeProblem(read.value, expected)
    if (problem) {
      // A file before it that does not verify is the reason given, as when each file is checked in turn.
      throw (await firstFault(faults)) ?? new SnapshotError(`snapshot ${id}: ${problem}`)
    }
    const bytes = (read as { value: Buffer }).value
    files[name] = bytes
    faults.push(faultOf(checkHash(id, bytes, expected!)))
  }
  const verified = firstFault(faults).then((fault) => (fault ? Promise.reject(fault) : undefined))
  // Handled here too, so a caller that fails before awaiting it leaves no unhandled rejection behind.
  verified.catch(() => undefined)
  return { id, manifest, files, verified }
}

/** One file of a snapshot, checked against the size and sha256 its manifest lists. */
export async function readSnapshotFile(artifactsDir: string, id: string, expected: { name: string; size: number; sha256: string }): Promise<Buffer> {
  const { name } = expected
  const bytes = await readFile(path.join(snapshotDir(artifactsDir, id), name)).catch(() => {
    throw new SnapshotError(`snapshot ${id}: ${name} is missing`)
  })
  const problem = sizeProblem(bytes, expected)
  if (problem) throw new SnapshotError(`snapshot ${id}: ${problem}`)
  await checkHash(id, bytes, expected)
  return bytes
}

function sizeProblem(bytes: Buffer, expected: { name: string; size: number }): string | null {
  return bytes.length === expected.size ? null : `${expected.name} is ${bytes.length} bytes, manifest says ${expected.size}`
}

async function checkHash(id: string, bytes: Buffer, expected: { name: string; sha256: string }): Promise<void> {
  const digest = await sha256HexOffThread(bytes)
  if (digest !== expected.sha256) throw new SnapshotError(`snapshot ${id}: ${expected.name} sha256 ${digest} does not match the manifest`)
}

/** A promise that never rejects: its value, or the error it failed with. */
function settled<T>(promise: Promise<T>): Promise<{ value: T } | { error: unknown }> {
  return promise.then((value) => ({ value }), (error: unknown) => ({ error }))
}

/** The error a check failed with, or null: it never rejects. */
function faultOf(check: Promise<unknown>): Promise<unknown> {
  return check.then(() => null, (error: unknown) => error)
}

async function firstFault(faults: readonly Promise<unknown>[]): Promise<unknown> {
  for (const fault of faults) {
    const error = await fault
    if (error) return error
  }
  return null
}

export async function loadCurrentSnapshot(artifactsDir: string): Promise<LoadedSnapshot | null> {
  const id = await readCurrentId(artifactsDir)
  return id ? loadSnapshot(artifactsDir, id) : null
}

/** An older edition's rates index, published beside the index files (Manifest.history). */
export type HistoryFile = { layer: Omit<HistoryLayer, 'file'>; name: string; bytes: Buffer }

/** Writes the index files, history layers and manifest into a new snapshot directory, then moves the pointer. */
export async function publishSnapshot(
  artifactsDir: string,
  manifest: Omit<Manifest, 'files' | 'history' | 'history_keys'> & Partial<Pick<Manifest, 'history_keys'>>,
  files: Record<IndexFile, Buffer>,
  history: readonly HistoryFile[] = [],
): Promise<Manifest> {
  const finalDir = snapshotDir(artifactsDir, manifest.snapshot)
  if (existsSync(finalDir)) throw new SnapshotError(`snapshot ${manifest.snapshot} already exists`)
  const temporary = `${finalDir}.tmp-${process.pid}`
  await rm(temporary, { recursive: true, force: true })
  await mkdir(temporary, { recursive: true })
  const listed = (name: string, bytes: Buffer) => ({ name, size: bytes.length, sha256: sha256Hex(bytes) })
  const complete: Manifest = {
    ...manifest,
    files: INDEX_FILES.map((name) => listed(name, files[name])),
    history: history.map(({ layer, name, bytes }) => ({ ...layer, file: listed(name, bytes) })),
    history_keys: manifest.history_keys ?? {},
  }
  for (const name of INDEX_FILES) await writeDurably(path.join(temporary, name), files[name])
  for (const { name, bytes } of history) await writeDurably(path.join(temporary, name), bytes)
  await writeDurably(path.join(temporary, 'manifest.json'), `${JSON.stringify(complete, null, 2)}\n`)
  await writeDurably(path.join(temporary, 'freshness.json'), `${JSON.stringify(freshnessEnvelope(complete), null, 2)}\n`)
  // Snapshot ids are the times their runs started: a run that started earlier never replaces a later one's.
  const current = await readCurrentId(artifactsDir)
  if (current !== null && current > manifest.snapshot) {
    await rm(temporary, { recursive: true, force: true })
    throw new SnapshotError(`snapshot ${manifest.snapshot} was not put in service: CURRENT names ${current}, published by a run that started later`)
  }
  await rename(temporary, finalDir)
  await writeAtomically(pointerPath(artifactsDir), `${manifest.snapshot}\n`)
  return complete
}

async function writeDurably(file: string, data: string | Uint8Array) {
  await writeFile(file, data)
  const handle = await open(file, 'r')
  await handle.sync().finally(() => handle.close())
}

/** Removes snapshot directories left half-written by a run that was killed. */
export async function removeAbandonedSnapshots(artifactsDir: string): Promise<string[]> {
  const names = await readdir(snapshotsDir(artifactsDir)).catch(() => [] as string[])
  const abandoned = names.filter((name) => {
    const pid = Number(/\.tmp-(\d+)$/.exec(name)?.[1])
    return Number.isInteger(pid) && !isProcessRunning(pid)
  })
  for (const name of abandoned) await rm(path.join(snapshotsDir(artifactsDir), name), { recursive: true, force: true })
  return abandoned
}

export function isProcessRunning(pid: number): boolean {
  if (pid === process.pid) return true
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}
