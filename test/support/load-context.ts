// A LoadContext for loading one state's feed from a test mirror: settings over temporary artifact
// and build folders (pushed to `dirs`, for the test to remove), a fresh listing cache, a geography.
import { rm } from 'node:fs/promises'
import { afterAll, afterEach, beforeAll } from 'vitest'
import type { LoadContext } from '../../pipeline/run/load-state.ts'
import { Listings } from '../../pipeline/fetch/source-listing.ts'
import type { GeoCounty, Geography } from '../../snapshot-contract/geography-model.ts'
import { loadMiniGeography } from './mini-geography.ts'
import { pipelineSettings, tempDir } from './refresh-run.ts'
import { serveTempMirror, type TempMirror } from './temp-mirror.ts'

export type LoadContextOptions = { mirror: string; state: string; now: string; geography: Geography; dirs: string[]; extra?: Record<string, string>; drops?: string }

export async function feedLoadContext({ mirror, state, now, geography, dirs, extra = {}, drops }: LoadContextOptions): Promise<LoadContext> {
  const label = state.toLowerCase()
  const [artifacts, build] = [await tempDir(`${label}-artifacts`), await tempDir(`${label}-build`)]
  dirs.push(artifacts, build)
  const settings = pipelineSettings({ mirror, artifacts, build, states: state, now, extra, ...(drops ? { drops } : {}) })
  return { settings, listings: new Listings(settings), geography }
}

/**
 * The hooks of a feed test: a temporary mirror served over loopback and the state's mini geography
 * before all tests, the temporary folders of each test removed after it, the mirror closed at the end.
 */
export function feedTestBed(state: string, now: string) {
  const dirs: string[] = []
  let mirror: TempMirror | undefined
  let geography: Geography | undefined
  beforeAll(async () => {
    geography = await loadMiniGeography([state])
    mirror = await serveTempMirror()
  })
  afterEach(async () => {
    for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true })
  })
  afterAll(async () => {
    await mirror?.close()
  })
  return {
    dirs,
    get mirror() {
      return mirror!
    },
    get geography() {
      return geography!
    },
    /** the state's counties in its geography */
    get counties(): GeoCounty[] {
      return [...geography!.counties.values()].filter((c) => c.state === state)
    },
    context: (extra: Record<string, string> = {}, drops?: string) => feedLoadContext({ mirror: mirror!.url, state, now, geography: geography!, dirs, extra, ...(drops ? { drops } : {}) }),
  }
}
