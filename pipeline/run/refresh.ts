// One refresh run: load every selected state, validate it, keep the previous data of any state
// that fails, compile the indexes and publish them as a new snapshot.
import pLimit from 'p-limit'
import { STATES } from '../../sources/index.ts'
import { klassOfFeed, type Feed, type StateDescriptor } from '../../sources/descriptor.ts'
import { dataFromIndex, type StateData } from './carry-over.ts'
import { FORMAT_VERSION } from '../../snapshot-contract/format.ts'
import { buildGeographyFrom, GEOGRAPHY_SET_ASIDE_NOTE, geographySetAsideNote, type GeographyInputs } from '../geography/build-geography.ts'
import { GEOGRAPHY_REUSED_NOTE, geographyReusedNote, hashGeographyInputs, resolveGeographyInputs } from '../geography/load-geography.ts'
import { codeFingerprint, inputKey } from './input-key.ts'
import type { Geography } from '../../snapshot-contract/geography-model.ts'
import { fallbackReason, fallbackStatus, firstServing, keepsPreviousOver, type FeedTry } from './feed-preference.ts'
import { NoFileForState } from '../fetch/no-file-for-state.ts'
import { buildHistoryLayers, historyKeys, type PreviousLayer } from './history-layers.ts'
import { chooseEditions, compileState, fetchChosenSources, type LoadContext, type StateSources } from './load-state.ts'
import { CURRENT_EDITION, type EditionChoice } from '../fetch/edition-choice.ts'
import { adapterOf } from '../feeds/adapter-table.ts'
import { sourceRole } from './edition-rules.ts'
import { pendingEdition } from './pending-edition.ts'
import { assertSourcesAcceptable } from './source-checks.ts'
import { Listings } from '../fetch/source-listing.ts'
import type { AnchorResult, FreshnessStatus, Klass, Manifest, StateRecord } from '../../snapshot-contract/manifest.ts'
import type { FeedResult } from '../../snapshot-contract/model.ts'
import { writePlaceIndex } from '../../snapshot-contract/place-index.ts'
import { formatRate } from '../../snapshot-contract/rate-units.ts'
import { RateIndex, writeRateIndex, type ZipMeta } from '../../snapshot-contract/rate-index.ts'
import type { PipelineSettings } from '../settings.ts'
import { writeShapeIndex } from '../../snapshot-contract/shape-index.ts'
import { defaultZipRates, diffZipRates } from './snapshot-diff.ts'
import { takeRefreshLock } from './refresh-lock.ts'
import { loadCurrentSnapshot, publishSnapshot, readSnapshotFile, removeAbandonedSnapshots, type HistoryFile, type LoadedSnapshot } from '../../snapshot-contract/snapshot-store.ts'
import { openStaging, stageState, type Staging } from './staging.ts'
import { checkAnchors, coverageStart, withholdViolations } from './validate-state.ts'
import { crossCheck, judgeTrial, type TrialVerdict } from './official-trial.ts'
import { emptyRecord, emptyResult } from './empty-records.ts'

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

/**
 * One run, while no other runs on the same artifacts (refresh-lock.ts); refused when one does.
 * `descriptors`: the states served (sources/index.ts; a test may give a state another feed parameter).
 */
export async function refresh(settings: PipelineSettings, reporter: Reporter, descriptors: readonly StateDescriptor[] = STATES): Promise<RefreshResult> {
  const lock = await takeRefreshLock(settings.artifactsDir, settings.now)
  if (!('release' in lock)) {
    return { manifest: null, states: [], reason: `another refresh is running on ${settings.artifactsDir} (pid ${lock.heldBy}, started ${lock.since}); this one changed nothing` }
  }
  try {
    return await refreshUnlocked(settings, reporter, descriptors)
  } finally {
    await lock.release()
  }
}

