// The refresh workflow's release decision (pipeline/release-main.ts) on real snapshots, run the way
// the workflow runs it: a first run from nothing (a drop-fed state without a drop is published with
// no data and a note naming the drop it needs) is released; a run that changes nothing is not; a run
// whose data changed is; a failed run is not, and the summary says why.
import { copyFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { execa } from 'execa'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { Manifest, type StateRecord } from '../snapshot-contract/manifest.ts'
import { REFRESH_EXIT } from '../snapshot-contract/refresh-exit.ts'
import { readCurrentId, snapshotDir } from '../snapshot-contract/snapshot-store.ts'
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

  async function refresh(env: Record<string, string>): Promise<Run> {
    const run = await refreshProcess({
      TAXATLAS_MIRROR: sharedPath('mirror'),
      TAXATLAS_GEO: sharedPath('geo'),
      TAXATLAS_ARTIFACTS: artifacts(),
      TAXATLAS_BUILD: path.join(dir, 'build'),
      TAXATLAS_STATES: 'GA,TX',
      TAXATLAS_DROPS: noDrops(),
      ...env,
    })
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

  it('releases the first snapshot; a drop-fed state without a drop has no data, status failed, and a note naming the drop it needs', async () => {
    const run = await refresh({})
    expect(run.exitCode).toBe(REFRESH_EXIT.statesWithoutData)
    const log = await readFile(run.log, 'utf8')
    // TX, and every state this artifacts directory never refreshed.
    expect(log).toMatch(/^\d+ states have NO DATA: lookups there answer 503/m)
    expect(log).toContain(`  TX: no data: no feed could serve and no earlier snapshot holds data for TX; a manual drop is needed: TAXRATES_ZIP5_TX*.csv in ${noDrops()} (TAXATLAS_DROPS)`)
    expect(log).toContain(`not every state has data: TX (exit status ${REFRESH_EXIT.statesWithoutData})`)
    const first = await decide(run)
    expect(first.release).toBe('true')
    expect(first.summary).toContain('there is no earlier release')
    expect(state(first.manifest, 'GA').status).toBe('ok')
    const tx = state(first.manifest, 'TX')
    expect(tx.status).toBe('failed')
    expect(tx.rows).toBe(0)
    expect(tx.notes.join(' ')).toContain(`no data: no feed could serve and no earlier snapshot holds data for TX; a manual drop is needed: TAXRATES_ZIP5_TX*.csv in ${noDrops()}`)
  }, 300_000)

  it('does not release a new snapshot that serves the same data', async () => {
    const firstId = Manifest.parse(JSON.parse(await readFile(released!, 'utf8'))).snapshot
    const again = await decide(await refresh({}))
    expect(again.release).toBe('false')
    expect(again.snapshot).not.toBe(firstId)
    expect(again.summary).toMatch(/serves the same data as the latest release/)
    // Asked for GA alone, a run exits 0: TX, without data, was not asked for.
    expect((await refresh({ TAXATLAS_STATES: 'GA' })).exitCode).toBe(REFRESH_EXIT.published)
  })

  it('releases a snapshot whose data changed (WI refreshed too)', async () => {
    const changed = await decide(await refresh({ TAXATLAS_STATES: 'GA,TX,WI' }))
    expect(changed.release).toBe('true')
    expect(state(changed.manifest, 'WI').status).toBe('ok')
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
