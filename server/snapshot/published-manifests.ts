// The manifests of published snapshots in one artifacts directory, read on demand and kept: a
// published snapshot never changes. One that cannot be read or is not valid is absent (null).
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { Manifest } from '../../snapshot-contract/manifest.ts'
import { snapshotDir } from '../../snapshot-contract/snapshot-store.ts'

export class PublishedManifests {
  readonly #read = new Map<string, Promise<Manifest | null>>()

  constructor(readonly artifactsDir: string) {}

  of(id: string): Promise<Manifest | null> {
    let manifest = this.#read.get(id)
    if (!manifest) {
      manifest = readFile(path.join(snapshotDir(this.artifactsDir, id), 'manifest.json'), 'utf8')
        .then((text) => Manifest.safeParse(JSON.parse(text)))
        .then((parsed) => (parsed.success ? parsed.data : null))
        .catch(() => null)
      this.#read.set(id, manifest)
    }
    return manifest
  }
}