async function refreshUnlocked(settings: PipelineSettings, reporter: Reporter, descriptors: readonly StateDescriptor[]): Promise<RefreshResult> {
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
  // A geography input that does not download is taken from the copy the data in service was built on.
  const { inputs: geographyInputs, reused } = await resolveGeographyInputs(settings, reporter, previous?.manifest.geography.inputs)
  const geographyHashes = hashGeographyInputs(geographyInputs)
  // Built only when a state has something to compile: a run where nothing changed never needs it.
  let built: Promise<BuiltGeography> | null = null
  const geography = () => (built ??= builtGeography(geographyInputs, geographyHashes))
  const fingerprint = await codeFingerprint()
  const listings = new Listings(settings)
  const staging = await openStaging(settings.buildDir)
  try {
    const selected = descriptors.filter((d) => !settings.states || settings.states.includes(d.code))
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
    if (reused.length > 0) {
      const note = geographyReusedNote(reused)
      for (const o of refreshed) o.record = { ...o.record, notes: [...o.record.notes, note] }
    }
    const outcomes = descriptors.map(
      (descriptor) => refreshed.find((o) => o.descriptor === descriptor) ?? carried(descriptor, previous, previousIndex, now),
    )
    reporter.finish()

    const served = (state: string) => outcomes.find((o) => o.descriptor.code === state && o.data)?.record
    const keys = await historyKeys({ descriptors, dropsDir: settings.dropsDir, code: fingerprint, geography: geographyHashes, inService: served })
    const priorLayers = previous ? await previousLayers(settings.artifactsDir, previous, reporter) : []
    const layersReadable = priorLayers.length === previous?.manifest.history.length
    const historyCarried = (state: string) => layersReadable && previous?.manifest.history_keys[state] === keys.get(state)
    const history_keys = Object.fromEntries(keys)
    const manifestBase = { snapshot: snapshotId, format_version: FORMAT_VERSION, generated_at: nowIso, states: outcomes.map((o) => o.record), history_keys }
    const sameHistory = [...keys.keys()].every(historyCarried)
    if (!built && previous && sameHistory && sameInputs(previous.manifest.geography.inputs, geographyHashes)) {
      // Nothing was compiled: every state serves the data it had, on the same geography, with the
      // same drop editions held, so the index files and history layers are the previous ones byte
      // for byte (the same inputs give the same bytes).
      reporter.info('no source changed: index files carried over from the previous snapshot')
      const carriedLayers = priorLayers.map(({ layer, bytes }): HistoryFile => ({ layer, name: layer.file.name, bytes }))
      const manifest = await publishSnapshot(settings.artifactsDir, { ...manifestBase, geography: previous.manifest.geography }, previous.files, carriedLayers)
      return { manifest, states: manifest.states }
    }
    const { geography: geo, zipMeta, geographyFiles, setAside } = await geography()
    for (const line of setAside) reporter.info(`geography input rows set aside: ${line}`)
    for (const o of refreshed) {
      const notes = o.record.notes.filter((note) => !note.startsWith(GEOGRAPHY_SET_ASIDE_NOTE))
      o.record = { ...o.record, notes: setAside.length ? [...notes, geographySetAsideNote(setAside)] : notes }
    }
    keepOneStatePerZip(outcomes, geo)
    const layers = await buildHistoryLayers({
      descriptors,
      rebuilt: (state) => !historyCarried(state),
      previous: priorLayers,
      inService: served,
      dropsDir: settings.dropsDir,
      geography: geo,
      zipMeta,
      snapshotId,
      nowIso,
    })
    for (const o of outcomes) {
      const notes = layers.notes.get(o.descriptor.code)
      if (notes) o.record = { ...o.record, notes: [...o.record.notes, ...notes] }
    }
    const serving = outcomes.filter((o) => o.data && o.data.candidates.length > 0)
    if (serving.length === 0) return { manifest: null, states: outcomes.map((o) => o.record), reason: 'no state has data to publish' }
    const rates = writeRateIndex({
      states: serving.map((o) => ({ code: o.descriptor.code, result: { ...emptyResult(), ...o.data! } })),
      zipMeta,
    })
    const manifest = await publishSnapshot(
      settings.artifactsDir,
      { ...manifestBase, states: outcomes.map((o) => o.record), geography: { inputs: geo.inputs, straddlers: geo.straddlers.length } },
      {
        'rates.bin': rates,
        ...geographyFiles,
      },
      layers.layers,
    )
    return { manifest, states: manifest.states }
  } finally {
    staging.close()
  }
}

