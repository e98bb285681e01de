// The server's own refresh (TAXATLAS_REFRESH_SCHEDULE): the pipeline as a child process, its
// snapshot swapped in while requests keep being answered, and a failed run visible in freshness
// and the log with the data in service unchanged.
import { afterEach, describe, expect, inject, it } from 'vitest'
import { Cron } from 'croner'
import { readServerSettings } from '../server/settings.ts'
import { loadSnapshot, readCurrentId } from '../snapshot-contract/snapshot-store.ts'
import { FreshnessEnvelope } from '../snapshot-contract/manifest.ts'
import { startTestServer, type TestServer } from './support/server-harness.ts'
import { copyOfCachedArtifacts } from './support/server-snapshot.ts'
import { PROJECT_ROOT, sharedPath } from './support/shared.ts'
import { tempDir } from './support/temp-dirs.ts'

const REFRESH = `${process.execPath} --import tsx pipeline/main.ts`

async function serverEnv(extra: Record<string, string>) {
  return {
    PATH: process.env.PATH ?? '',
    TAXATLAS_REFRESH_DIR: PROJECT_ROOT,
    TAXATLAS_MIRROR: inject('mirrorUrl'),
    TAXATLAS_GEO: sharedPath('geo'),
    TAXATLAS_DROPS: sharedPath('drops'),
    TAXATLAS_BUILD: await tempDir('scheduled-build'),
    TAXATLAS_STATES: 'GA,CT',
    ...extra,
  }
}

async function freshness(url: string) {
  const response = await fetch(`${url}/v1/freshness`)
  expect(response.status).toBe(200)
  return FreshnessEnvelope.parse(await response.json())
}

/** Requests /v1/freshness and /healthz from 4 clients until `done` settles; the statuses seen. */
async function underLoad<T>(url: string, done: Promise<T>): Promise<{ result: T; statuses: number[] }> {
  const statuses: number[] = []
  let finished = false
  const settled = done.finally(() => (finished = true))
  const client = async (path: string) => {
    while (!finished) statuses.push(await fetch(`${url}${path}`).then((r) => r.arrayBuffer().then(() => r.status), () => 0))
  }
  const [result] = await Promise.all([settled, client('/v1/freshness'), client('/healthz'), client('/v1/freshness'), client('/healthz')])
  return { result, statuses }
}

describe('the server refreshes by itself', () => {
  let server: TestServer | null = null
  afterEach(async () => {
    await server?.close()
    server = null
  })

  it('validates the schedule: cron syntax, "weekly" for the spec\'s Sunday 03:00 UTC', () => {
    expect(readServerSettings({ TAXATLAS_REFRESH_SCHEDULE: 'weekly' }).refresh?.schedule).toBe('0 3 * * 0')
    expect(readServerSettings({}).refresh).toBeNull()
    expect(() => readServerSettings({ TAXATLAS_REFRESH_SCHEDULE: 'every sunday' })).toThrow(/TAXATLAS_REFRESH_SCHEDULE: not a cron expression/)
    const next = new Cron('0 3 * * 0', { timezone: 'UTC', paused: true }).nextRun(new Date('2026-11-25T12:00:00Z'))
    expect(next?.toISOString()).toBe('2026-11-29T03:00:00.000Z')
  })

  it('runs the pipeline as a child, publishes, and swaps with no failed request', async () => {
    const artifacts = await copyOfCachedArtifacts(inject('mirrorUrl'), { name: 'server' })
    server = await startTestServer({
      artifactsDir: artifacts,
      env: await serverEnv({ TAXATLAS_REFRESH_SCHEDULE: 'weekly', TAXATLAS_REFRESH_COMMAND: REFRESH }),
    })
    const before = server.running.snapshots.current.id
    expect(server.running.refresh?.nextRun()?.getUTCDay()).toBe(0)
    const { result: run, statuses } = await underLoad(server.url, server.running.refresh!.runNow())
    expect(run).toMatchObject({ ok: true, exitCode: 0 })
    // swapped by the run's own reload, or already by the pointer watcher
    expect(['loaded', 'unchanged']).toContain(run.reload?.kind)
    expect(server.running.snapshots.current.id).toBe(run.snapshot)
    expect(run.snapshot).not.toBe(before)
    expect(statuses.length).toBeGreaterThan(20)
    expect(statuses.filter((status) => status !== 200)).toEqual([])
    const ga = (await freshness(server.url)).states.find((s) => s.code === 'ga')!
    expect(ga.status).toBe('ok')
    expect(Date.parse(ga.last_refreshed_at!)).toBeGreaterThan(Date.now() - 120_000)
    expect(server.logs.map((entry) => entry.event)).toEqual(expect.arrayContaining(['refresh_scheduled', 'refresh_started', 'refresh_finished', 'snapshot_loaded']))
  })

  it('a scheduled run that fails changes nothing served and shows in freshness and the log', async () => {
    const artifacts = await copyOfCachedArtifacts(inject('mirrorUrl'), { name: 'server' })
    const before = (await readCurrentId(artifacts))!
    // A run that dies without publishing anything, started by the schedule's next tick (every second).
    server = await startTestServer({
      artifactsDir: artifacts,
      env: await serverEnv({ TAXATLAS_REFRESH_SCHEDULE: '* * * * * *', TAXATLAS_REFRESH_COMMAND: `${process.execPath} -e process.exit(3)` }),
    })
    const { logs } = server
    await expect.poll(() => logs.some((entry) => entry.event === 'snapshot_loaded' && entry.trigger === 'refresh')).toBe(true)
    await server.running.refresh!.stop()
    const failed = server.logs.find((entry) => entry.event === 'refresh_failed')
    expect(failed).toMatchObject({ trigger: 'schedule', reason: 'exit code 3' })
    expect(server.logs.find((entry) => entry.event === 'refresh_started')).toMatchObject({ trigger: 'schedule' })

    const served = server.running.snapshots.current
    expect(served.id).not.toBe(before)
    const original = await loadSnapshot(artifacts, before)
    expect((await loadSnapshot(artifacts, served.id)).files['rates.bin'].equals(original.files['rates.bin'])).toBe(true)
    const states = (await freshness(server.url)).states
    const ga = states.find((s) => s.code === 'ga')!
    expect(ga.status).toBe('failed')
    expect(ga.last_refreshed_at).toBe(original.manifest.states.find((s) => s.code === 'GA')!.last_refreshed_at)
    expect(states.find((s) => s.code === 'ct')!.status).toBe('static')
    expect(served.manifest.states.find((s) => s.code === 'GA')!.notes[0]).toMatch(/^refresh run failed, previous data kept: exit code 3/)
  })
})
