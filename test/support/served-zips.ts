// The real ZIPs a snapshot serves, by state, read from its rates.bin. Free of vitest hooks, so the
// bench (a script outside vitest) reads them too.
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { RateIndex } from '../../snapshot-contract/rate-index.ts'
import { readCurrentId, snapshotDir } from '../../snapshot-contract/snapshot-store.ts'

/** Every ZIP the snapshot serves, by state (a straddling ZIP under each of its states). */
export async function servedZips(artifactsDir: string): Promise<Map<string, string[]>> {
  const id = await readCurrentId(artifactsDir)
  if (!id) throw new Error(`no snapshot in ${artifactsDir}`)
  const index = new RateIndex(new Uint8Array(await readFile(path.join(snapshotDir(artifactsDir, id), 'rates.bin'))))
  const byState = new Map<string, string[]>()
  for (let i = 0; i < index.zipEntryCount; i++) {
    const entry = index.entryAt(i)
    if (!byState.has(entry.state)) byState.set(entry.state, [])
    byState.get(entry.state)!.push(entry.zip)
  }
  return byState
}
