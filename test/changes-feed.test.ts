// GET /v1/changes on the lookup snapshots (every state, built from the mirror's real files): the
// changes of GA and WI equal those read straight from their SST rate files' dated rows, the ZIPs
// and sources are the snapshot's, filters, paging and the nexus default hold, and bad input is a
// 422 naming the parameter.
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { TaxatlasClient } from '../client/index.ts'
import { formatRate, parseRateFraction } from '../snapshot-contract/rate-units.ts'
import { snapshotDir, pointerPath } from '../snapshot-contract/snapshot-store.ts'
import { servedLookups, startLookupServer } from './support/lookup-server.ts'
import { sharedPath } from './support/shared.ts'

const served = servedLookups()

const SST_LEVELS: Record<string, string> = { '45': 'state', '00': 'county', '01': 'city', '63': 'district' }
/** An open end: the SST sentinels (29991231, 99991231), and a far-future date a row was given by hand (GA's 20991231). */
const isOpenEnd = (yyyymmdd: string) => yyyymmdd >= '20990101'

const isoOf = (yyyymmdd: string) => `${yyyymmdd.slice(0, 4)}-${yyyymmdd.slice(4, 6)}-${yyyymmdd.slice(6, 8)}`
const dayAfter = (iso: string) => new Date(Date.parse(`${iso}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10)

/**
 * The changes an SST rate file's rows announce, read from the file alone: per jurisdiction, rows in
 * start order; a rate that differs from the row before, a first row after the file's earliest
 * start, a last row ending before the file's latest end, both sides of a gap between rows (none at
 * zero). As `level|code|effective|old|new`.
 */
async function sstFileChanges(file: string): Promise<string[]> {
  const rows = (await readFile(sharedPath('mirror/sst', file), 'utf8'))
    .split(/\r?\n/)
    .filter((line) => line.trim())
    .map((line) => {
      const [, type, code, rate, , , , begin, end] = line.split(',')
      const units = parseRateFraction(rate!)
      if (!units.ok) throw new Error(`${file}: ${units.reason}`)
      return { id: `${SST_LEVELS[type!]}|${code}`, rate: units.units, from: isoOf(begin!), to: isOpenEnd(end!) ? null : isoOf(end!) }
    })
  const firstStart = rows.map((r) => r.from).sort()[0]!
  const lastEnd = rows.some((r) => r.to === null) ? null : rows.map((r) => r.to!).sort().at(-1)!
  const byJurisdiction = new Map<string, typeof rows>()
  for (const row of rows) byJurisdiction.set(row.id, [...(byJurisdiction.get(row.id) ?? []), row])
  const changes: string[] = []
  const add = (id: string, effective: string, old: number | null, next: number | null) => {
    if ((old ?? 0) !== (next ?? 0)) changes.push(`${id}|${effective}|${old === null ? '-' : formatRate(old)}|${next === null ? '-' : formatRate(next)}`)
  }
  for (const [id, list] of byJurisdiction) {
    list.sort((a, b) => a.from.localeCompare(b.from))
    if (list[0]!.from > firstStart) add(id, list[0]!.from, null, list[0]!.rate)
    for (let i = 1; i < list.length; i++) {
      const before = list[i - 1]!
      const next = list[i]!
      // A row starting before the one before ends (WI county 078 on 2020-03-31) is in force from its
      // start: the later start wins. One ending inside the row before is beyond this reading.
      if (before.to === null || before.to >= next.from) {
        if (next.to !== null && (before.to === null || next.to < before.to)) throw new Error(`${file} ${id}: a row inside the row before, from ${next.from}`)
        add(id, next.from, before.rate, next.rate)
      }
      // A day with no row between two (Pierce County GA, 2014-03-02 to 03-31) has no rate of the jurisdiction.
      else if (dayAfter(before.to) === next.from) add(id, next.from, before.rate, next.rate)
      else {
        add(id, dayAfter(before.to), before.rate, null)
        add(id, next.from, null, next.rate)
      }
    }
    const last = list.at(-1)!
    if (last.to !== null && (lastEnd === null || last.to < lastEnd)) add(id, dayAfter(last.to), last.rate, null)
  }
  return changes.sort()
}

const asRow = (c: any) => `${c.jurisdiction.level}|${c.jurisdiction.code}|${c.effective}|${c.old_rate ?? '-'}|${c.new_rate ?? '-'}`

async function allPages(query: string, limit: number): Promise<any[]> {
  const listed: any[] = []
  let cursor: string | null = null
  do {
    const { status, body } = await served.lookup.get(`/v1/changes?${query}&limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`)
    expect(status).toBe(200)
    listed.push(...body.changes)
    cursor = body.next_cursor
  } while (cursor)
  return listed
}

describe('GET /v1/changes', () => {
  it("lists exactly the changes GA's and WI's SST rate files announce, from their own source file", async () => {
    for (const [state, file] of [['GA', 'GAR2026Q2FEB19.csv'], ['WI', 'WIR2026Q2FEB18.csv']] as const) {
      const { status, body } = await served.lookup.get(`/v1/changes?states=${state}&limit=1000`)
      expect(status).toBe(200)
      expect(body.states).toEqual([state])
      expect(body.states_from).toBe('query')
      expect(body.next_cursor).toBeNull()
      const expected = await sstFileChanges(file)
      expect(expected.length).toBeGreaterThan(0)
      expect(body.changes.map(asRow).sort()).toEqual(expected)
      const record = served.snapshot.manifest.states.find((s) => s.code === state)!
      for (const change of body.changes) {
        expect(change.state).toBe(state)
        expect(change.source).toEqual({ file, url: record.sources[0]!.url, edition: record.edition })
        expect(change.upcoming).toBe(change.effective > body.today)
        expect(change.kind).toBe(change.old_rate === null ? 'starts' : change.new_rate === null ? 'ends' : 'rate_change')
      }
    }
  })

  it('lists no end a row was given as a far-future date: not a change of rate (GA, Chattahoochee County, 2099-12-31)', async () => {
    const rows = (await readFile(sharedPath('mirror/sst/GAR2026Q2FEB19.csv'), 'utf8')).split(/\r?\n/).filter((line) => line.startsWith('13,00,053,'))
    expect(rows.at(-1)?.split(',').slice(7)).toEqual(['20260101', '20991231'])
    const changes = await allPages('states=GA&from=2090-01-01', 1000)
    expect(changes).toEqual([])
  })

  it("lists Atlanta's city rate steps in effective order, with the ZIPs whose jurisdictions include Atlanta", async () => {
    const { body } = await served.lookup.get('/v1/changes?states=ga&include=zips&limit=1000')
    const atlanta = body.changes.filter((c: any) => c.jurisdiction.level === 'city' && c.jurisdiction.name === 'Atlanta')
    const rows = (await sstFileChanges('GAR2026Q2FEB19.csv')).filter((row) => row.startsWith(`city|${atlanta[0].jurisdiction.code}|`))
    expect(atlanta.map(asRow)).toEqual(rows)
    const effective = body.changes.map((c: any) => c.effective)
    expect(effective).toEqual([...effective].sort())

    const { zips, zip_count } = atlanta[0]
    expect(zips.length).toBe(zip_count)
    expect(zip_count).toBeGreaterThan(0)
    // Every listed ZIP answers Atlanta's city rate for one of its candidates; the ZIPs of GA not listed never do.
    const atlantaIn = (zip: string) =>
      served.snapshot.rates
        .lookupZip(zip)
        .filter((entry) => entry.state === 'GA')
        .some((entry) => entry.candidates.some((c) => served.snapshot.rates.authoritiesOn(c.stack, '2026-01-01').some((a) => a.level === 'city' && a.name === 'Atlanta')))
    const listed = new Set<string>(zips)
    for (const i of served.snapshot.rates.entriesOfState('GA')) {
      const zip = served.snapshot.rates.entryAt(i).zip
      expect(atlantaIn(zip), zip).toBe(listed.has(zip))
    }
    const withoutZips = await served.lookup.get('/v1/changes?states=GA&limit=1')
    expect(withoutZips.body.changes[0]).not.toHaveProperty('zips')
  })

  it('has no changes where the data is one dated edition (an aggregator drop starts the data, it changes nothing)', async () => {
    const { body } = await served.lookup.get('/v1/changes?states=TX')
    expect(body.changes).toEqual([])
  })

  it('filters by effective date, inclusively', async () => {
    const all = (await served.lookup.get('/v1/changes?states=GA,WI&limit=1000')).body.changes
    const { body } = await served.lookup.get('/v1/changes?states=GA,WI&from=2022-04-01&to=2022-10-01&limit=1000')
    expect(body.changes.map(asRow)).toEqual(all.filter((c: any) => c.effective >= '2022-04-01' && c.effective <= '2022-10-01').map(asRow))
    expect(body.changes.some((c: any) => c.effective === '2022-04-01')).toBe(true)
  })

  it('pages by cursor through the same list in the same order, each change once', async () => {
    const whole = (await served.lookup.get('/v1/changes?states=GA,MN,WI&limit=1000')).body.changes
    expect(whole.length).toBeGreaterThan(100)
    const paged = await allPages('states=GA,MN,WI', 37)
    expect(paged).toEqual(whole)

    // The typed client walks the same pages.
    const client = new TaxatlasClient({ baseUrl: served.lookup.server.url, apiKey: served.lookup.key })
    const viaClient: unknown[] = []
    let cursor: string | undefined
    do {
      const page = await client.changes({ states: ['GA', 'MN', 'WI'], limit: 250, cursor })
      viaClient.push(...page.changes)
      cursor = page.next_cursor ?? undefined
    } while (cursor)
    expect(viaClient).toEqual(whole)
  })

  it('dates each change by the snapshot that first held it; since filters on that', async () => {
    const currentId = served.snapshot.id
    const { body } = await served.lookup.get('/v1/changes?states=GA&limit=1000')
    // GA's data in service was produced by the snapshot in service, the first held with GA data.
    for (const change of body.changes) expect(change.first_seen).toEqual({ snapshot: currentId, published_at: served.snapshot.manifest.generated_at, exact: false })
    const generated = served.snapshot.manifest.generated_at.slice(0, 10)
    expect((await served.lookup.get(`/v1/changes?states=GA&since=${currentId}`)).body.changes).toEqual([])
    expect((await served.lookup.get(`/v1/changes?states=GA&limit=1000&since=${generated}`)).body.changes).toEqual(body.changes)
    expect((await served.lookup.get(`/v1/changes?states=GA&since=${dayAfter(generated)}`)).body.changes).toEqual([])
  })

  it("lists the account's nexus states when no states are asked for, and every state without a list", async () => {
    const { key, server } = served.lookup
    const everything = await served.lookup.get('/v1/changes?limit=1')
    expect(everything.body.states_from).toBe('all')
    expect(everything.body.states).toEqual([...served.snapshot.rates.states].sort())

    const { api_key: own } = await server.createAccount('enterprise', 'nexus list')
    const put = await fetch(`${server.url}/v1/portability/nexus`, {
      method: 'PUT',
      headers: { 'X-API-Key': own, 'Content-Type': 'application/json' },
      body: JSON.stringify({ regions: [{ state: 'MN' }, { state: 'Wisconsin' }] }),
    })
    expect(put.status).toBe(200)
    const { body } = await served.lookup.get('/v1/changes?limit=1000', own)
    expect(body.states_from).toBe('nexus')
    expect(body.states).toEqual(['MN', 'WI'])
    expect(new Set(body.changes.map((c: any) => c.state))).toEqual(new Set(['MN', 'WI']))
    expect((await served.lookup.get('/v1/changes?states=GA&limit=1', own)).body.states).toEqual(['GA'])
    expect((await served.lookup.get('/v1/changes?limit=1', key)).body.states_from).toBe('all')
  })

  it('refuses what it cannot read with a 422 naming each parameter, and answers no one without a key', async () => {
    const refused = async (query: string, names: string[]) => {
      const { status, body } = await served.lookup.get(`/v1/changes?${query}`)
      expect(status, query).toBe(422)
      expect(body.detail.map((d: any) => d.loc[1]).sort(), query).toEqual(names.sort())
      return body.detail
    }
    const [states] = await refused('states=GA,ZZ', ['states'])
    expect(states.msg).toContain('"ZZ"')
    await refused('from=2026-02-30', ['from'])
    await refused('from=2026-05-01&to=2026-04-01', ['from'])
    await refused('since=last-week', ['since'])
    await refused('limit=0', ['limit'])
    await refused('limit=1001', ['limit'])
    await refused('limit=ten', ['limit'])
    await refused('cursor=not-a-cursor', ['cursor'])
    await refused('include=addresses', ['include'])
    await refused('states=XX&to=soon&limit=-1', ['states', 'to', 'limit'])
    const anonymous = await fetch(`${served.lookup.server.url}/v1/changes`)
    expect(anonymous.status).toBe(401)
  })

  it('is described in the OpenAPI document', async () => {
    const document = await (await fetch(`${served.lookup.server.url}/openapi.json`)).json()
    const operation = document.paths['/v1/changes'].get
    expect(operation.operationId).toBe('listRateChanges')
    expect(operation.parameters.map((p: any) => p.name).sort()).toEqual(['cursor', 'from', 'impact', 'include', 'limit', 'since', 'states', 'to'])
  })
})

describe('first seen, among the snapshots held', () => {
  /** A copy of the served snapshot published as `id`, its data produced by itself. */
  async function publishCopy(dir: string, id: string): Promise<void> {
    const target = snapshotDir(dir, id)
    await cp(snapshotDir(served.snapshot.artifactsDir, served.snapshot.id), target, { recursive: true })
    const manifest = JSON.parse(await readFile(path.join(target, 'manifest.json'), 'utf8'))
    manifest.snapshot = id
    manifest.generated_at = id.replace(/T(\d{2})-(\d{2})-(\d{2})-(\d{3})Z$/, 'T$1:$2:$3.$4Z')
    for (const state of manifest.states) state.data_from_snapshot = id
    await writeFile(path.join(target, 'manifest.json'), JSON.stringify(manifest))
  }

  it('is the oldest snapshot before the served one that held the change; one published after it (a rollback) is not read', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'taxatlas-changes-'))
    try {
      const [older, before, after] = ['2026-11-19T03-00-00-000Z', '2026-11-20T12-00-00-000Z', '2099-01-01T03-00-00-000Z']
      expect(before < served.snapshot.id && served.snapshot.id < after).toBe(true)
      await cp(snapshotDir(served.snapshot.artifactsDir, served.snapshot.id), snapshotDir(dir, served.snapshot.id), { recursive: true })
      for (const id of [before, after]) await publishCopy(dir, id)
      await writeFile(pointerPath(dir), served.snapshot.id)
      const lookup = await startLookupServer({ dir })
      try {
        const { body } = await lookup.get('/v1/changes?states=GA&limit=1000')
        expect(body.snapshot).toBe(served.snapshot.id)
        expect(body.changes.length).toBeGreaterThan(0)
        for (const change of body.changes) expect(change.first_seen).toEqual({ snapshot: before, published_at: '2026-11-20T12:00:00.000Z', exact: false })
        expect((await lookup.get(`/v1/changes?states=GA&since=${before}`)).body.changes).toEqual([])
        expect((await lookup.get(`/v1/changes?states=GA&limit=1000&since=${older}`)).body.changes).toEqual(body.changes)
        expect((await lookup.get('/v1/changes?states=GA&since=2026-11-21')).body.changes).toEqual([])
        expect((await lookup.get('/v1/changes?states=GA&limit=1000&since=2026-11-20')).body.changes).toEqual(body.changes)
      } finally {
        await lookup.close()
      }
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})
