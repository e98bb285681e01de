// One state's preferred feed loaded the way production reaches its publisher, as a process of its
// own: no mirror (the official URLs), through the proxy and CA its environment names (HTTPS_PROXY,
// NODE_EXTRA_CA_CERTS: a publisher replica's, test/support/publisher-replica.ts), compiled against
// the state's mini geography. Prints the edition choices and the feed result, or the error, as JSON.
//   node --import tsx test/support/feed-load-process.ts <state> <now> <work dir>
import { rm } from 'node:fs/promises'
import path from 'node:path'
import { execa } from 'execa'
import { compileState, fetchStateSources, type StateSources } from '../../pipeline/run/load-state.ts'
import { Listings } from '../../pipeline/fetch/source-listing.ts'
import { readPipelineSettings } from '../../pipeline/settings.ts'
import type { FeedResult } from '../../snapshot-contract/model.ts'
import { stateByCode } from '../../sources/index.ts'
import { loadMiniGeography } from './mini-geography.ts'
import { startPublisherReplica, type PublisherReplica, type ReplicaRequest } from './publisher-replica.ts'
import { tempDir, withOnlySettings } from './refresh-run.ts'
import { PROJECT_ROOT, sharedPath } from './shared.ts'

export type FeedLoadOutcome = { choices: StateSources['choices']; result: FeedResult } | { error: string }

const SELF = path.join(PROJECT_ROOT, 'test/support/feed-load-process.ts')

/** Runs this file as a child with only `env` as its deployment settings (the proxy and CA variables). */
export async function loadFeedProcess(state: string, now: string, workDir: string, env: Record<string, string>): Promise<FeedLoadOutcome> {
  const run = await execa(process.execPath, ['--import', 'tsx', SELF, state, now, workDir], { cwd: PROJECT_ROOT, env: withOnlySettings(env), extendEnv: false, reject: false })
  if (run.exitCode !== 0) throw new Error(`feed-load-process exited ${run.exitCode}: ${run.stderr}`)
  return JSON.parse(run.stdout) as FeedLoadOutcome
}

/** A publisher replica of `hosts` for one test: the replica closed and its work folder removed when `run` ends, also when it fails. */
export async function withPublisherReplica(hosts: string[], run: (replica: PublisherReplica, dir: string) => Promise<void>): Promise<void> {
  const dir = await tempDir('replica')
  try {
    const replica = await startPublisherReplica(hosts, dir)
    try {
      await run(replica, dir)
    } finally {
      await replica.close()
    }
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

export type PublisherLoad = { outcome: FeedLoadOutcome; requests: ReplicaRequest[]; tunnels: string[] }

/**
 * `state`'s feed loaded by a process of its own through a publisher replica of `hosts` that `serve`
 * sets up (its work folder given for files), as production reaches the publisher: the outcome, the
 * replica's requests and the host names the proxy tunnelled to.
 */
export async function loadFeedAtPublisher(state: string, now: string, hosts: string[], serve: (replica: PublisherReplica, dir: string) => unknown): Promise<PublisherLoad> {
  let load: PublisherLoad | undefined
  await withPublisherReplica(hosts, async (replica, dir) => {
    await serve(replica, dir)
    const outcome = await loadFeedProcess(state, now, dir, replica.env)
    load = { outcome, requests: replica.requests, tunnels: replica.proxy.tunnels.map((authority) => authority.replace(/:443$/, '')) }
  })
  return load!
}

/** The loaded feed of a publisher load, its error thrown. */
export function loadedFeed({ outcome }: PublisherLoad): Exclude<FeedLoadOutcome, { error: string }> {
  if ('error' in outcome) throw new Error(outcome.error)
  return outcome
}

async function main([state, now, workDir]: string[]): Promise<void> {
  const descriptor = stateByCode(state!)!
  const settings = readPipelineSettings({
    TAXATLAS_DROPS: sharedPath('drops'),
    TAXATLAS_GEO: sharedPath('geo'),
    TAXATLAS_ARTIFACTS: path.join(workDir!, 'artifacts'),
    TAXATLAS_BUILD: path.join(workDir!, 'build'),
    TAXATLAS_NOW: now!,
    TAXATLAS_FETCH_RETRIES: '0',
  })
  const context = { settings, listings: new Listings(settings), geography: await loadMiniGeography([state!]) }
  const feed = descriptor.feeds[0]!
  let outcome: FeedLoadOutcome
  try {
    const sources = await fetchStateSources(descriptor, feed, context)
    outcome = { choices: sources.choices, result: await compileState(descriptor, feed, sources, context) }
  } catch (error) {
    outcome = { error: (error as Error).message }
  }
  process.stdout.write(JSON.stringify(outcome))
}

if (process.argv[1] === SELF) await main(process.argv.slice(2))
