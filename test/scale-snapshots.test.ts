// A new snapshot delivered to three server processes that share one artifacts directory (a shared
// volume, as docs/operations.md deploys them): each swaps to it by itself once CURRENT names it;
// while its files are only partly copied (CURRENT moved too early), every node refuses it —
// sha256 of every file against the manifest — and keeps serving the one it has, then takes it
// once the copy is complete, without a signal.
import { copyFile, cp, readFile, rm, truncate, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import type { Manifest } from '../snapshot-contract/manifest.ts'
import { readCurrentId, snapshotDir } from '../snapshot-contract/snapshot-store.ts'
import { createTestDatabase } from './support/postgres-server.ts'
import { portabilityArtifacts } from './support/portability-snapshot.ts'
import { callNode, startCluster, type Cluster } from './support/scale-cluster.ts'
import { pointTo } from './support/server-snapshot.ts'

let artifactsDir: string
let cluster: Cluster
let key: string
let firstId: string

beforeAll(async () => {
  artifactsDir = await portabilityArtifacts(inject('mirrorUrl'))
  firstId = (await readCurrentId(artifactsDir))!
  const databaseUrl = await createTestDatabase(inject('postgresUrl'), 'snapshots')
  cluster = await startCluster({ count: 3, artifactsDir, databaseUrl, env: { TAXATLAS_SNAPSHOT_POLL_MS: '200' } })
  key = (await cluster.nodes[0].createAccount('enterprise')).api_key
})
afterAll(async () => {
  await cluster?.dispose()
  await rm(artifactsDir, { recursive: true, force: true })
})

const servedIds = () => Promise.all(cluster.nodes.map(async (node) => (await (await fetch(`${node.url}/healthz`)).json()).snapshot_id))

describe('a snapshot delivered to nodes sharing an artifacts directory', () => {
  it('is refused by every node while half-copied, then served by all once complete', async () => {
    expect(await servedIds()).toEqual([firstId, firstId, firstId])
    const nextId = `${firstId}-next`
    const from = snapshotDir(artifactsDir, firstId)
    const to = snapshotDir(artifactsDir, nextId)
    // The copy has the manifest and every file but rates.bin, which is half there.
    await cp(from, to, { recursive: true })
    const manifest = JSON.parse(await readFile(path.join(to, 'manifest.json'), 'utf8')) as Manifest
    await writeFile(path.join(to, 'manifest.json'), JSON.stringify({ ...manifest, snapshot: nextId }, null, 2))
    const rates = manifest.files.find((file) => file.name === 'rates.bin')!
    await truncate(path.join(to, 'rates.bin'), Math.floor(rates.size / 2))
    await pointTo(artifactsDir, nextId)

    // Every node looked at it and refused it, and answers lookups from the snapshot it had.
    await expect
      .poll(() => cluster.nodes.every((node) => node.events().some((e) => e.event === 'snapshot_refused' && e.snapshot === nextId)))
      .toBe(true)
    expect(await servedIds()).toEqual([firstId, firstId, firstId])
    for (const node of cluster.nodes) expect((await callNode(node, key, 'GET', '/v1/tax/ga?zip=30303')).status).toBe(200)

    // The copy finishes: each node verifies it at its next poll and swaps.
    await copyFile(path.join(from, 'rates.bin'), path.join(to, 'rates.bin'))
    await expect.poll(servedIds).toEqual([nextId, nextId, nextId])
    for (const node of cluster.nodes) expect((await callNode(node, key, 'GET', '/v1/tax/ga?zip=30303')).status).toBe(200)
  })
})
