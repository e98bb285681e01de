// The refresh workflow's release decision (pipeline/release-main.ts) on real snapshots, run the way
// the workflow runs it: a first run from nothing on a bare runner (no drops) is released whole, every
// jurisdiction served (a state none of whose sources serves on its statutory floor); a run that
// changes nothing is not; a run whose data changed is; a failed run is not, and the summary says why.
import { copyFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { execa } from 'execa'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { decideRelease } from '../pipeline/run/release-decision.ts'
import { Manifest, type StateRecord } from '../snapshot-contract/manifest.ts'
import { REFRESH_EXIT } from '../snapshot-contract/refresh-exit.ts'
import { readCurrentId, snapshotDir } from '../snapshot-contract/snapshot-store.ts'
import { heldDrops } from './support/held-drops.ts'
import { refreshProcess, tempDir } from './support/refresh-run.ts'
import { PROJECT_ROOT, sharedPath } from './support/shared.ts'

type Run = { outcome: 'success' | 'failure'; log: string; exitCode?: number }

describe('the release decision', () => {
  let dir: string
  const artifacts = () => path.join(dir, 'artifacts')
  const noDrops = () => path.join(dir, 'no-drops')
  let released: string | null = null

  beforeAll(async () => {
    dir = await tempDir('release')
    await mkdir(noDrops())
  })
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true })
  })

  /** `env` over the run's settings; a setting given as '' is left unset (TAXATLAS_STATES: every state). */
  async function refresh(env: Record<string, string>): Promise<Run> {
    const settings = {
      TAXATLAS_MIRROR: sharedPath('mirror'),
      TAXATLAS_GEO: sharedPath('geo'),
      TAXATLAS_ARTIFACTS: artifacts(),
      TAXATLAS_BUILD: path.join(dir, 'build'),
      TAXATLAS_STATES: 'GA,TX',
      TAXATLAS_DROPS: noDrops(),
      ...env,
    }
    const run = await refreshProcess(Object.fromEntries(Object.entries(settings).filter(([, value]) => value !== '')))
    const log = path.join(dir, 'refresh.log')
    await writeFile(log, run.stderr)
    // As the workflow's step: a published snapshot with a state without data (TX here, with no drop) succeeds.
    return { outcome: run.exitCode === REFRESH_EXIT.published || run.exitCode === REFRESH_EXIT.statesWithoutData ? 'success' : 'failure', log, exitCode: run.exitCode }
  }

  /** release-main.ts against the latest "release" (the manifest last decided to be released). */
  async function decide(run: Run) {
    const output = path.join(dir, 'github-output')
    const summary = path.join(dir, 'step-summary')
    await rm(output, { force: true })
    await rm(summary, { force: true })
    const args = ['--import', 'tsx', 'pipeline/release-main.ts', '--outcome', run.outcome, '--artifacts', artifacts(), '--log', run.log]
    const child = await execa(process.execPath, released ? [...args, '--previous-manifest', released] : args, {
      cwd: PROJECT_ROOT,
      env: { GITHUB_OUTPUT: output, GITHUB_STEP_SUMMARY: summary },
    })
    const outputs = Object.fromEntries((await readFile(output, 'utf8')).trim().split('\n').map((line) => line.split('=') as [string, string]))
    const id = await readCurrentId(artifacts())
    const manifestFile = path.join(snapshotDir(artifacts(), id!), 'manifest.json')
    if (outputs.release === 'true') {
      released = path.join(dir, `released-${outputs.snapshot}.json`)
      await copyFile(manifestFile, released)
    }
    const manifest = Manifest.parse(JSON.parse(await readFile(manifestFile, 'utf8')))
    return { release: outputs.release, snapshot: outputs.snapshot, summary: await readFile(summary, 'utf8'), stdout: child.stdout, manifest }
  }

  const state = (manifest: Manifest, code: string) => manifest.states.find((s) => s.code === code) as StateRecord

  it('releases the first snapshot of a bare runner (no drops) whole: all 52 jurisdictions served, a state none of whose sources serves on its statutory floor', async () => {
    const run = await refresh({ TAXATLAS_STATES: '' })
    // every state has data (TX on its floor), and the exit status says so
    expect(run.exitCode).toBe(REFRESH_EXIT.published)
    const first = await decide(run)
    expect(first.release).toBe('true')
    expect(first.summary).toContain('there is no earlier release')
    expect(first.manifest.states).toHaveLength(52)
    expect(first.manifest.states.filter((s) => s.zips === 0)).toEqual([])
    expect(first.summary).toMatch(/^52 of 52 jurisdictions served; \d+ on their statutory floor \(the state rate only, local taxes not included, low confidence\): .*\bTX\b/m)
    expect(state(first.manifest, 'GA').status).toBe('ok')
    const tx = state(first.manifest, 'TX')
    expect(tx).toMatchObject({ feed: 'statute-table', status: 'stale' })
    expect(tx.fallback_reason).toMatch(/avalara-zip5 has no file: no manual drop for TX in TAXATLAS_DROPS/)
  }, 600_000)

  it('does not release a new snapshot that serves the same data', async () => {
    const firstId = Manifest.parse(JSON.parse(await readFile(released!, 'utf8'))).snapshot
    const again = await decide(await refresh({}))
    expect(again.release).toBe('false')
    expect(again.snapshot).not.toBe(firstId)
    expect(again.summary).toMatch(/serves the same data as the latest release/)
    // Asked for GA alone, a run exits 0.
    expect((await refresh({ TAXATLAS_STATES: 'GA' })).exitCode).toBe(REFRESH_EXIT.published)
  })

  it('releases a snapshot whose data changed (a TX drop arrives and replaces its floor)', async () => {
    const changed = await decide(await refresh({ TAXATLAS_DROPS: await heldDrops('TX', { editions: ['202512'] }) }))
    expect(changed.release).toBe('true')
    expect(state(changed.manifest, 'TX')).toMatchObject({ feed: 'avalara-zip5', status: 'stale' })
    expect(changed.summary).toMatch(/serves other data/)
  }, 300_000)

  it('cuts no release when the refresh failed, and the summary quotes why', async () => {
    const failed = await refresh({ TAXATLAS_GEO: `${inject('mirrorUrl')}/no-such-geography`, TAXATLAS_FETCH_RETRIES: '0' })
    expect(failed.outcome).toBe('failure')
    const decision = await decide(failed)
    expect(decision.release).toBe('false')
    expect(decision.summary).toMatch(/The refresh failed, so no release is cut/)
    expect(decision.summary).toMatch(/refresh failed: .*no-such-geography/)
  })
})

