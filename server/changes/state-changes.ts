// The rate changes of one state in the served snapshot, with the ZIPs each touches and the source
// file that announced it: derived once per snapshot and state, on first use.
import type { Manifest, StateRecord } from '../../snapshot-contract/manifest.ts'
import { rateChangesOfState, type RateChange } from '../../snapshot-contract/rate-changes.ts'
import type { RateIndex } from '../../snapshot-contract/rate-index.ts'
import type { Snapshot } from '../snapshot/open-snapshot.ts'
import { memoPerState } from './snapshot-memo.ts'

/** `url`: where it was fetched, when that is a web address; `edition`: as its publisher names it, when known */
export type ChangeSource = { file: string; url: string | null; edition: string | null }

export type StateChange = Omit<RateChange, 'source'> & {
  /** the ZIPs (in order) with a candidate whose jurisdictions include the authority */
  zips: readonly string[]
  source: ChangeSource
}

/** The state's changes in the snapshot, in the feed's order. */
export const stateChanges = memoPerState('rate changes', derive)

function derive(snapshot: Snapshot, state: string): readonly StateChange[] {
  if (!snapshot.rates.states.includes(state)) return []
  const zips = zipsByAuthority(snapshot.rates, state)
  const sources = new Map<string, ChangeSource>()
  const sourceOf = (file: string) => {
    let source = sources.get(file)
    if (!source) sources.set(file, (source = changeSource(snapshot.manifest, state, file)))
    return source
  }
  return rateChangesOfState(snapshot.rates, state).map((change) => ({
    ...change,
    zips: zips.get(`${change.level}|${change.code}`) ?? [],
    source: sourceOf(change.source),
  }))
}

/** Per authority (`level|code`), the ZIPs of the state with a candidate stacking it. */
function zipsByAuthority(rates: RateIndex, state: string): Map<string, string[]> {
  const idOfKey = new Map<number, string>()
  const byAuthority = new Map<string, string[]>()
  for (const i of rates.entriesOfState(state)) {
    const entry = rates.entryAt(i)
    const keys = new Set(entry.candidates.flatMap((candidate) => candidate.stack))
    for (const key of keys) {
      let id = idOfKey.get(key)
      if (id === undefined) {
        const [authority] = rates.authorityHistory([key])
        idOfKey.set(key, (id = `${authority!.level}|${authority!.code}`))
      }
      const list = byAuthority.get(id)
      // Entries come in ZIP order; a ZIP appears once per state.
      if (list) list.push(entry.zip)
      else byAuthority.set(id, [entry.zip])
    }
  }
  return byAuthority
}

/**
 * The file's record in the state's data in service, or else in an older edition the snapshot holds.
 * The edition is the record's when the file is its main one (the first listed); a file read beside
 * it (an aggregator drop for ZIPs the official file leaves out) has the edition of the layer whose
 * main file it is, if one is held.
 */
function changeSource(manifest: Manifest, state: string, file: string): ChangeSource {
  const records = [manifest.states, ...manifest.history.map((layer) => layer.states)].flatMap((states) => states.filter((record) => record.code === state))
  const named = (record: StateRecord) => record.sources.find((source) => source.name === file || source.member === file)
  const main = records.find((record) => record.sources[0] && named(record) === record.sources[0])
  const found = main ?? records.find(named)
  const url = found ? named(found)!.url : null
  return { file, url: url && /^https?:\/\//.test(url) ? url : null, edition: main?.edition ?? null }
}
