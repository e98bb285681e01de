// A listed SST file that answers 404 is fetched once more under the other extension (states switch
// .csv and .zip; publisher-evidence.md A.3 loader rules), through a real HTTP mirror.
import { rm } from 'node:fs/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fetchStateSources } from '../pipeline/run/load-state.ts'
import { Listings } from '../pipeline/fetch/source-listing.ts'
import { otherExtension } from '../pipeline/feeds/sst/other-extension.ts'
import { stateByCode } from '../sources/index.ts'
import { startFaultMirror, type FaultMirror } from './support/fault-mirror.ts'
import { pipelineSettings, tempDir } from './support/refresh-run.ts'

const GA = stateByCode('GA')!

describe('an SST file gone from under its listed extension', () => {
  let mirror: FaultMirror
  const dirs: string[] = []
  const fetchGa = async () => {
    const [artifacts, build, drops] = await Promise.all(['artifacts', 'build', 'drops'].map(tempDir))
    dirs.push(artifacts, build, drops)
    const settings = pipelineSettings({ mirror: mirror.url, artifacts, build, drops })
    return fetchStateSources(GA, GA.feeds[0]!, { settings, listings: new Listings(settings) })
  }

  beforeAll(async () => {
    mirror = await startFaultMirror()
  })
  afterAll(async () => {
    await mirror.close()
    await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })))
  })

  it('swaps .csv and .zip in the letter case given, and leaves other names alone', () => {
    expect(otherExtension('GAR2026Q2FEB19.zip')).toBe('GAR2026Q2FEB19.csv')
    expect(otherExtension('WYR2026Q4AUG20.CSV')).toBe('WYR2026Q4AUG20.ZIP')
    expect(otherExtension('INR2008Q4MAY7.csv')).toBe('INR2008Q4MAY7.zip')
    expect(otherExtension('ordmache-current.txt')).toBeNull()
  })

  it('a listed .zip that answers 404 is fetched as the .csv the server has, and the choice says so', async () => {
    mirror.faults.set('/sst/', { kind: 'listing', names: ['GAR2026Q2FEB19.zip', 'MNR2026Q2FEB18.zip'] })
    try {
      const sources = await fetchGa()
      expect(sources.fetched.map((f) => f.name)).toEqual(['GAR2026Q2FEB19.csv'])
      expect(sources.choices[0].how).toMatch(/GAR2026Q2FEB19\.zip is gone \(404\), fetched as GAR2026Q2FEB19\.csv/)
      expect(mirror.requests.map((r) => r.path)).toEqual(expect.arrayContaining(['/sst/GAR2026Q2FEB19.zip', '/sst/GAR2026Q2FEB19.csv']))
    } finally {
      mirror.faults.clear()
    }
  })

  it('a file gone under both extensions fails naming both requests', async () => {
    mirror.faults.set('/sst/', { kind: 'listing', names: ['GAR2026Q3JUN05.csv'] })
    try {
      await expect(fetchGa()).rejects.toThrow(/GAR2026Q3JUN05\.csv: GET .*404.*retried as GAR2026Q3JUN05\.zip: GAR2026Q3JUN05\.zip: GET .*404/)
    } finally {
      mirror.faults.clear()
    }
  })
})
