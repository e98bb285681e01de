// One refresh run: load every selected state, validate it, keep the previous data of any state
// that fails, compile the indexes and publish them as a new snapshot.
import pLimit from 'p-limit'
import { STATES } from '../sources/index.ts'
import type { StateDescriptor } from '../sources/descriptor.ts'
import { carriedZip, dataFromIndex, type CarriedZip, type StateData } from './carry-over.ts'
import { FORMAT_VERSION } from '../snapshot-contract/format.ts'
import { buildGeography } from './geography/build-geography.ts'
import type { Geography } from '../snapshot-contract/geography-model.ts'
import { loadState } from './load-state.ts'
import type { FreshnessStatus, Manifest, StateRecord } from '../snapshot-contract/manifest.ts'
import type { FeedResult } from '../snapshot-contract/model.ts'
import { writePlaceIndex } from '../snapshot-contract/place-index.ts'
import { formatRate } from '../snapshot-contract/rate-units.ts'
import { RateIndex, writeRateIndex, type ZipMeta } from '../snapshot-contract/rate-index.ts'
import type { PipelineSettings } from './settings.ts'
import { writeShapeIndex } from '../snapshot-contract/shape-index.ts'
import { defaultZipRates, diffZipRates } from './snapshot-diff.ts'
import { loadCurrentSnapshot, publishSnapshot, removeAbandonedSnapshots, type LoadedSnapshot } from '../snapshot-contract/snapshot-store.ts'
import { openStaging, stageState, type Staging } from './staging.ts'
import { checkAnchors, checkInvariants } from './validate-state.ts'

// Publishers are government web servers; a handful of parallel downloads is polite and enough.
export const SOURCE_CONCURRENCY = 4

const DAY_MS = 86_400_000
export const STALE_AFTER_DAYS = { auto: 5, reload: 40 } as const

export type Reporter = {
  start(total: number): void
  state(record: StateRecord, seconds: number): void
  info(message: string): void
  finish(): void
}

export type RefreshResult = { manifest: Manifest | null; states: StateRecord[]; reason?: string }

type Outcome = { descriptor: StateDescriptor; record: StateRecord; data: StateData | null }

export async function refresh(settings: PipelineSettings, reporter: Reporter): Promise<RefreshResult> {
  const now = settings.now
  const nowIso = now.toISOString()
  const today = nowIso.slice(0, 10)
  const snapshotId = nowIso.replace(/[:.]/g, '-')
  const abandoned = await removeAbandonedSnapshots(settings.artifactsDir)
  if (abandoned.length) reporter.info(`removed ${abandoned.length} half-written snapshot(s) of an interrupted run`)

  const previous = await loadCurrentSnapshot(settings.artifactsDir).catch((error: Error) => {
    reporter.info(`previous snapshot unusable, starting without it: ${error.message}`)
    return null
  })
  const previousIndex = previous ? new RateIndex(previous.files['rates.bin']) : null
  const geography = await buildGeography(settings.geoDir)
  const zipMeta = zipMetaFrom(geography)
  const staging = await openStaging(settings.buildDir)
  try {
    const selected = STATES.filter((d) => !settings.states || settings.states.includes(d.code))
    reporter.start(selected.length)
    const limit = pLimit(SOURCE_CONCURRENCY)
    const refreshed = await Promise.all(
      selected.map((descriptor) =>
        limit(async () => {
          const started = performance.now()
          const outcome = await refreshState(descriptor, { settings, geography, zipMeta, previous, previousIndex, staging, snapshotId, nowIso, today })
          reporter.state(outcome.record, (performance.now() - started) / 1000)
          return outcome
        }),
      ),
    )
    const outcomes = STATES.map(
      (descriptor) => refreshed.find((o) => o.descriptor === descriptor) ?? carried(descriptor, previous, previousIndex, now),
    )
    reporter.finish()

    keepOneStatePerZip(outcomes, geography)
    const served = outcomes.filter((o) => o.data && o.data.candidates.length > 0)
    if (served.length === 0) return { manifest: null, states: outcomes.map((o) => o.record), reason: 'no state has data to publish' }
    const rates = writeRateIndex({
      states: served.map((o) => ({ code: o.descriptor.code, result: { ...emptyResult(), ...o.data! } })),
      zipMeta,
    })
    const manifest = await publishSnapshot(
      settings.artifactsDir,
      {
        snapshot: snapshotId,
        format_version: FORMAT_VERSION,
        generated_at: nowIso,
        states: outcomes.map((o) => o.record),
        geography: { inputs: geography.inputs, straddlers: geography.straddlers.length },
      },
      {
        'rates.bin': rates,
        'places.bin': writePlaceIndex(geography),
        'shapes.bin': writeShapeIndex({ county: geography.countyShapes, place: geography.placeShapes }),
      },
    )
    return { manifest, states: manifest.states }
  } finally {
    staging.close()
  }
}

