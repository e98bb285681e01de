// A LoadContext for loading one state's feed from a test mirror: settings over temporary artifact
// and build folders (pushed to `dirs`, for the test to remove), a fresh listing cache, a geography.
import type { LoadContext } from '../../pipeline/load-state.ts'
import { Listings } from '../../pipeline/source-listing.ts'
import type { Geography } from '../../snapshot-contract/geography-model.ts'
import { pipelineSettings, tempDir } from './refresh-run.ts'

export type LoadContextOptions = { mirror: string; state: string; now: string; geography: Geography; dirs: string[]; extra?: Record<string, string>; drops?: string }

export async function feedLoadContext({ mirror, state, now, geography, dirs, extra = {}, drops }: LoadContextOptions): Promise<LoadContext> {
  const label = state.toLowerCase()
  const [artifacts, build] = [await tempDir(`${label}-artifacts`), await tempDir(`${label}-build`)]
  dirs.push(artifacts, build)
  const settings = pipelineSettings({ mirror, artifacts, build, states: state, now, extra, ...(drops ? { drops } : {}) })
  return { settings, listings: new Listings(settings), geography }
}