/** The geography, the snapshot files written from it alone, and a line per input whose reader set rows aside. */
type BuiltGeography = { geography: Geography; zipMeta: (zip: string) => ZipMeta | undefined; geographyFiles: { 'places.bin': Buffer; 'shapes.bin': Buffer }; setAside: string[] }

// The geography last built in this process, by the hashes of its inputs, with its files. `make
// refresh` builds at most one per process; a process that refreshes again on the same inputs (the
// tests run dozens of refreshes) reuses it: the same inputs give the same bytes, and nothing
// writes to them.
let lastGeography: { key: string; built: Promise<BuiltGeography> } | null = null

function builtGeography(inputs: GeographyInputs, hashes: Record<string, string>): Promise<BuiltGeography> {
  const key = JSON.stringify(Object.entries(hashes).sort(([a], [b]) => a.localeCompare(b)))
  if (lastGeography?.key !== key) {
    const setAside: string[] = []
    const built = buildGeographyFrom(inputs, { rowsSetAside: (line) => setAside.push(line) }).then((geo) => ({
      geography: geo,
      setAside,
      zipMeta: zipMetaFrom(geo),
      geographyFiles: { 'places.bin': writePlaceIndex(geo), 'shapes.bin': writeShapeIndex({ county: geo.countyShapes, place: geo.placeShapes }) },
    }))
    built.catch(() => {
      if (lastGeography?.built === built) lastGeography = null
    })
    lastGeography = { key, built }
  }
  return lastGeography.built
}

const sameInputs = (a: Record<string, string>, b: Record<string, string>) =>
  Object.keys(a).length === Object.keys(b).length && Object.entries(a).every(([label, hash]) => b[label] === hash)