type StateContext = {
  settings: PipelineSettings
  geography: Geography
  zipMeta: (zip: string) => ZipMeta | undefined
  previous: LoadedSnapshot | null
  previousIndex: RateIndex | null
  staging: Staging
  snapshotId: string
  nowIso: string
  today: string
}

async function refreshState(descriptor: StateDescriptor, context: StateContext): Promise<Outcome> {
  const { previous, previousIndex, nowIso, today } = context
  const prior = previous?.manifest.states.find((s) => s.code === descriptor.code) ?? null
  const keepPrevious = (status: FreshnessStatus, notes: string[], extra: Partial<StateRecord> = {}): Outcome => ({
    descriptor,
    record: {
      ...(prior ?? emptyRecord(descriptor)),
      status,
      notes,
      ...extra,
    },
    data: previousIndex?.states.includes(descriptor.code) ? dataFromIndex(previousIndex, descriptor.code) : null,
  })
  if (descriptor.operatorFlag === 'maintenance') {
    return keepPrevious('maintenance', ['operator flag: known upstream outage, last good data served'])
  }

  let result: FeedResult
  let index: RateIndex
  let withheld: StateRecord['withheld']
  try {
    const loaded = await loadState(descriptor, { settings: context.settings, geography: context.geography })
    const growth = rowGrowth(loaded, prior, descriptor, context.settings)
    if (growth) return keepPrevious('failed', [growth])
    const carryFrom = previousIndex && previous ? { index: previousIndex, snapshot: previous.manifest.snapshot } : null
    ;({ result, index, withheld } = withholdViolations(loaded, descriptor, today, context.zipMeta, carryFrom))
  } catch (error) {
    return keepPrevious('failed', [`load failed, previous data kept: ${(error as Error).message}`])
  }

  const anchors = checkAnchors(index, descriptor, result.effectiveThrough)
  const diverged = anchors.filter((a) => a.outcome === 'diverged')
  if (diverged.length) {
    const lines = diverged.map((a) => `anchor ${a.zip} on ${a.asOf}: expected ${a.expected}, got ${a.actual ?? 'no answer'}`)
    return keepPrevious('anchor_regression', [`new data not published: ${lines.join('; ')}`], { anchors })
  }

  await stageState(context.staging, context.snapshotId, descriptor.code, result)
  const moved = previousIndex?.states.includes(descriptor.code)
    ? await ratesMoved(context.staging, previousIndex, index, descriptor.code, today)
    : false
  const lastFetch = descriptor.klass === 'reload' ? editionDate(result) : today
  const status = statusAfterLoad(descriptor, moved, lastFetch, new Date(nowIso))
  const record: StateRecord = {
    code: descriptor.code,
    name: descriptor.name,
    klass: descriptor.klass,
    feed: descriptor.feed.kind,
    status,
    edition: result.edition,
    effective_through: result.effectiveThrough,
    effective_date_basis: result.effectiveDateBasis,
    last_refreshed_at: nowIso,
    last_fetch: lastFetch,
    rows: result.rowsParsed,
    zips: new Set(result.candidates.map((c) => c.zip)).size,
    sources: result.files,
    notes: result.notes,
    unplaced: result.unplaced.map((u) => ({ ...u, rate: formatRate(u.rate) })),
    anchors,
    withheld,
    data_from_snapshot: context.snapshotId,
  }
  return { descriptor, record, data: result }
}

// A handful of ZIPs whose answer breaks a bound (an aggregator's tribal or double-counted figure)
// are withheld and listed: each keeps its previous answer, carried over from the previous
// snapshot, when it had one, and is answered as unresolved when it had none. More than that, or
// any structural violation, fails the state.
export const MAX_WITHHELD_SHARE = 0.05

