// Every aggregator edition held in the drop directory becomes history beside the data in service:
// one rates index per edition (a history layer of the snapshot) holding the states that edition
// covers. An edition is valid from the first day of its month until the day before the next
// edition held for the same state begins; the newest stays open. The edition a state is served
// from today is not repeated as history. Dates before the data in service are answered from the
// layer whose window holds them (docs/data-sources.md#history).
import { createHash } from 'node:crypto'
import type { StateDescriptor } from '../../sources/descriptor.ts'
import type { FeedKind } from '../../snapshot-contract/feed-traits.ts'
import type { Geography } from '../../snapshot-contract/geography-model.ts'
import type { HistoryLayer, StateRecord } from '../../snapshot-contract/manifest.ts'
import type { FeedResult } from '../../snapshot-contract/model.ts'
import { RateIndex, writeRateIndex, type ZipMeta } from '../../snapshot-contract/rate-index.ts'
import type { HistoryFile } from '../../snapshot-contract/snapshot-store.ts'
import { dataFromIndex } from './carry-over.ts'
import { emptyRecord, emptyResult } from './empty-records.ts'
import { adapterOf } from '../feeds/adapter-table.ts'
import type { AvalaraDrop } from '../feeds/aggregator-drop.ts'
import { compileAvalara } from '../feeds/avalara-zip5/compile.ts'
import { dayBefore } from '../feeds/rate-timeline.ts'
import { dropsOfState, parseDrop, readDrop } from '../feeds/manual-drops.ts'
import { withholdViolations } from './validate-state.ts'

/** A layer of the previous snapshot, read back. */
export type PreviousLayer = { layer: HistoryLayer; bytes: Buffer; index: RateIndex }

type InService = Pick<StateRecord, 'feed' | 'edition'>

/** The state's feed whose data is the aggregator drop, if it lists one: its editions are the history. */
const dropFeedOf = (descriptor: StateDescriptor): FeedKind | undefined => descriptor.feeds.find((feed) => adapterOf(feed).drop === 'data')?.kind
const hasDropFeed = (descriptor: StateDescriptor) => dropFeedOf(descriptor) !== undefined

/**
 * Per state with a drop feed, a hash of everything its history depends on: the bytes of every
 * edition held for it, the edition in service (not repeated as history), the geography and the
 * pipeline's code. Equal to the previous snapshot's: its layers' data for the state is carried.
 */
export async function historyKeys(input: { descriptors: readonly StateDescriptor[]; dropsDir: string; code: string; geography: Record<string, string>; inService: (state: string) => InService | undefined }): Promise<Map<string, string>> {
  const keys = new Map<string, string>()
  const geography = Object.entries(input.geography).sort(([a], [b]) => a.localeCompare(b))
  for (const descriptor of input.descriptors.filter(hasDropFeed)) {
    const held = await dropsOfState(descriptor.code, input.dropsDir).catch((error: Error) => error.message)
    const files = typeof held === 'string' ? held : await Promise.all(held.map(async (drop) => [drop.path, (await readDrop(drop, input.dropsDir)).raw.sha256]))
    const served = input.inService(descriptor.code)
    keys.set(descriptor.code, createHash('sha256').update(JSON.stringify([input.code, geography, files, served?.feed ?? null, served?.edition ?? null])).digest('hex'))
  }
  return keys
}

export type HistoryInput = {
  descriptors: readonly StateDescriptor[]
  /** states whose history is rebuilt from the drops; the others keep the previous snapshot's */
  rebuilt: (state: string) => boolean
  /** the previous snapshot's layers, read back (none on a first run) */
  previous: readonly PreviousLayer[]
  /** the record in service for each state: its own edition is not repeated as history */
  inService: (state: string) => InService | undefined
  dropsDir: string
  geography: Geography
  zipMeta: (zip: string) => ZipMeta | undefined
  snapshotId: string
  nowIso: string
}

type Held = { descriptor: StateDescriptor; result: FeedResult; record: StateRecord }

/** The layers to publish, newest edition first, and notes about editions that could not be held (by state). */
export async function buildHistoryLayers(input: HistoryInput): Promise<{ layers: HistoryFile[]; notes: Map<string, string[]> }> {
  const byEdition = new Map<string, Held[]>()
  const hold = (edition: string, held: Held) => byEdition.set(edition, [...(byEdition.get(edition) ?? []), held])
  const notes = new Map<string, string[]>()
  const note = (state: string, text: string) => notes.set(state, [...(notes.get(state) ?? []), text])

  for (const descriptor of input.descriptors.filter(hasDropFeed)) {
    if (!input.rebuilt(descriptor.code)) {
      for (const { layer, index } of input.previous) {
        const record = layer.states.find((s) => s.code === descriptor.code)
        if (record && index.states.includes(descriptor.code)) hold(layer.edition, { descriptor, record, result: { ...emptyResult(), ...dataFromIndex(index, descriptor.code) } })
      }
      continue
    }
    let held: AvalaraDrop[]
    try {
      held = await dropsOfState(descriptor.code, input.dropsDir)
    } catch (error) {
      note(descriptor.code, `history: the drops could not be listed (${(error as Error).message})`)
      continue
    }
    const served = input.inService(descriptor.code)
    for (const [i, drop] of held.entries()) {
      if (served !== undefined && served.feed === dropFeedOf(descriptor) && served.edition === drop.edition) continue
      const until = held[i + 1] ? dayBefore(held[i + 1]!.editionDate) : null
      try {
        const file = await readDrop(drop, input.dropsDir)
        const parsed = parseDrop(file)
        const compiled = compileAvalara({ ...parsed, state: descriptor.code, geography: input.geography })
        const windowed: FeedResult = {
          ...compiled,
          jurisdictions: compiled.jurisdictions.map((j) => ({ ...j, to: until })),
          files: [file.raw],
          notes: [...parsed.notes, ...compiled.notes, `history: edition ${drop.edition} answers ${drop.editionDate} to ${until ?? 'open'} where no newer data covers the date`],
        }
        const { result, withheld } = withholdViolations(windowed, descriptor, drop.editionDate, input.zipMeta, null)
        hold(drop.edition, { descriptor, result, record: layerRecord(descriptor, result, withheld, input) })
      } catch (error) {
        note(descriptor.code, `history: edition ${drop.edition} not held (${(error as Error).message})`)
      }
    }
  }

  const layers = [...byEdition.entries()]
    .sort(([a], [b]) => b.localeCompare(a))
    .map(([edition, states]): HistoryFile => ({
      name: `history-${edition}.bin`,
      bytes: writeRateIndex({ states: states.map(({ descriptor, result }) => ({ code: descriptor.code, result })), zipMeta: input.zipMeta }),
      layer: { edition, feed: 'avalara-zip5', states: states.map(({ record }) => record) },
    }))
  return { layers, notes }
}

function layerRecord(descriptor: StateDescriptor, result: FeedResult, withheld: StateRecord['withheld'], input: HistoryInput): StateRecord {
  return {
    ...emptyRecord(descriptor),
    klass: 'reload',
    feed: 'avalara-zip5',
    // an operator's drop of an earlier month: held as it was published, never refreshed
    status: 'manual',
    edition: result.edition,
    effective_through: result.effectiveThrough,
    effective_date_basis: result.effectiveDateBasis,
    last_refreshed_at: input.nowIso,
    last_fetch: result.effectiveThrough,
    rows: result.rowsParsed,
    zips: new Set(result.candidates.map((c) => c.zip)).size,
    sources: result.files,
    notes: result.notes,
    withheld,
    data_from_snapshot: input.snapshotId,
  }
}
