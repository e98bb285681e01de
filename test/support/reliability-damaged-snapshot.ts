// Snapshots damaged in ways a checksum does not catch: bytes of one section of an index changed,
// and the manifest's size and sha256 written for the changed file, as a faulty compiler (or
// someone editing the file and its manifest) would publish it. The sections are found through the
// container's own directory (snapshot-contract/format.ts).
import { cp, readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { sha256Hex, writeAtomically } from '../../snapshot-contract/file-bytes.ts'
import { DIRECTORY_ENTRY_SIZE, HEADER_SIZE } from '../../snapshot-contract/format.ts'
import type { Manifest } from '../../snapshot-contract/manifest.ts'
import { pointerPath, snapshotDir, type IndexFile } from '../../snapshot-contract/snapshot-store.ts'

export type SectionExtent = { offset: number; count: number; length: number }

/** Where a section's payload lies in an index file. */
export function sectionExtent(bytes: Uint8Array, name: string): SectionExtent {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const count = view.getUint32(12, true)
  for (let i = 0; i < count; i++) {
    const entry = HEADER_SIZE + i * DIRECTORY_ENTRY_SIZE
    const entryName = Buffer.from(bytes.buffer, bytes.byteOffset + entry, 16).toString('latin1').replace(/\0+$/, '')
    if (entryName === name) return { count: view.getUint32(entry + 20, true), offset: view.getUint32(entry + 24, true), length: view.getUint32(entry + 28, true) }
  }
  throw new Error(`no section ${name}`)
}

/** One u32 of a section, changed: `change` gets the bytes and the value's position and returns the new value. */
export type Damage = { file: IndexFile; section: string; change: (bytes: Buffer, at: (row: number) => number) => void }

/** Publishes `fromId`'s files as `newId` with `damage` done to one index and the manifest made to match it, and moves CURRENT to it. */
export async function publishDamaged(artifactsDir: string, fromId: string, newId: string, damage: Damage): Promise<void> {
  const target = snapshotDir(artifactsDir, newId)
  await cp(snapshotDir(artifactsDir, fromId), target, { recursive: true })
  const file = path.join(target, damage.file)
  const bytes = await readFile(file)
  const extent = sectionExtent(bytes, damage.section)
  const width = extent.count === 0 ? 4 : extent.length / extent.count
  damage.change(bytes, (row) => extent.offset + row * width)
  await writeFile(file, bytes)
  const manifestFile = path.join(target, 'manifest.json')
  const manifest = JSON.parse(await readFile(manifestFile, 'utf8')) as Manifest
  const files = manifest.files.map((f) => (f.name === damage.file ? { ...f, size: bytes.length, sha256: sha256Hex(bytes) } : f))
  await writeFile(manifestFile, JSON.stringify({ ...manifest, snapshot: newId, files }, null, 2))
  await writeAtomically(pointerPath(artifactsDir), `${newId}\n`)
}