/** A source with more rows than this many times the previous edition's fails, unless accepted (TAXATLAS_ACCEPT_ROW_GROWTH). */
export const ROW_GROWTH_LIMIT = 3

/** Why the state's new source is refused for its row count, or null: far more rows than the previous edition is a repeated or concatenated file more often than a real change. */
function rowGrowth(loaded: FeedResult, prior: StateRecord | null, descriptor: StateDescriptor, settings: PipelineSettings): string | null {
  if (!prior || prior.rows === 0 || loaded.rowsRead <= prior.rows * ROW_GROWTH_LIMIT) return null
  if (settings.acceptRowGrowth.includes(descriptor.code)) {
    loaded.notes.push(`${loaded.rowsRead} rows read, more than ${ROW_GROWTH_LIMIT}× the ${prior.rows} of the previous edition: accepted by the operator (TAXATLAS_ACCEPT_ROW_GROWTH)`)
    return null
  }
  return (
    `new data not published: ${loaded.rowsRead} rows read, more than ${ROW_GROWTH_LIMIT}× the ${prior.rows} of the previous edition (${prior.edition ?? 'unknown'}); ` +
    `previous data kept. If the source really grew, run the refresh with TAXATLAS_ACCEPT_ROW_GROWTH=${descriptor.code}`
  )
}

type CarryFrom = { index: RateIndex; snapshot: string }

function withholdViolations(
  loaded: FeedResult,
  descriptor: StateDescriptor,
  today: string,
  zipMeta: (zip: string) => ZipMeta | undefined,
  carryFrom: CarryFrom | null,
): { result: FeedResult; index: RateIndex; withheld: StateRecord['withheld'] } {
  const build = (result: FeedResult) => new RateIndex(writeRateIndex({ states: [{ code: descriptor.code, result }], zipMeta }))
  const index = build(loaded)
  const violations = checkInvariants(index, descriptor, today)
  if (violations.length === 0) return { result: loaded, index, withheld: [] }
  const sample = violations.slice(0, 5).map((v) => `${v.zip}: ${v.message}`).join('; ')
  const structural = violations.filter((v) => v.structural)
  if (structural.length) throw new Error(`invariants violated: ${sample}`)
  const zips = new Set(violations.map((v) => v.zip))
  const total = new Set(loaded.candidates.map((c) => c.zip)).size
  if (zips.size > Math.max(1, total * MAX_WITHHELD_SHARE)) {
    throw new Error(`invariants violated at ${zips.size} of ${total} ZIPs: ${sample}`)
  }
  const carried = new Map<string, CarriedZip>()
  for (const zip of zips) {
    const previous = carryFrom && carriedZip(carryFrom.index, descriptor.code, zip)
    if (previous) carried.set(zip, previous)
  }
  const withheld = violations.map((v) => ({ zip: v.zip, reason: v.message, ...(carried.has(v.zip) ? { carried_from: carryFrom!.snapshot } : {}) }))
  const listed = (list: typeof withheld) => list.map((w) => `${w.zip} ${w.reason}`).join('; ')
  const kept = withheld.filter((w) => w.carried_from)
  const unresolved = withheld.filter((w) => !w.carried_from)
  const notes = [...loaded.notes]
  if (kept.length) notes.push(`${new Set(kept.map((w) => w.zip)).size} ZIP(s) withheld, their previous answer kept (snapshot ${carryFrom!.snapshot}): ${listed(kept)}`)
  if (unresolved.length) notes.push(`${new Set(unresolved.map((w) => w.zip)).size} ZIP(s) withheld (answered as unresolved, no previous answer): ${listed(unresolved)}`)
  const result: FeedResult = {
    ...loaded,
    // Two carried ZIPs may share an authority (their county): each version once.
    jurisdictions: [...loaded.jurisdictions, ...new Map([...carried.values()].flatMap((c) => c.jurisdictions).map((j) => [`${j.level}|${j.code}|${j.from}|${j.to}|${j.rate}`, j])).values()],
    candidates: [...loaded.candidates.filter((c) => !zips.has(c.zip)), ...[...carried.values()].flatMap((c) => c.candidates)],
    notes,
  }
  return { result, index: build(result), withheld }
}

