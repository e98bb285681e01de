import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { FetchError, fetchSource } from '../pipeline/fetch/fetch-source.ts'
import { sha256Hex } from '../snapshot-contract/file-bytes.ts'
import { readPipelineSettings } from '../pipeline/settings.ts'
import { startFaultMirror, type FaultMirror } from './support/fault-mirror.ts'
import { sharedPath } from './support/shared.ts'
import { tempDir } from './support/temp-dirs.ts'

const GA = { feed: 'sst', fileName: 'GAR2026Q2FEB19.csv', officialUrl: 'https://invalid.example/GAR2026Q2FEB19.csv' }

async function settingsFor(mirror: string, extra: Record<string, string> = {}) {
  const buildDir = await tempDir('fetch')
  return readPipelineSettings({ TAXATLAS_MIRROR: mirror, TAXATLAS_BUILD: buildDir, TAXATLAS_FETCH_RETRIES: '2', TAXATLAS_FETCH_TIMEOUT_MS: '1500', ...extra })
}

describe('fetchSource through the shared mirror over HTTP', () => {
  it('downloads the real file, hashes it and keeps it by hash under build/raw', async () => {
    const settings = await settingsFor(inject('mirrorUrl'))
    const fetched = await fetchSource(GA, settings)
    const original = await readFile(sharedPath('mirror/sst/GAR2026Q2FEB19.csv'))
    expect(fetched.sha256).toBe(sha256Hex(original))
    expect(fetched.size).toBe(original.length)
    expect(fetched.url).toBe(`${inject('mirrorUrl')}/sst/GAR2026Q2FEB19.csv`)
    const kept = await readFile(path.join(settings.buildDir, 'raw', 'sst', fetched.sha256.slice(0, 12), GA.fileName))
    expect(kept.equals(original)).toBe(true)
  })

  it('reads a mirror directory laid out as <feed>/<file name>', async () => {
    const settings = await settingsFor(sharedPath('mirror'))
    const fetched = await fetchSource(GA, settings)
    expect(fetched.cache).toBe('mirror-dir')
    expect(fetched.bytes.toString('utf8').split('\n')[0]).toBe('13,45,13,0.04,0.04,0,0,20110101,29991231')
  })
})

describe('fetchSource faults', () => {
  let mirror: FaultMirror
  beforeAll(async () => {
    mirror = await startFaultMirror()
  })
  afterAll(() => mirror.close())

  it('asks with a conditional request the second time and reuses the kept bytes on 304', async () => {
    const settings = await settingsFor(mirror.url)
    const first = await fetchSource(GA, settings)
    const second = await fetchSource(GA, settings)
    expect(first.cache).toBe('fresh')
    expect(second.cache).toBe('not-modified')
    expect(second.sha256).toBe(first.sha256)
    const conditional = mirror.requests.filter((r) => r.path === '/sst/GAR2026Q2FEB19.csv' && r.ifNoneMatch)
    expect(conditional.length).toBeGreaterThan(0)
  })

  it('retries a 500 with backoff and succeeds when the server recovers', async () => {
    mirror.faults.set('/sst/WIR2026Q2FEB18.csv', { kind: 'status', status: 500, times: 2 })
    const settings = await settingsFor(mirror.url)
    const before = mirror.requests.length
    const fetched = await fetchSource({ ...GA, fileName: 'WIR2026Q2FEB18.csv' }, settings)
    expect(fetched.size).toBe((await readFile(sharedPath('mirror/sst/WIR2026Q2FEB18.csv'))).length)
    expect(mirror.requests.slice(before).filter((r) => r.path === '/sst/WIR2026Q2FEB18.csv')).toHaveLength(3)
    mirror.faults.clear()
  })

  it('fails with a clear error after the retries on a persistent 500', async () => {
    mirror.faults.set('/sst/GAR2026Q2FEB19.csv', { kind: 'status', status: 500 })
    const settings = await settingsFor(mirror.url)
    await expect(fetchSource(GA, settings)).rejects.toThrow(/GAR2026Q2FEB19\.csv: GET .* failed: .*500/)
    mirror.faults.clear()
  })

  it('gives up on a server that never answers (timeout)', async () => {
    mirror.faults.set('/sst/GAR2026Q2FEB19.csv', { kind: 'hang' })
    const settings = await settingsFor(mirror.url, { TAXATLAS_FETCH_RETRIES: '0', TAXATLAS_FETCH_TIMEOUT_MS: '300' })
    await expect(fetchSource(GA, settings)).rejects.toThrow(FetchError)
    await expect(fetchSource(GA, settings)).rejects.toThrow(/timeout/i)
    mirror.faults.clear()
  })

  it('marks a file that is not there (404, or missing from a mirror directory) as not found, and a failing server not', async () => {
    const failure = (settings: Awaited<ReturnType<typeof settingsFor>>, request = GA) => fetchSource(request, settings).then(() => null, (error: unknown) => error)
    const absent = { ...GA, fileName: 'GAR2026Q2FEB19.zip' }
    expect(await failure(await settingsFor(mirror.url), absent)).toMatchObject({ constructor: FetchError, notFound: true, message: expect.stringMatching(/404/) })
    expect(await failure(await settingsFor(sharedPath('mirror')), absent)).toMatchObject({ constructor: FetchError, notFound: true, message: expect.stringMatching(/ENOENT/) })
    mirror.faults.set('/sst/GAR2026Q2FEB19.csv', { kind: 'status', status: 500 })
    expect(await failure(await settingsFor(mirror.url, { TAXATLAS_FETCH_RETRIES: '0' }))).toMatchObject({ constructor: FetchError, notFound: false })
    mirror.faults.clear()
  })

  it('refuses a truncated download', async () => {
    mirror.faults.set('/sst/GAR2026Q2FEB19.csv', { kind: 'truncate' })
    const settings = await settingsFor(mirror.url, { TAXATLAS_FETCH_RETRIES: '0' })
    await expect(fetchSource(GA, settings)).rejects.toThrow(FetchError)
    mirror.faults.clear()
  })
})