type StateContext = Pick<LoadContext, 'settings' | 'listings'> & {
  /** pipeline/run/input-key.ts codeFingerprint() */
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

/** One feed's data, loaded and validated, or carried forward unchanged. */
type Served =
  | { kind: 'loaded'; result: FeedResult; index: RateIndex; withheld: StateRecord['withheld']; anchors: AnchorResult[]; choiceNotes: string[]; pinned: boolean; key: string; trial: TrialVerdict['trial'] }
  | { kind: 'unchanged'; prior: StateRecord; data: StateData; choiceNotes: string[]; pinned: boolean }

async function refreshState(descriptor: StateDescriptor, context: StateContext): Promise<Outcome> {
  const { previous, previousIndex, nowIso, today } = context
  const prior = previous?.manifest.states.find((s) => s.code === descriptor.code) ?? null
  const priorHasData = previousIndex?.states.includes(descriptor.code) ?? false
  const keepPrevious = (status: FreshnessStatus, notes: string[], extra: Partial<StateRecord> = {}): Outcome => ({
    descriptor,
    record: {
      ...(prior ?? emptyRecord(descriptor)),
      status,
      notes,
      pending_edition: null,
      ...extra,
    },
    data: priorHasData ? dataFromIndex(previousIndex!, descriptor.code) : null,
  })
  if (descriptor.operatorFlag === 'maintenance') {
    return keepPrevious('maintenance', ['operator flag: known upstream outage, last good data served'])
  }

  const { served, attempts, regressed } = await firstServing(descriptor.feeds, (feed) => tryFeed(descriptor, feed, priorHasData ? prior : null, context))
  const tried = attempts.map((a) => `${a.feed}: ${a.outcome === 'served' ? 'served' : a.message}`)
  if (!served || keepsPreviousOver(descriptor, served.feed.kind, prior, priorHasData)) {
    const broken = attempts.find((a) => a.outcome === 'failed' || a.outcome === 'anchor_regression')
    const why = served
      ? `previous ${prior!.feed} data kept while ${prior!.feed} cannot serve (${served.feed.kind} could)`
      : priorHasData
        ? 'no feed could serve, previous data kept'
        : noDataYet(descriptor, context.settings.dropsDir)
    return keepPrevious(broken?.outcome === 'anchor_regression' ? 'anchor_regression' : 'failed', [`${why}: ${tried.join('; ')}`], {
      feeds_tried: attempts,
      pending_edition: pendingEdition(attempts, priorHasData ? prior : null),
      ...(regressed ? { anchors: regressed } : {}),
    })
  }

  const { feed, value } = served
  const klass = klassOfFeed(feed.kind)
  const fallback = fallbackReason(attempts)
  const fallbackNotes = fallback ? [`served by ${feed.kind}, a fallback: ${fallback}`] : []
  if (value.kind === 'unchanged') {
    const outcome = unchanged(descriptor, klass, { ...value.prior, pinned: value.pinned }, value.data, [...fallbackNotes, ...value.choiceNotes], new Date(nowIso))
    return {
      ...outcome,
      record: { ...outcome.record, status: fallbackStatus(outcome.record.status, attempts, feed), feeds_tried: attempts, fallback_reason: fallback, pending_edition: pendingEdition(attempts, outcome.record) },
    }
  }

  const { result, index, withheld, anchors } = value
  await stageState(context.staging, context.snapshotId, descriptor.code, result)
  const moved = priorHasData ? await ratesMoved(context.staging, previousIndex!, index, descriptor.code, today) : false
  const lastFetch = klass === 'reload' ? editionDate(result) : today
  const status = fallbackStatus(statusAfterLoad(descriptor, klass, moved, lastFetch, new Date(nowIso)), attempts, feed)
  const record: StateRecord = {
    code: descriptor.code,
    name: descriptor.name,
    klass,
    feed: feed.kind,
    status,
    edition: result.edition,
    effective_through: result.effectiveThrough,
    effective_date_basis: result.effectiveDateBasis,
    last_refreshed_at: nowIso,
    last_fetch: lastFetch,
    rows: result.rowsParsed,
    zips: new Set(result.candidates.map((c) => c.zip)).size,
    sources: result.files,
    notes: [...fallbackNotes, ...value.choiceNotes, ...result.notes],
    unplaced: result.unplaced.map((u) => ({ ...u, rate: formatRate(u.rate) })),
    anchors,
    withheld,
    data_from_snapshot: context.snapshotId,
    pinned: value.pinned,
    input_key: value.key,
    feeds_tried: attempts,
    fallback_reason: fallback,
    coverage_from: result.coverageFrom ?? null,
    rate_varies: result.rateVaries ?? [],
    left_out: result.leftOut ?? [],
    official_trial: value.trial,
    pending_edition: pendingEdition(attempts, { feed: feed.kind, edition: result.edition }),
  }
  return { descriptor, record, data: result }
}

/** Why a state that never had data has none now; a drop-fed state says which drop it waits for. */
function noDataYet(descriptor: StateDescriptor, dropsDir: string): string {
  const drop = descriptor.feeds.find((feed) => adapterOf(feed).drop === 'data')
  const needs = drop && 'dropPattern' in drop ? `; a manual drop is needed: ${drop.dropPattern} in ${dropsDir} (TAXATLAS_DROPS)` : ''
  return `no data: no feed could serve and no earlier snapshot holds data for ${descriptor.code}${needs}`
}

/**
 * One feed of the state: fetch and check its sources; when they are what the data in service was
 * compiled from, carry that data forward; else compile, check the invariants (a few violating ZIPs
 * withheld) and the feed's own anchors.
 */
async function tryFeed(descriptor: StateDescriptor, feed: Feed, inService: StateRecord | null, context: StateContext): Promise<FeedTry<Served>> {
  let choices: EditionChoice[]
  try {
    choices = await chooseEditions(descriptor, feed, context)
  } catch (error) {
    return loadFailure(error)
  }
  const tried = await tryChosen(descriptor, feed, choices, inService, context)
  // The edition the publisher lists, when it names one: a failure of it is an edition announced and not served.
  const edition = choices[0]?.edition
  if ((tried.outcome === 'failed' || tried.outcome === 'anchor_regression') && edition && edition !== CURRENT_EDITION) return { ...tried, edition }
  return tried
}

const loadFailure = (error: unknown): FeedTry<never> => {
  const message = (error as Error).message
  return error instanceof NoFileForState ? { outcome: 'no_file', message } : { outcome: 'failed', message: `load failed: ${message}` }
}

/** `inService`: the state's record when an earlier snapshot holds its data, else null. */
async function tryChosen(descriptor: StateDescriptor, feed: Feed, choices: EditionChoice[], inService: StateRecord | null, context: StateContext): Promise<FeedTry<Served>> {
  let sources: StateSources
  try {
    sources = await fetchChosenSources(descriptor, feed, choices, context)
    assertSourcesAcceptable(feed, sources, inService, context.settings.sizeJumpLimit)
  } catch (error) {
    return loadFailure(error)
  }
  const pinned = sources.choices.some((choice) => choice.pinned)
  const choiceNotes = [
    ...sources.choices.map((choice) => `edition ${choice.edition}: ${choice.how}`),
    ...(sources.setAside ?? []).map(({ choice, message }) => `edition ${choice.edition}: ${choice.how}; not fetched, set aside (${message}): ${choice.optional}`),
  ]
  const key = inputKey({
    code: context.fingerprint,
    descriptor,
    feed: feed.kind,
    files: [...sources.fetched.map((f) => f.sha256), sources.drop?.raw.sha256 ?? sources.dropError ?? ''],
    geography: context.geographyHashes,
  })
  if (inService?.input_key === key && inService.feed === feed.kind && CARRIED_STATUSES.has(inService.status)) {
    return { outcome: 'served', value: { kind: 'unchanged', prior: inService, data: dataFromIndex(context.previousIndex!, descriptor.code), choiceNotes, pinned } }
  }

  // The data in service is compared with the new data only when the same feed produced it.
  const sameFeed = inService?.feed === feed.kind ? inService : null
  let loaded: Omit<Extract<Served, { kind: 'loaded' }>, 'anchors' | 'kind' | 'choiceNotes' | 'pinned' | 'key' | 'trial'>
  let verdict: TrialVerdict
  try {
    const { geography, zipMeta } = await context.geography()
    const compiled = await compileState(descriptor, feed, sources, { settings: context.settings, listings: context.listings, geography })
    const growth = rowGrowth(compiled, sameFeed, descriptor, context.settings)
    if (growth) return { outcome: 'failed', message: growth }
    const carryFrom = sameFeed && context.previous ? { index: context.previousIndex!, snapshot: context.previous.manifest.snapshot } : null
    loaded = withholdViolations(compiled, descriptor, context.today, zipMeta, carryFrom)
    const compared = { descriptor, feed, inService, result: loaded.result, index: loaded.index, sources, geography, asOf: context.today, settings: context.settings }
    verdict = judgeTrial(compared)
    if (!verdict.held) verdict.notes.push(...crossCheck(compared))
  } catch (error) {
    return loadFailure(error)
  }
  if (verdict.held) return { outcome: 'failed', message: verdict.held }
  loaded.result.notes.push(...verdict.notes)
  const anchors = checkAnchors(loaded.index, descriptor, feed.kind, { from: coverageStart(loaded.result), through: loaded.result.effectiveThrough })
  const diverged = anchors.filter((a) => a.outcome === 'diverged')
  if (diverged.length) {
    const lines = diverged.map((a) => `anchor ${a.zip} on ${a.asOf}: expected ${a.expected}, got ${a.actual ?? 'no answer'}`)
    return { outcome: 'anchor_regression', message: `new data not published: ${lines.join('; ')}`, anchors }
  }
  return { outcome: 'served', value: { kind: 'loaded', ...loaded, anchors, choiceNotes, pinned, key, trial: verdict.trial } }
}

/** Records that describe a successful load of the data in service (a failed one keeps older notes). */
const CARRIED_STATUSES = new Set<FreshnessStatus>(['ok', 'changed', 'stale', 'manual', 'static'])
const UNCHANGED_NOTE = 'sources unchanged'

/** Same inputs as the data in service: refreshed without re-parsing, its data carried forward. */
function unchanged(descriptor: StateDescriptor, klass: Klass, prior: StateRecord, data: StateData, choiceNotes: string[], now: Date): Outcome {
  const today = now.toISOString().slice(0, 10)
  const lastFetch = klass === 'reload' ? (prior.effective_through ?? today) : today
  const kept = prior.notes.filter((note) => !note.startsWith('edition ') && !note.startsWith(UNCHANGED_NOTE) && !note.startsWith('served by ') && !note.startsWith(GEOGRAPHY_REUSED_NOTE))
  const note = `${UNCHANGED_NOTE} since snapshot ${prior.data_from_snapshot} (same bytes, geography and pipeline): its data carried forward without re-parsing`
  return {
    descriptor,
    record: {
      ...prior,
      status: statusAfterLoad(descriptor, klass, false, lastFetch, now),
      last_refreshed_at: now.toISOString(),
      last_fetch: lastFetch,
      notes: [...choiceNotes, note, ...kept],
    },
    data,
  }
}

/** A source with more rows than this many times the previous edition's fails, unless accepted (TAXATLAS_ACCEPT_ROW_GROWTH). */
export const ROW_GROWTH_LIMIT = 3

/** Why the state's new source is refused for its row count, or null: far more rows than the previous edition is a repeated or concatenated file more often than a real change. */
function rowGrowth(loaded: FeedResult, prior: StateRecord | null, descriptor: StateDescriptor, settings: PipelineSettings): string | null {
  if (!prior || prior.rows === 0 || loaded.rowsRead <= prior.rows * ROW_GROWTH_LIMIT) return null
  // Rows of other files are not more rows of the same: an SST boundary file listed where none was read
  // (a million rows beside a rate file's hundreds) is not a repeated file.
  if (!sameRoles(loaded.files, prior.sources)) return null
  if (settings.acceptRowGrowth.includes(descriptor.code)) {
    loaded.notes.push(`${loaded.rowsRead} rows read, more than ${ROW_GROWTH_LIMIT}× the ${prior.rows} of the previous edition: accepted by the operator (TAXATLAS_ACCEPT_ROW_GROWTH)`)
    return null
  }
  return (
    `new data not published: ${loaded.rowsRead} rows read, more than ${ROW_GROWTH_LIMIT}× the ${prior.rows} of the previous edition (${prior.edition ?? 'unknown'}); ` +
    `previous data kept. If the source really grew, run the refresh with TAXATLAS_ACCEPT_ROW_GROWTH=${descriptor.code}`
  )
}

/** Whether two sets of files play the same roles (rate file, boundary file); files of no known role are left out. */
const sameRoles = (a: readonly { name: string }[], b: readonly { name: string }[]) => {
  const roles = (files: readonly { name: string }[]) => [...new Set(files.map((file) => sourceRole(file.name)).filter((role, i) => role !== files[i]!.name))].sort().join('\n')
  return roles(a) === roles(b)
}

function statusAfterLoad(descriptor: StateDescriptor, klass: Klass, moved: boolean, lastFetch: string, now: Date): FreshnessStatus {
  if (descriptor.operatorFlag === 'manual') return 'manual'
  if (klass === 'static') return 'static'
  if (dataAgeDays(lastFetch, now) > STALE_AFTER_DAYS[klass]) return 'stale'
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
  if ((status === 'ok' || status === 'changed') && prior.last_fetch && prior.klass !== 'static') {
    if (dataAgeDays(prior.last_fetch, now) > STALE_AFTER_DAYS[prior.klass]) status = 'stale'
  }
  return { descriptor, record: { ...prior, status }, data: dataFromIndex(previousIndex, descriptor.code) }
}

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

/** The previous snapshot's history layers, read back; one that cannot be read is left out (its states' history is rebuilt). */
async function previousLayers(artifactsDir: string, previous: LoadedSnapshot, reporter: Reporter): Promise<PreviousLayer[]> {
  const layers: PreviousLayer[] = []
  for (const layer of previous.manifest.history) {
    try {
      const bytes = await readSnapshotFile(artifactsDir, previous.id, layer.file)
      layers.push({ layer, bytes, index: new RateIndex(bytes) })
    } catch (error) {
      reporter.info(`previous history layer ${layer.edition} unusable, left out: ${(error as Error).message}`)
    }
  }
  return layers
}

function zipMetaFrom(geography: Geography): (zip: string) => ZipMeta | undefined {
  const straddling = new Set(geography.straddlers.map((s) => s.zip))
  return (zip) => {
    const geo = geography.zips.get(zip)
    if (!geo) return undefined
    return { city: geo.city, lat: geo.lat, lng: geo.lng, zcta: geo.zcta, straddles: straddling.has(zip) }
  }
}