function statusAfterLoad(descriptor: StateDescriptor, moved: boolean, lastFetch: string, now: Date): FreshnessStatus {
  if (descriptor.operatorFlag === 'manual') return 'manual'
  if (descriptor.klass === 'static') return 'static'
  const ageDays = (now.getTime() - Date.parse(`${lastFetch}T00:00:00Z`)) / DAY_MS
  if (ageDays > STALE_AFTER_DAYS[descriptor.klass]) return 'stale'
  return moved ? 'changed' : 'ok'
}

/** A manual drop is as fresh as its edition: the operator fetched it in that month. */
const editionDate = (result: FeedResult) => result.effectiveThrough

async function ratesMoved(staging: Staging, before: RateIndex, after: RateIndex, state: string, today: string) {
  const only = new Set([state])
  const changes = await staging.exclusive(() =>
    diffZipRates(staging.connection, defaultZipRates(before, today, only), defaultZipRates(after, today, only)),
  )
  return changes.length > 0
}

/** A state this run did not touch keeps its previous record and data, aged by the clock. */
function carried(descriptor: StateDescriptor, previous: LoadedSnapshot | null, previousIndex: RateIndex | null, now: Date): Outcome {
  const prior = previous?.manifest.states.find((s) => s.code === descriptor.code)
  if (!prior || !previousIndex?.states.includes(descriptor.code)) {
    return { descriptor, record: { ...(prior ?? emptyRecord(descriptor)), status: prior?.status ?? 'unknown' }, data: null }
  }
  let status = prior.status
  if ((status === 'ok' || status === 'changed') && prior.last_fetch && descriptor.klass !== 'static') {
    const ageDays = (now.getTime() - Date.parse(`${prior.last_fetch}T00:00:00Z`)) / DAY_MS
    if (ageDays > STALE_AFTER_DAYS[descriptor.klass]) status = 'stale'
  }
  return { descriptor, record: { ...prior, status }, data: dataFromIndex(previousIndex, descriptor.code) }
}

function emptyRecord(descriptor: StateDescriptor): StateRecord {
  return {
    code: descriptor.code,
    name: descriptor.name,
    klass: descriptor.klass,
    feed: descriptor.feed.kind,
    status: 'unknown',
    edition: null,
    effective_through: null,
    effective_date_basis: null,
    last_refreshed_at: null,
    last_fetch: null,
    rows: 0,
    zips: 0,
    sources: [],
    notes: [],
    unplaced: [],
    anchors: [],
    withheld: [],
    data_from_snapshot: null,
  }
}

const emptyResult = (): FeedResult => ({
  jurisdictions: [],
  candidates: [],
  unplaced: [],
  edition: '',
  effectiveThrough: '',
  effectiveDateBasis: 'no_published_date',
  rowsRead: 0,
  rowsParsed: 0,
  files: [],
  notes: [],
})

/**
 * Invariant across states: a ZIP is answered by one state unless the geography says it straddles a
 * state line. Any other duplicate stays only with the state HUD assigns it, and the others say so.
 */
function keepOneStatePerZip(outcomes: Outcome[], geography: Geography) {
  const straddling = new Set(geography.straddlers.map((s) => s.zip))
  const owners = new Map<string, string[]>()
  for (const o of outcomes) {
    for (const zip of new Set(o.data?.candidates.map((c) => c.zip))) owners.set(zip, [...(owners.get(zip) ?? []), o.descriptor.code])
  }
  for (const [zip, states] of owners) {
    if (states.length < 2 || straddling.has(zip)) continue
    const keeper = geography.zips.get(zip)?.state ?? [...states].sort()[0]
    for (const o of outcomes) {
      if (o.descriptor.code === keeper || !states.includes(o.descriptor.code) || !o.data) continue
      o.data = { ...o.data, candidates: o.data.candidates.filter((c) => c.zip !== zip) }
      o.record = { ...o.record, notes: [...o.record.notes, `ZIP ${zip} also in ${keeper}'s data and not a straddler: left to ${keeper}`] }
    }
  }
}

function zipMetaFrom(geography: Geography): (zip: string) => ZipMeta | undefined {
  const straddling = new Set(geography.straddlers.map((s) => s.zip))
  return (zip) => {
    const geo = geography.zips.get(zip)
    if (!geo) return undefined
    return { city: geo.city, lat: geo.lat, lng: geo.lng, zcta: geo.zcta, straddles: straddling.has(zip) }
  }
}
