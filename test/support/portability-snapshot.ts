// A real snapshot for the portability tests and bench: the pipeline run against the test mirror
// for GA (sales_or_transactions), CT (sales_and_transactions), DE (no sales tax) and MA
// (sales_only), built once per mirror and copied per test file. Also the real ZIPs it serves, so
// generated transactions pass the ZIP/state check.
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { RateIndex } from '../../snapshot-contract/rate-index.ts'
import { readCurrentId, snapshotDir } from '../../snapshot-contract/snapshot-store.ts'
import { copyOfCachedArtifacts } from './server-snapshot.ts'

export const PORTABILITY_STATES = 'GA,CT,DE,MA'

/** A temp artifacts directory with CURRENT pointing at a copy of the cached snapshot. */
export const portabilityArtifacts = (mirrorUrl: string): Promise<string> =>
  copyOfCachedArtifacts(mirrorUrl, { name: 'portability', states: PORTABILITY_STATES })

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
