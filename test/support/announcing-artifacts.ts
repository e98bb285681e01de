// Artifacts whose next snapshot has rate changes to announce to webhook endpoints: a copy of the
// run's snapshot (GA, CT, DE) whose manifest leaves GA out, so GA's changes were not seen in it, and
// `add`, which writes a newer snapshot with the same data and GA in its manifest, so GA's changes
// are first seen there. The caller points CURRENT at it (or a server's reload does).
import { cp, readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { readCurrentId, snapshotDir } from '../../snapshot-contract/snapshot-store.ts'
import { copyOfCachedArtifacts } from './server-snapshot.ts'

const idAt = (ms: number) => new Date(ms).toISOString().replace(/[:.]/g, '-')

export type AnnouncingArtifacts = {
  /** a temp artifacts directory (the caller removes it) */
  dir: string
  /** the snapshot CURRENT names, without GA in its manifest */
  baseId: string
  /** when the pipeline built the base snapshot, ms */
  generated: number
  /** writes the next snapshot (by default a minute after the last) and returns its id */
  add(id?: string): Promise<string>
}

export async function announcingArtifacts(mirrorUrl: string): Promise<AnnouncingArtifacts> {
  const dir = await copyOfCachedArtifacts(mirrorUrl, { name: 'server' })
  const baseId = (await readCurrentId(dir))!
  const manifestFile = (id: string) => path.join(snapshotDir(dir, id), 'manifest.json')
  const full = JSON.parse(await readFile(manifestFile(baseId), 'utf8'))
  await writeFile(manifestFile(baseId), JSON.stringify({ ...full, states: full.states.filter((s: any) => s.code !== 'GA') }))
  const generated = Date.parse(full.generated_at)
  let added = 0
  const add = async (id = idAt(generated + ++added * 60_000)) => {
    await cp(snapshotDir(dir, baseId), snapshotDir(dir, id), { recursive: true })
    const generatedAt = new Date(Date.parse(id.replace(/T(\d{2})-(\d{2})-(\d{2})-(\d{3})Z$/, 'T$1:$2:$3.$4Z'))).toISOString()
    await writeFile(manifestFile(id), JSON.stringify({ ...full, snapshot: id, generated_at: generatedAt, states: full.states.map((s: any) => ({ ...s, data_from_snapshot: id })) }))
    return id
  }
  return { dir, baseId, generated, add }
}
