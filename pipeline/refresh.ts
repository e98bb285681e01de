// One refresh run: load every selected state, validate it, keep the previous data of any state
// that fails, compile the indexes and publish them as a new snapshot.
import pLimit from 'p-limit'
import { STATES } from '../sources/index.ts'
import type { StateDescriptor } from '../sources/descriptor.ts'
import { carriedZip, dataFromIndex, type CarriedZip, type StateData } from './carry-over.ts'
import { FORMAT_VERSION } from '../snapshot-contract/format.ts'
import { buildGeographyFrom } from './geography/build-geography.ts'
import { hashGeographyInputs, resolveGeographyInputs } from './geography/load-geography.ts'
import { codeFingerprint, inputKey } from './input-key.ts'
import type { Geography } from '../snapshot-contract/geography-model.ts'
import { compileState, fetchStateSources, type LoadContext, type StateSources } from './load-state.ts'
import { assertSourcesAcceptable } from './source-checks.ts'
import { Listings } from './source-listing.ts'
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
/** A state's data is `stale` once its last fetch (for a manual drop: its edition date) is older than this. */
export const STALE_AFTER_DAYS = { auto: 5, reload: 40 } as const

/** Days from a last-fetch date (YYYY-MM-DD, midnight UTC) to `now`, fractional. */
export const dataAgeDays = (lastFetch: string, now: Date): number => (now.getTime() - Date.parse(`${lastFetch}T00:00:00Z`)) / DAY_MS

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
  const geographyInputs = await resolveGeographyInputs(settings, reporter)
  const geographyHashes = hashGeographyInputs(geographyInputs)
  // Built only when a state has something to compile: a run where nothing changed never needs it.
  let built: Promise<BuiltGeography> | null = null
  const geography = () =>
    (built ??= buildGeographyFrom(geographyInputs).then((geo) => ({ geography: geo, zipMeta: zipMetaFrom(geo) })))
  const fingerprint = await codeFingerprint()
  const listings = new Listings(settings)
  const staging = await openStaging(settings.buildDir)
  try {
    const selected = STATES.filter((d) => !settings.states || settings.states.includes(d.code))
    reporter.start(selected.length)
    const limit = pLimit(SOURCE_CONCURRENCY)
    const context: StateContext = { settings, listings, fingerprint, geographyHashes, geography, previous, previousIndex, staging, snapshotId, nowIso, today }
    const refreshed = await Promise.all(
      selected.map((descriptor) =>
        limit(async () => {
          const started = performance.now()
          const outcome = await refreshState(descriptor, context)
          reporter.state(outcome.record, (performance.now() - started) / 1000)
          return outcome
        }),
      ),
    )
    const outcomes = STATES.map(
      (descriptor) => refreshed.find((o) => o.descriptor === descriptor) ?? carried(descriptor, previous, previousIndex, now),
    )
    reporter.finish()

    const manifestBase = { snapshot: snapshotId, format_version: FORMAT_VERSION, generated_at: nowIso, states: outcomes.map((o) => o.record) }
    if (!built && previous && sameInputs(previous.manifest.geography.inputs, geographyHashes)) {
      // Nothing was compiled: every state serves the data it had, on the same geography, so the
      // index files are the previous ones byte for byte (the same inputs give the same bytes).
      reporter.info('no source changed: index files carried over from the previous snapshot')
      const manifest = await publishSnapshot(settings.artifactsDir, { ...manifestBase, geography: previous.manifest.geography }, previous.files)
      return { manifest, states: manifest.states }
    }
    const { geography: geo, zipMeta } = await geography()
    keepOneStatePerZip(outcomes, geo)
    const served = outcomes.filter((o) => o.data && o.data.candidates.length > 0)
    if (served.length === 0) return { manifest: null, states: outcomes.map((o) => o.record), reason: 'no state has data to publish' }
    const rates = writeRateIndex({
      states: served.map((o) => ({ code: o.descriptor.code, result: { ...emptyResult(), ...o.data! } })),
      zipMeta,
    })
    const manifest = await publishSnapshot(
      settings.artifactsDir,
      { ...manifestBase, states: outcomes.map((o) => o.record), geography: { inputs: geo.inputs, straddlers: geo.straddlers.length } },
      {
        'rates.bin': rates,
        'places.bin': writePlaceIndex(geo),
        'shapes.bin': writeShapeIndex({ county: geo.countyShapes, place: geo.placeShapes }),
      },
    )
    return { manifest, states: manifest.states }
  } finally {
    staging.close()
  }
}

