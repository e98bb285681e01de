// Which SST rate file a state's feed fetches. Today the name pinned in the descriptor; a discovery
// step (the newest edition listed on the SST index page) plugs in here, returning the same answers:
// a file name, or NoFileForState when the listing has none for the state.
import type { Feed } from '../../sources/descriptor.ts'
import { parseSstFileName, type SstFileName } from './sst-file-names.ts'
import { NoFileForState } from './no-file-for-state.ts'

type SstFeed = Extract<Feed, { kind: 'sst' }>

export function sstRateFileOf(feed: SstFeed, state: string): SstFileName {
  if (!feed.rateFile) throw new NoFileForState(`no SST rate file is named for ${state} (no edition pinned, none discovered)`)
  return sstFileFor(feed.rateFile, state, 'rate')
}

export function sstBoundaryFileOf(feed: SstFeed, state: string): SstFileName | null {
  return feed.boundaryFile ? sstFileFor(feed.boundaryFile, state, 'boundary') : null
}

/** A listed name must be an SST file of the right kind for this state: anything else would load another state's rates. */
function sstFileFor(name: string, state: string, kind: SstFileName['kind']): SstFileName {
  const file = parseSstFileName(name)
  if (!file || file.kind !== kind) throw new Error(`${name} is not an SST ${kind} file name`)
  if (file.state !== state) throw new Error(`${name} is listed for ${state} but is the ${kind} file of ${file.state}`)
  return file
}
