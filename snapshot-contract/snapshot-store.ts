// Published snapshots on disk:
//   <artifacts>/snapshots/<id>/{rates.bin, places.bin, shapes.bin, manifest.json, freshness.json}
//   <artifacts>/CURRENT          the id of the snapshot in service (replaced atomically)
// A snapshot directory is written under a temporary name and renamed into place whole; the
// pointer moves only after that, so a reader never sees a half-published snapshot.
import { existsSync } from 'node:fs'
import { mkdir, open, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { sha256Hex, writeAtomically } from './file-bytes.ts'
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
 * Reads a snapshot and checks every index file's size and sha256 against its manifest; with
 * `history`, the older editions' files too (read, checked and let go: they are opened on demand).
 */
export async function loadSnapshot(artifactsDir: string, id: string, options: { history?: boolean } = {}): Promise<LoadedSnapshot> {
  const dir = snapshotDir(artifactsDir, id)
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
  for (const name of INDEX_FILES) {
    const expected = manifest.files.find((file) => file.name === name)
    if (!expected) throw new SnapshotError(`snapshot ${id}: manifest does not list ${name}`)
    files[name] = await readSnapshotFile(artifactsDir, id, expected)
  }
  if (options.history) for (const layer of manifest.history) await readSnapshotFile(artifactsDir, id, layer.file)
  return { id, manifest, files }
}

/** One file of a snapshot, checked against the size and sha256 its manifest lists. */
export async function readSnapshotFile(artifactsDir: string, id: string, expected: { name: string; size: number; sha256: string }): Promise<Buffer> {
  const { name } = expected
  const bytes = await readFile(path.join(snapshotDir(artifactsDir, id), name)).catch(() => {
    throw new SnapshotError(`snapshot ${id}: ${name} is missing`)
  })
  if (bytes.length !== expected.size) {
    throw new SnapshotError(`snapshot ${id}: ${name} is ${bytes.length} bytes, manifest says ${expected.size}`)
  }
  const digest = sha256Hex(bytes)
  if (digest !== expected.sha256) {
    throw new SnapshotError(`snapshot ${id}: ${name} sha256 ${digest} does not match the manifest`)
  }
  return bytes
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
