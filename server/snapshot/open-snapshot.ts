// One published snapshot, opened for serving: the verified bytes of each index with typed-array
// readers laid over them, and the freshness body precomputed. Immutable once built, so a request
// that captured it keeps a consistent view however many swaps happen meanwhile.
import { sha256Hex } from '../../snapshot-contract/file-bytes.ts'
import { INDEX_FILES, readSnapshot, SnapshotError, type IndexFile, type LoadedSnapshot } from '../../snapshot-contract/snapshot-store.ts'
import { freshnessEnvelope, type Manifest } from '../../snapshot-contract/manifest.ts'
import { PlaceIndex } from '../../snapshot-contract/place-index.ts'
import { RateIndex } from '../../snapshot-contract/rate-index.ts'
import { ShapeIndex } from '../../snapshot-contract/shape-index.ts'
import { etagOf } from '../base/etag.ts'
import { DerivedViews } from './derived-views.ts'

export type Snapshot = {
  readonly id: string
  /** where this snapshot and its predecessors are published (history lookups open earlier ones) */
  readonly artifactsDir: string
  /** ISO timestamp of when this process loaded it */
  readonly loadedAt: string
  readonly manifest: Manifest
  /** api.md "GET /v1/freshness" envelope, serialized once, with its ETag */
  readonly freshness: { readonly body: string; readonly etag: string }
  readonly rates: RateIndex
  readonly places: PlaceIndex
  readonly shapes: ShapeIndex
  /** the bytes the readers are laid over, kept to verify them again (`servedBytesFault`) */
  readonly files: Readonly<Record<IndexFile, Uint8Array>>
  /** what requests derive from it, built on first use and dropped with it (derived-views.ts) */
  readonly derived: DerivedViews
}

/**
 * Loads and verifies (size + sha256 per file, via the contract's loader) and opens the readers,
 * which check every offset between their sections: damaged bytes are a SnapshotError or a
 * FormatError here, never a wrong answer later. The readers' checks run while the files are hashed
 * on libuv's threads; a file that does not verify is the reason given, before any reader's.
 */
export async function openSnapshot(artifactsDir: string, id: string, now: number): Promise<Snapshot> {
  const read = await readSnapshot(artifactsDir, id, { history: true })
  let opened: Snapshot | null = null
  let readerFault: unknown = null
  try {
    opened = openReaders(read, artifactsDir, now)
  } catch (error) {
    readerFault = error
  }
  await read.verified
  if (!opened) throw readerFault
  return opened
}

function openReaders(loaded: LoadedSnapshot, artifactsDir: string, now: number): Snapshot {
  const { id } = loaded
  if (loaded.manifest.snapshot !== id) {
    throw new SnapshotError(`snapshot ${id}: manifest.json names snapshot ${loaded.manifest.snapshot}`)
  }
  const files = { 'rates.bin': aligned(loaded.files['rates.bin']), 'places.bin': aligned(loaded.files['places.bin']), 'shapes.bin': aligned(loaded.files['shapes.bin']) }
  const body = JSON.stringify(freshnessEnvelope(loaded.manifest))
  return Object.freeze({
    id,
    artifactsDir,
    loadedAt: new Date(now).toISOString(),
    manifest: loaded.manifest,
    freshness: Object.freeze({ body, etag: etagOf(body) }),
    rates: new RateIndex(files['rates.bin'], `${id}/rates.bin`),
    places: new PlaceIndex(files['places.bin'], `${id}/places.bin`),
    shapes: new ShapeIndex(files['shapes.bin'], `${id}/shapes.bin`),
    files: Object.freeze(files),
    derived: new DerivedViews(),
  })
}

/** The first served index whose bytes in memory no longer hash to the manifest's sha256, or null. */
export function servedBytesFault(snapshot: Snapshot): string | null {
  for (const name of INDEX_FILES) {
    const expected = snapshot.manifest.files.find((file) => file.name === name)?.sha256
    if (sha256Hex(snapshot.files[name]) !== expected) return `${name} in memory no longer matches its sha256 in the manifest`
  }
  return null
}

/** Typed-array views need 8-byte alignment; a small file may sit at an odd offset in a shared pool. */
export function aligned(bytes: Buffer): Uint8Array {
  if (bytes.byteOffset % 8 === 0) return bytes
  const copy = new Uint8Array(new ArrayBuffer(bytes.length))
  copy.set(bytes)
  return copy
}
