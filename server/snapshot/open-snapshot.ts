// One published snapshot, opened for serving: the verified bytes of each index with typed-array
// readers laid over them, and the freshness body precomputed. Immutable once built, so a request
// that captured it keeps a consistent view however many swaps happen meanwhile.
import { loadSnapshot, SnapshotError } from '../../snapshot-contract/snapshot-store.ts'
import { freshnessEnvelope, type Manifest } from '../../snapshot-contract/manifest.ts'
import { PlaceIndex } from '../../snapshot-contract/place-index.ts'
import { RateIndex } from '../../snapshot-contract/rate-index.ts'
import { ShapeIndex } from '../../snapshot-contract/shape-index.ts'
import { etagOf } from '../base/etag.ts'

export type Snapshot = {
  readonly id: string
  /** where this snapshot and its predecessors are published (history lookups open earlier ones) */
  readonly artifactsDir: string
  /** ISO timestamp of when this process loaded it */
  readonly loadedAt: string
  readonly manifest: Manifest
  /** spec 2.5 envelope, serialized once, with its ETag */
  readonly freshness: { readonly body: string; readonly etag: string }
  readonly rates: RateIndex
  readonly places: PlaceIndex
  readonly shapes: ShapeIndex
}

/** Loads and verifies (size + sha256 per file, via the pipeline's loader) and opens the readers. */
export async function openSnapshot(artifactsDir: string, id: string, now: number): Promise<Snapshot> {
  const loaded = await loadSnapshot(artifactsDir, id)
  if (loaded.manifest.snapshot !== id) {
    throw new SnapshotError(`snapshot ${id}: manifest.json names snapshot ${loaded.manifest.snapshot}`)
  }
  const files = loaded.files
  const body = JSON.stringify(freshnessEnvelope(loaded.manifest))
  return Object.freeze({
    id,
    artifactsDir,
    loadedAt: new Date(now).toISOString(),
    manifest: loaded.manifest,
    freshness: Object.freeze({ body, etag: etagOf(body) }),
    rates: new RateIndex(aligned(files['rates.bin']), `${id}/rates.bin`),
    places: new PlaceIndex(aligned(files['places.bin']), `${id}/places.bin`),
    shapes: new ShapeIndex(aligned(files['shapes.bin']), `${id}/shapes.bin`),
  })
}

/** Typed-array views need 8-byte alignment; a small file may sit at an odd offset in a shared pool. */
export function aligned(bytes: Buffer): Uint8Array {
  if (bytes.byteOffset % 8 === 0) return bytes
  const copy = new Uint8Array(new ArrayBuffer(bytes.length))
  copy.set(bytes)
  return copy
}