describe('the summary\'s served line', () => {
  // Two records as the refresh writes them: TX on its floor (a statute table carrying none of its local
  // taxes), LA on its lookup with one parish unread, its local taxes there listed as not included.
  const record = (code: string, feed: StateRecord['feed'], basis: string) => ({
    code, name: code, klass: 'auto', feed, status: 'ok', edition: '2026-09-01', effective_through: '2026-09-01', effective_date_basis: 'edition_only',
    last_refreshed_at: null, last_fetch: null, rows: 1, zips: 10, sources: [], notes: [], unplaced: [], anchors: [], data_from_snapshot: null,
    rate_varies: [{ level: 'district', code: 'local', name: 'local sales taxes', kind: 'unpublished', lower_bound: true, exact_source: 'the publisher', basis }],
  })
  const manifest = Manifest.parse({
    snapshot: '20261121T030000Z', format_version: 1, generated_at: '2026-11-21T03:00:00.000Z', files: [], geography: { inputs: {}, straddlers: 0 },
    states: [record('TX', 'statute-table', 'the Texas state rate only'), record('LA', 'la-remote-sellers', 'the Louisiana state rate only: Orleans Parish could not be read')],
  })

  it('counts a state on its statutory floor, and not an official feed that lists its own unread parts as not included', () => {
    const { summary } = decideRelease({ outcome: 'success', current: manifest, previous: null, log: '' })
    expect(summary).toMatch(/^2 of 2 jurisdictions served; 1 on their statutory floor \(the state rate only, local taxes not included, low confidence\): TX\.$/m)
  })
})