type BuiltGeography = { geography: Geography; zipMeta: (zip: string) => ZipMeta | undefined }

const sameInputs = (a: Record<string, string>, b: Record<string, string>) =>
  Object.keys(a).length === Object.keys(b).length && Object.entries(a).every(([label, hash]) => b[label] === hash)

type StateContext = Pick<LoadContext, 'settings' | 'listings'> & {
  /** pipeline/input-key.ts codeFingerprint() */
  fingerprint: string
  /** label → sha256 of every geography input (what the geography would record) */
  geographyHashes: Record<string, string>
  /** the geography, built on first use */
  geography: () => Promise<BuiltGeography>
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

  let sources: StateSources
  try {
    sources = await fetchStateSources(descriptor, context)
    assertSourcesAcceptable(descriptor, sources, prior && previousIndex?.states.includes(descriptor.code) ? prior : null, context.settings.sizeJumpLimit)
  } catch (error) {
    return keepPrevious('failed', [`load failed, previous data kept: ${(error as Error).message}`])
  }
  const pinned = sources.choices.some((choice) => choice.pinned)
  const choiceNotes = sources.choices.map((choice) => `edition ${choice.edition}: ${choice.how}`)
  const key = inputKey({
    code: context.fingerprint,
    descriptor,
    files: [...sources.fetched.map((f) => f.sha256), sources.drop?.raw.sha256 ?? sources.dropError ?? ''],
    geography: context.geographyHashes,
  })
  if (prior?.input_key === key && CARRIED_STATUSES.has(prior.status) && previousIndex?.states.includes(descriptor.code)) {
    return unchanged(descriptor, { ...prior, pinned }, dataFromIndex(previousIndex, descriptor.code), choiceNotes, new Date(nowIso))
  }

  let result: FeedResult
  let index: RateIndex
  let withheld: StateRecord['withheld']
  try {
    const { geography, zipMeta } = await context.geography()
    const loaded = await compileState(descriptor, sources, { settings: context.settings, listings: context.listings, geography })
    const growth = rowGrowth(loaded, prior, descriptor, context.settings)
    if (growth) return keepPrevious('failed', [growth])
    const carryFrom = previousIndex && previous ? { index: previousIndex, snapshot: previous.manifest.snapshot } : null
    ;({ result, index, withheld } = withholdViolations(loaded, descriptor, today, zipMeta, carryFrom))
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
    notes: [...choiceNotes, ...result.notes],
    unplaced: result.unplaced.map((u) => ({ ...u, rate: formatRate(u.rate) })),
    anchors,
    withheld,
    data_from_snapshot: context.snapshotId,
    pinned,
    input_key: key,
  }
  return { descriptor, record, data: result }
}

/** Records that describe a successful load of the data in service (a failed one keeps older notes). */
const CARRIED_STATUSES = new Set<FreshnessStatus>(['ok', 'changed', 'stale', 'manual', 'static'])
const UNCHANGED_NOTE = 'sources unchanged'

/** Same inputs as the data in service: refreshed without re-parsing, its data carried forward. */
function unchanged(descriptor: StateDescriptor, prior: StateRecord, data: StateData, choiceNotes: string[], now: Date): Outcome {
  const today = now.toISOString().slice(0, 10)
  const lastFetch = descriptor.klass === 'reload' ? (prior.effective_through ?? today) : today
  const kept = prior.notes.filter((note) => !note.startsWith('edition ') && !note.startsWith(UNCHANGED_NOTE))
  const note = `${UNCHANGED_NOTE} since snapshot ${prior.data_from_snapshot} (same bytes, geography and pipeline): its data carried forward without re-parsing`
  return {
    descriptor,
    record: {
      ...prior,
      status: statusAfterLoad(descriptor, false, lastFetch, now),
      last_refreshed_at: now.toISOString(),
      last_fetch: lastFetch,
      notes: [...choiceNotes, note, ...kept],
    },
    data,
  }
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
  if (dataAgeDays(lastFetch, now) > STALE_AFTER_DAYS[descriptor.klass]) return 'stale'
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
    if (dataAgeDays(prior.last_fetch, now) > STALE_AFTER_DAYS[descriptor.klass]) status = 'stale'
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
    pinned: false,
    input_key: null,
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
