// The changes feed for `make bench`: one page of GET /v1/changes for the state with the most
// changes, over the year ending today, as its handler builds and serializes it (HTTP itself is
// measured by the lookup lines). The first call derives the state's changes and reads the
// snapshots held; the median is of the calls after it.
import { readCurrentId } from '../../snapshot-contract/snapshot-store.ts'
import { changesPage } from '../../server/changes/changes-feed.ts'
import { readChangesRequest } from '../../server/changes/changes-request.ts'
import { stateChanges } from '../../server/changes/state-changes.ts'
import { openSnapshot } from '../../server/snapshot/open-snapshot.ts'
import type { Measure } from './measure.ts'

const CALLS = 101

export async function changesMeasures(artifacts: string): Promise<Measure[]> {
  const snapshot = await openSnapshot(artifacts, (await readCurrentId(artifacts))!, Date.now())
  const today = new Date().toISOString().slice(0, 10)
  const yearAgo = `${Number(today.slice(0, 4)) - 1}${today.slice(4)}`
  const inYear = (state: string) => stateChanges(snapshot, state).filter((c) => c.effective > yearAgo && c.effective <= today).length
  const state = snapshot.rates.states.reduce((most, s) => (inYear(s) > inYear(most) ? s : most))
  const reading = readChangesRequest({ states: state, from: yearAgo, to: today, limit: '1000', include: 'zips' })
  if (!reading.ok) throw new Error(`changes bench: ${JSON.stringify(reading.detail)}`)
  const times: number[] = []
  for (let call = 0; call <= CALLS; call++) {
    const started = performance.now()
    JSON.stringify(await changesPage(snapshot, reading.request, { states: [state], from: 'query' }, today))
    if (call > 0) times.push(performance.now() - started)
  }
  times.sort((a, b) => a - b)
  return [{ name: `GET /v1/changes, one state (${state}) over a year, ZIPs listed (median)`, value: times[Math.floor(times.length / 2)]!, unit: 'ms', target: 20, better: 'lower' }]
}
