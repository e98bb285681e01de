// The web console in real headless Chromium against a real server (port 0, the real snapshot of
// every state, a real store) serving the console built from console/: the freshness map coloured
// as /v1/freshness says and refreshed hourly with its ETag; the lookup playground in all four input
// modes, both shapes, with repairs, candidates and a curl command that repeats the call; the 401 of
// a bad key; malformed and oversized input answered with the server's envelope; the account page;
// the API reference; the packed client used in the page; a server that is down. No page may load
// anything from another host, throw, or be refused by its CSP. Screenshots go to build/screenshots.
import { createHash } from 'node:crypto'
import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { execa } from 'execa'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { buildConsole } from '../console/build-console.ts'
import { CONSOLE_CSP } from '../server/console/console-files.ts'
import { formatRate } from '../snapshot-contract/rate-units.ts'
import type { Snapshot } from '../server/snapshot/open-snapshot.ts'
import { STATES } from '../sources/index.ts'
import { stateFacts } from '../sources/state-facts.ts'
import { startBrowser, type ConsoleBrowser } from './support/browser.ts'
import { packClient, type PackedClient } from './support/client-package.ts'
import { startLookupServer, type LookupServer } from './support/lookup-server.ts'
import { ambiguousZip, lookupArtifacts, openLookupSnapshot, type LookupArtifacts } from './support/lookup-snapshots.ts'
import { rawRequest } from './support/reliability-raw-http.ts'
import { PROJECT_ROOT } from './support/shared.ts'
import { TRAVERSAL_PAYLOADS } from './support/traversal-payloads.ts'
import { unreadableTexts } from './support/unreadable-text.ts'

const SCREENSHOTS = path.join(PROJECT_ROOT, 'build', 'screenshots')
const TODAY = new Date().toISOString().slice(0, 10)

let artifacts: LookupArtifacts
let snapshot: Snapshot
let consoleDir: string
let lookup: LookupServer
let browser: ConsoleBrowser

beforeAll(async () => {
  artifacts = await lookupArtifacts(inject('mirrorUrl'))
  snapshot = await openLookupSnapshot(artifacts)
  consoleDir = await mkdtemp(path.join(os.tmpdir(), 'taxatlas-console-'))
  await buildConsole(consoleDir)
  lookup = await startLookupServer(artifacts, { TAXATLAS_CONSOLE_DIR: consoleDir })
  browser = await startBrowser(lookup.server.url)
  await mkdir(SCREENSHOTS, { recursive: true })
})
afterAll(async () => {
  await browser?.close()
  await lookup?.close()
  if (consoleDir) await rm(consoleDir, { recursive: true, force: true })
})

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex')
const screenshot = (page: Page, name: string) => page.screenshot({ path: path.join(SCREENSHOTS, `console-${name}.png`), fullPage: true })

describe('the console files', () => {
  it('are served at /, /lookup, /changes, /docs and /account with the console CSP; assets gzipped with Vary; other paths stay JSON', async () => {
    for (const page of ['/', '/lookup', '/docs', '/account', '/changes']) {
      const response = await fetch(`${lookup.server.url}${page}`)
      expect(response.status, page).toBe(200)
      expect(response.headers.get('content-type')).toBe('text/html;charset=utf-8')
      expect(response.headers.get('content-security-policy')).toBe(CONSOLE_CSP)
      expect(response.headers.get('x-content-type-options')).toBe('nosniff')
      expect(response.headers.get('x-request-id')).toMatch(/\S/)
      expect(await response.text()).toContain('<nav aria-label="Console">')
    }
    const script = await fetch(`${lookup.server.url}/assets/freshness-page.js`, { headers: { 'Accept-Encoding': 'gzip' } })
    expect(script.headers.get('content-encoding')).toBe('gzip')
    expect(script.headers.get('vary')).toBe('Accept-Encoding')
    const head = await fetch(`${lookup.server.url}/`, { method: 'HEAD' })
    expect(head.status).toBe(200)
    expect(await head.text()).toBe('')
    const missing = await fetch(`${lookup.server.url}/no-such-page`)
    expect(missing.status).toBe(404)
    expect((await missing.json()).error.code).toBe('NOT_FOUND')
    expect(missing.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'")
  })

  it('serve nothing outside their directory, whatever the spelling of ..', async () => {
    const served = new Set<string>()
    for (const entry of await readdir(consoleDir, { recursive: true, withFileTypes: true })) {
      if (entry.isFile()) served.add(sha256(await readFile(path.join(entry.parentPath ?? entry.path, entry.name))))
    }
    const statuses: Record<number, number> = {}
    for (const prefix of ['', '/assets', '/assets/swagger-ui', '/assets/chunks', '/lookup']) {
      for (const payload of TRAVERSAL_PAYLOADS) {
        const target = `${prefix}/${payload}`
        const response = await rawRequest(lookup.server.url, { method: 'GET', target, headers: [['Host', 'console.test'], ['Accept-Encoding', 'gzip'], ['Connection', 'close']] })
        statuses[response.status] = (statuses[response.status] ?? 0) + 1
        expect(response.status, target).toBeLessThan(500)
        if (response.status === 200) expect(served.has(sha256(response.body)), `${target} answered a file that is not the console's`).toBe(true)
        else expect(JSON.parse(response.text).error.code, target).toBeTypeOf('string')
      }
    }
    expect(statuses[404]).toBeGreaterThan(0)
  })
})

describe('the freshness map', () => {
  it('colours the 50 states and DC as /v1/freshness says, and lists the territories in the table', async () => {
    const { body: freshness } = await lookup.get('/v1/freshness')
    const page = await browser.open('/')
    await page.waitForSelector('#freshness-map path[data-status]:not([data-status="none"])')
    const drawn = await page.$$eval('#freshness-map path', (paths) => paths.map((p) => ({ code: p.getAttribute('data-state')!, status: p.getAttribute('data-status')!, fill: p.getAttribute('fill')! })))
    const legend = new Map(await page.$$eval('#freshness-legend li', (items) => items.map((li) => [li.getAttribute('data-status')!, li.getAttribute('data-colour')!] as const)))
    const territories = STATES.filter((state) => state.code === 'PR').map((state) => state.code.toLowerCase())
    const expected = (freshness.states as { code: string; status: string }[]).filter((record) => !territories.includes(record.code))
    expect(expected).toHaveLength(51)
    expect(drawn.map((state) => state.code).sort()).toEqual(expected.map((record) => record.code).sort())
    for (const record of expected) {
      const state = drawn.find((d) => d.code === record.code)!
      expect(state.status, record.code).toBe(record.status)
      expect(state.fill, record.code).toBe(legend.get(record.status))
    }
    // One colour per status, none the grey of a state without data.
    expect(new Set(legend.values()).size).toBe(legend.size)
    const rows = await page.$$eval('#freshness-table tbody tr', (trs) => trs.map((tr) => ({ code: tr.getAttribute('data-state'), status: tr.getAttribute('data-status') })))
    expect(rows).toEqual((freshness.states as { code: string; status: string }[]).map(({ code, status }) => ({ code, status })))
    for (const code of territories) expect(rows.map((row) => row.code)).toContain(code)
    await screenshot(page, 'freshness')
    await page.close()
  })

  it("shows a state's class, status, source, edition, dates and rows on hover and on tap", async () => {
    const { body: freshness } = await lookup.get('/v1/freshness')
    const page = await browser.open('/')
    await page.waitForSelector('#freshness-map path[data-status]:not([data-status="none"])')
    for (const [code, act] of [['ga', 'hover'], ['tx', 'tap'], ['ct', 'hover']] as const) {
      const record = freshness.states.find((state: { code: string }) => state.code === code)
      const target = page.locator(`#freshness-map path[data-state="${code}"]`)
      if (act === 'hover') await target.hover({ force: true })
      else await target.click({ force: true })
      const details = page.locator('#state-details')
      await expect.poll(() => details.locator('h2').textContent()).toBe(`${record.name} (${code.toUpperCase()})`)
      const text = (await details.textContent())!
      expect(text).toContain(record.klass)
      expect(text).toContain(record.source_kind === 'aggregator' ? 'aggregator estimate' : record.source_kind)
      if (record.source_kind !== 'statute') expect(text).toContain(record.feed)
      expect(text).toContain(record.edition ?? '—')
      expect(text).toContain(record.effective_through ?? '—')
      expect(text).toContain(record.last_refreshed_at ? record.last_refreshed_at.slice(0, 16).replace('T', ' ') : '—')
      expect(text).toContain(record.rows.toLocaleString('en-US'))
    }
    await page.close()
  })

  it('checks again every hour with the ETag it was given, and keeps the data on a 304', async () => {
    const checks: { status: number; ifNoneMatch: string | undefined; etag: string | null }[] = []
    const page = await browser.open('/', {
      beforeLoad: async (p) => {
        await p.clock.install()
        p.on('response', async (response) => {
          if (!response.url().endsWith('/v1/freshness')) return
          checks.push({ status: response.status(), ifNoneMatch: response.request().headers()['if-none-match'], etag: await response.headerValue('etag') })
        })
      },
    })
    await page.waitForSelector('#freshness-map path[data-status]:not([data-status="none"])')
    expect(checks).toHaveLength(1)
    expect(checks[0]).toMatchObject({ status: 200, ifNoneMatch: undefined })
    await page.clock.runFor(59 * 60 * 1000)
    expect(checks).toHaveLength(1)
    await page.clock.runFor(60 * 1000)
    await expect.poll(() => checks.length).toBe(2)
    expect(checks[1]).toMatchObject({ status: 304, ifNoneMatch: checks[0].etag })
    await expect.poll(() => page.locator('#freshness-status').textContent()).toContain('(unchanged)')
    expect(await page.locator('#freshness-map path[data-status="none"]').count()).toBe(0)
    await page.close()
  })
})

type Shown = { kind: 'answer'; combined: string; answer: any; curl: string } | { kind: 'problem'; heading: string; message: string; envelope: any; curl: string | null }

/** Fills the playground and sends it; what the page shows. */
async function playground(page: Page, fields: { key?: string; state?: string; mode: 'zip' | 'address' | 'place' | 'point'; values: Record<string, string>; full?: boolean; strict?: boolean; asOf?: string }): Promise<Shown> {
  await page.fill('#api-key', fields.key ?? lookup.key)
  await page.fill('#state', fields.state ?? 'ga')
  await page.check(`input[name="input-mode"][value="${fields.mode}"]`)
  for (const [id, value] of Object.entries(fields.values)) await page.fill(`#${id}`, value)
  await page.check(`input[name="shape"][value="${fields.full ? 'full' : 'simple'}"]`)
  await page.setChecked('#strict', fields.strict ?? false)
  await page.fill('#as-of', fields.asOf ?? '')
  await page.click('#lookup-submit')
  await page.waitForSelector('#lookup-result .answer, #lookup-result .problem')
  const result = page.locator('#lookup-result')
  const curl = (await result.locator('[data-part="curl"]').count()) ? await result.locator('[data-part="curl"]').textContent() : null
  if (await result.locator('.answer').count()) {
    return { kind: 'answer', combined: (await result.locator('[data-field="combined_rate"]').textContent())!, answer: JSON.parse((await result.locator('details.raw pre').textContent())!), curl: curl! }
  }
  const envelope = (await result.locator('details.envelope pre').count()) ? JSON.parse((await result.locator('details.envelope pre').textContent())!) : null
  return { kind: 'problem', heading: (await result.locator('.problem h2').textContent())!, message: (await result.locator('.problem p').first().textContent())!, envelope, curl }
}

/** Runs the curl command shown, with the key in $TAXATLAS_API_KEY. */
async function runCurl(command: string): Promise<unknown> {
  const { stdout } = await execa('bash', ['-c', command], { env: { TAXATLAS_API_KEY: lookup.key } })
  return JSON.parse(stdout)
}

describe('the lookup playground', () => {
  let page: Page
  beforeAll(async () => {
    page = await browser.open('/lookup')
  })
  afterAll(() => page?.close())

  const modes = [
    { mode: 'zip', values: { zip: '30303' }, params: { zip: '30303' } },
    { mode: 'address', values: { address: '55 Trinity Ave SW, Atlanta, GA 30303' }, params: { address: '55 Trinity Ave SW, Atlanta, GA 30303' } },
    { mode: 'place', values: { location: 'Atlanta, GA' }, params: { location: 'Atlanta, GA' } },
    { mode: 'point', values: { lat: '33.749', lng: '-84.388' }, params: { lat: '33.749', lng: '-84.388' } },
  ] as const

  for (const { mode, values, params } of modes) {
    it(`${mode} mode shows the served rate, and a curl command that gets the same answer`, async () => {
      const shown = await playground(page, { mode, values })
      const query = new URLSearchParams(params).toString()
      const served = await lookup.get(`/v1/tax/ga?${query}`)
      expect(served.status).toBe(200)
      expect(shown.kind).toBe('answer')
      if (shown.kind !== 'answer') return
      expect(shown.combined).toBe(served.body.rate.combined_rate)
      expect(shown.answer).toEqual(served.body)
      expect(shown.curl).toBe(`curl -sS '${lookup.server.url}/v1/tax/ga?${query}&mode=simple' -H "X-API-Key: $TAXATLAS_API_KEY"`)
      expect(shown.curl).not.toContain(lookup.key)
      expect(await runCurl(shown.curl)).toEqual(served.body)
      const parts = await page.locator('[data-part="parts"] tbody tr').allTextContents()
      for (const field of ['state_rate', 'county_rate', 'city_rate', 'combined_district_rate', 'combined_rate']) expect(parts.join(' ')).toContain(served.body.rate[field])
      expect(await page.locator('[data-field="confidence"]').textContent()).toBe(served.body.meta.confidence)
      expect(await page.locator('[data-part="warnings"] li').count()).toBe(served.body.meta.warnings.length)
    })
  }
  it('full mode lists every candidate of an ambiguous ZIP with its weight', async () => {
    const entry = ambiguousZip(snapshot, 'GA', TODAY)
    const shown = await playground(page, { mode: 'zip', values: { zip: entry.zip }, full: true })
    expect(shown.kind).toBe('answer')
    const weights = await page.locator('[data-part="candidates"] [data-field="weight"]').allTextContents()
    expect(weights.map(Number)).toEqual(entry.candidates.map((candidate) => candidate.weight))
    const rates = await page.locator('[data-part="candidates"] tbody tr').allTextContents()
    entry.candidates.forEach((candidate, i) => expect(rates[i]).toContain(formatRate(snapshot.rates.combinedRate(candidate.stack, TODAY))))
    expect(await page.locator('[data-part="rows"] tbody tr').count()).toBeGreaterThan(0)
    await screenshot(page, 'lookup-full')
  })

  it('shows the repairs of a wrong state, and strict mode refuses it with the correction', async () => {
    const repaired = await playground(page, { state: 'ct', mode: 'zip', values: { zip: '30303' } })
    expect(repaired.kind).toBe('answer')
    const repairs = await page.locator('[data-part="normalization"] tbody tr').allTextContents()
    expect(repairs.join(' ')).toContain('state_derived_from_zip')
    expect(await page.locator('[data-part="warnings"]').textContent()).toContain('CT')
    await screenshot(page, 'lookup')
    const strict = await playground(page, { state: 'ct', mode: 'zip', values: { zip: '30303' }, strict: true })
    expect(strict.kind).toBe('problem')
    if (strict.kind !== 'problem') return
    expect(strict.heading).toBe('400 INVALID_INPUT')
    expect(strict.envelope.error.correction.rule_id).toBe('state_derived_from_zip')
  })

  it('a bad key shows the 401 message', async () => {
    const shown = await playground(page, { key: 'tx_live_not_a_real_key', mode: 'zip', values: { zip: '30303' } })
    expect(shown.kind).toBe('problem')
    if (shown.kind !== 'problem') return
    expect(shown.heading).toBe('401 UNAUTHORIZED')
    expect(shown.message).toBe('Invalid X-API-Key.')
    expect(shown.envelope.error).toMatchObject({ code: 'UNAUTHORIZED', message: 'Invalid X-API-Key.' })
    await screenshot(page, 'lookup-401')
  })

  it('malformed and oversized input shows the envelope the server sent', async () => {
    const cases = [
      { mode: 'point', values: { lat: 'north', lng: '-84.388' } },
      { mode: 'place', values: { location: 'Atlanta '.repeat(40) } },
      { mode: 'zip', values: { zip: '30303' }, asOf: '2026-02-30' },
      { mode: 'zip', values: { zip: '3030' } },
      { mode: 'address', values: { address: `${'9'.repeat(6_000)} Main St` } },
      { mode: 'address', values: { address: 'x'.repeat(20_000) } },
    ] as const
    for (const input of cases) {
      const shown = await playground(page, input)
      expect(shown.kind, JSON.stringify(input).slice(0, 80)).toBe('problem')
      if (shown.kind !== 'problem') continue
      // The same request straight to the server: the page shows its status, code and body.
      const sent = browser.requests.filter((url) => url.includes('/v1/tax/')).at(-1)!
      const direct = await fetch(sent, { headers: { 'X-API-Key': lookup.key } })
      const body = await direct.json()
      expect(shown.heading).toBe(`${direct.status} ${body.error.code}`)
      expect(shown.envelope.error.code).toBe(body.error.code)
      expect(shown.envelope.error.message).toBe(body.error.message)
    }
    await screenshot(page, 'lookup-invalid')
  })
})

describe('the account page', () => {
  it('shows usage against the quota, the tier and rate limit, and nexus health against the alert band', async () => {
    const { api_key: key } = await lookup.server.createAccount('starter', 'console account')
    for (const zip of ['30303', '30308', '30309']) expect((await lookup.get(`/v1/tax/ga?zip=${zip}`, key)).status).toBe(200)
    // Orders putting GA in the alert band and TX past its threshold, from each state's recorded rule.
    const rule = (code: string) => stateFacts(code)!.nexus.dollarThreshold!
    const orders = [
      { transaction_id: 'console-ga', to_state: 'GA', to_zip: '30303', amount: String((rule('GA') * 85) / 100) },
      { transaction_id: 'console-tx', to_state: 'TX', to_zip: '77002', amount: String((rule('TX') * 6) / 5) },
    ]
    for (const order of orders) {
      const response = await fetch(`${lookup.server.url}/v1/portability/orders`, {
        method: 'POST',
        headers: { 'X-API-Key': key, 'Content-Type': 'application/json' },
        body: JSON.stringify({ ...order, transaction_date: TODAY }),
      })
      expect(response.status, await response.clone().text()).toBe(201)
    }
    const account = (await lookup.get('/v1/account', key)).body
    const health = (await lookup.get('/v1/portability/nexus/health', key)).body
    expect(health.alerts.map((alert: { state: string }) => alert.state)).toContain('GA')

    const page = await browser.open('/account')
    await page.fill('#api-key', key)
    await page.click('#key-form button')
    await page.waitForSelector('#account-usage:not([hidden])')
    expect(await page.locator('[data-field="usage"]').textContent()).toContain(`${account.quota.used} of ${account.quota.limit.toLocaleString('en-US')} lookups used in ${account.quota.period}`)
    expect(await page.locator('[data-field="tier"]').textContent()).toBe('starter')
    expect(await page.locator('[data-field="rate-limit"]').textContent()).toBe(`${account.rate_limit.requests_per_second} requests per second, bursts of ${account.rate_limit.burst}`)

    const band = page.locator('.nexus-chart rect.band')
    expect(Number(await band.getAttribute('data-from'))).toBeCloseTo(1 - Number(health.band), 10)
    const bandLeft = Number(await band.getAttribute('x'))
    const bandRight = bandLeft + Number(await band.getAttribute('width'))
    for (const state of health.states.filter((s: { status: string }) => s.status === 'approaching' || s.status === 'exceeded')) {
      const bar = page.locator(`.nexus-chart rect.bar[data-state="${state.state}"]`)
      expect(await bar.getAttribute('data-status')).toBe(state.status)
      const end = Number(await bar.getAttribute('x')) + Number(await bar.getAttribute('width'))
      if (state.status === 'approaching') expect(end > bandLeft && end <= bandRight, `${state.state} ends in the band`).toBe(true)
      else expect(end).toBeGreaterThan(bandRight)
    }
    expect(await page.locator('[data-part="alerts"] [data-alert="GA"]').textContent()).toBe(health.alerts.find((a: { state: string }) => a.state === 'GA').message)
    await screenshot(page, 'account')
    await page.close()
  })

  it('shows the 401 message for a bad key', async () => {
    const page = await browser.open('/account')
    await page.fill('#api-key', 'tx_live_not_a_real_key')
    await page.click('#key-form button')
    await expect.poll(() => page.locator('#account-status .problem-message').textContent()).toBe('Invalid X-API-Key.')
    await page.close()
  })
})

describe('the changes page', () => {
  /** Every change /v1/changes lists for this query, all pages. */
  async function served(query: string, key = lookup.key): Promise<any[]> {
    const changes = []
    let cursor = ''
    do {
      const { body } = await lookup.get(`/v1/changes?${query}&limit=1000${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, key)
      changes.push(...body.changes)
      cursor = body.next_cursor ?? ''
    } while (cursor)
    return changes
  }

  /** Fills the form and sends it; the rows the page shows once it has answered. */
  async function shownChanges(page: Page, fields: { key?: string; states: string; from: string }) {
    await page.fill('#api-key', fields.key ?? lookup.key)
    await page.fill('#changes-states', fields.states)
    await page.fill('#changes-from', fields.from)
    await page.click('#changes-submit')
    await page.waitForSelector('#changes-status [data-field="summary"], #changes-status .problem')
    return page.$$eval('#changes-list tbody tr', (rows) =>
      rows.map((row) => ({
        state: row.getAttribute('data-state'),
        code: row.getAttribute('data-code'),
        level: row.getAttribute('data-level'),
        effective: row.querySelector('[data-field="effective"]')!.textContent,
        rates: row.querySelector('[data-field="rates"]')!.textContent,
        source: row.querySelector('[data-field="source"]')!.textContent,
        href: row.querySelector('[data-field="source"] a')?.getAttribute('href') ?? null,
      })),
    )
  }

  /** A 5-decimal rate in whole 1e-5 units, as a percentage with its trailing zeros dropped. */
  const rateText = (rate: string | null) => {
    if (rate === null) return 'none'
    const [whole, fraction = ''] = rate.split('.')
    const units = BigInt(`${whole}${fraction.padEnd(5, '0')}`)
    return `${units / 1000n}.${String(units % 1000n).padStart(3, '0')}`.replace(/\.?0+$/, '') + '%'
  }

  it("lists GA's changes from a date as /v1/changes does, by effective date, each with its source file", async () => {
    const from = '2022-01-01'
    const expected = await served(`states=ga&from=${from}`)
    expect(expected.length).toBeGreaterThan(1)
    expect(new Set(expected.map((change) => change.effective)).size).toBeGreaterThan(1)
    const page = await browser.open('/changes')
    const rows = await shownChanges(page, { states: 'ga', from })
    expect(rows).toEqual(
      expected.map((change) => ({
        state: 'GA',
        code: change.jurisdiction.code,
        level: change.jurisdiction.level,
        effective: change.effective,
        rates: `${rateText(change.old_rate)} → ${rateText(change.new_rate)}`,
        source: `${change.source.file}${change.source.edition ? ` edition ${change.source.edition}` : ''}`,
        href: change.source.url,
      })),
    )
    const dates = rows.map((row) => row.effective!)
    expect(dates).toEqual([...dates].sort())
    expect(await page.locator('#changes-status').textContent()).toContain(`${expected.length.toLocaleString('en-US')} changes effective on or after ${from} in GA (the states asked)`)
    await screenshot(page, 'changes')
    await page.close()
  })

  it("without states lists the account's nexus states, from today when no date is given", async () => {
    const { api_key: key } = await lookup.server.createAccount('starter', 'changes account')
    const put = await fetch(`${lookup.server.url}/v1/portability/nexus`, {
      method: 'PUT',
      headers: { 'X-API-Key': key, 'Content-Type': 'application/json' },
      body: JSON.stringify({ regions: [{ state: 'GA' }, { state: 'WI' }] }),
    })
    expect(put.status).toBe(200)
    const expected = await served(`from=${TODAY}`, key)
    const page = await browser.open('/changes')
    const rows = await shownChanges(page, { key, states: '', from: '' })
    expect(rows.map((row) => `${row.state} ${row.level} ${row.code} ${row.effective}`)).toEqual(expected.map((c) => `${c.state} ${c.jurisdiction.level} ${c.jurisdiction.code} ${c.effective}`))
    expect(await page.locator('#changes-status').textContent()).toContain(`on or after ${TODAY} in GA, WI (your account's nexus states)`)
    await page.close()
  })

  it('shows the envelope of a state code the API refuses', async () => {
    const page = await browser.open('/changes')
    await shownChanges(page, { states: 'gx', from: '' })
    expect(await page.locator('#changes-status .problem h2').textContent()).toBe('422 VALIDATION_ERROR')
    await page.close()
  })

  it('shows every text whole and readable on a 1280×800 screen and a 390×844 phone', async () => {
    for (const viewport of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
      const page = await browser.open('/changes', { beforeLoad: (p) => p.setViewportSize(viewport) })
      const rows = await shownChanges(page, { states: 'ga', from: '2022-01-01' })
      expect(rows.length).toBeGreaterThan(0)
      await screenshot(page, `changes-${viewport.width}x${viewport.height}`)
      expect(await unreadableTexts(page, 'main'), `${viewport.width}×${viewport.height}`).toEqual([])
      await page.close()
    }
  })
})

describe('the API reference', () => {
  it('renders every operation of the live /openapi.json', async () => {
    const { body: document } = await lookup.get('/openapi.json')
    // Swagger UI draws the operations of `paths` and those of `webhooks` (what a delivery sends) alike.
    const operations = [document.paths, document.webhooks ?? {}].flatMap((group: Record<string, object>) => Object.values(group).flatMap((methods) => Object.keys(methods)))
    const page = await browser.open('/docs')
    await expect.poll(() => page.locator('#swagger-ui .opblock').count()).toBe(operations.length)
    expect(await page.locator('#docs-status').textContent()).toContain('describes it now')
    await screenshot(page, 'docs')
    await page.close()
  })

  it('shows every text whole and readable, its version badges among them, on a 1280×800 screen and a 390×844 phone', async () => {
    for (const viewport of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
      const page = await browser.open('/docs', { beforeLoad: (p) => p.setViewportSize(viewport) })
      await expect.poll(() => page.locator('#swagger-ui .opblock').count()).toBeGreaterThan(0)
      const badges = await page.locator('#swagger-ui .info .title small').allTextContents()
      expect(badges.map((badge) => badge.trim())).toEqual([expect.stringMatching(/^\d+\.\d+\.\d+$/), expect.stringMatching(/^OAS 3\.\d/)])
      await page.locator('#swagger-ui .info .title').screenshot({ path: path.join(SCREENSHOTS, `console-docs-title-${viewport.width}x${viewport.height}.png`) })
      expect(await unreadableTexts(page, 'main'), `${viewport.width}×${viewport.height}`).toEqual([])
      await page.close()
    }
  })

  it('the lookup and account pages say how to get a key, and the lookup page links to the usage once a key is typed', async () => {
    for (const route of ['/lookup', '/account']) {
      const page = await browser.open(route)
      expect(await page.locator('[data-part="key-help"]').textContent()).toMatch(/npm run -s admin -- create-account --name "Your company" --tier trial/)
      if (route === '/lookup') {
        expect(await page.locator('#usage-link').isHidden()).toBe(true)
        await page.fill('#api-key', lookup.key)
        expect(await page.locator('#usage-link').isVisible()).toBe(true)
        expect(await page.locator('#usage-link a').getAttribute('href')).toBe('/account')
      }
      await page.close()
    }
  })
})

describe('the client package in the console page', () => {
  let packed: PackedClient
  let unpacked: string
  beforeAll(async () => {
    packed = await packClient()
    unpacked = await mkdtemp(path.join(os.tmpdir(), 'taxatlas-client-unpacked-'))
    await execa('tar', ['-xzf', packed.tarball, '-C', unpacked])
  })
  afterAll(async () => {
    await packed?.dispose()
    if (unpacked) await rm(unpacked, { recursive: true, force: true })
  })

  it('works from the page, against the server it came from', async () => {
    const module = await readFile(path.join(unpacked, 'package/dist/esm/index.js'), 'utf8')
    const page = await browser.open('/lookup', {
      // The tarball's ES module, served to the page as if the server held it.
      beforeLoad: (p) => p.route('**/from-tarball/index.js', (route) => route.fulfill({ contentType: 'text/javascript', body: module })),
    })
    // A script of its own, not a function of this file: the test runner rewrites import() in its code.
    const script = `(async (key) => {
      const { AuthenticationError, TaxatlasClient } = await import(location.origin + '/from-tarball/index.js')
      const client = new TaxatlasClient({ baseUrl: location.origin, apiKey: key, maxRetries: 0 })
      let refused = null
      try {
        await new TaxatlasClient({ baseUrl: location.origin, apiKey: 'tx_live_not_a_real_key', maxRetries: 0 }).account()
      } catch (error) {
        refused = { isAuthenticationError: error instanceof AuthenticationError, message: error.message }
      }
      return { freshness: await client.freshness(), lookup: await client.tax('ga', { zip: '30303', mode: 'full' }), refused }
    })(${JSON.stringify(lookup.key)})`
    const result = (await page.evaluate(script)) as { freshness: unknown; lookup: any; refused: unknown }
    expect(result.freshness).toEqual((await lookup.get('/v1/freshness')).body)
    const served = (await lookup.get('/v1/tax/ga?zip=30303&mode=full')).body
    expect(result.lookup.rate).toEqual(served.rate)
    expect(result.lookup.ambiguous_zip5).toEqual(served.ambiguous_zip5)
    expect(result.refused).toEqual({ isAuthenticationError: true, message: 'Invalid X-API-Key.' })
    await page.close()
  })
})

describe('a server that is down', () => {
  it('is named as such on the lookup and freshness pages, and nothing throws', async () => {
    const doomed = await startLookupServer(artifacts, { TAXATLAS_CONSOLE_DIR: consoleDir })
    const other = await startBrowser(doomed.server.url)
    try {
      const lookupPage = await other.open('/lookup')
      const freshnessPage = await other.open('/')
      await freshnessPage.waitForSelector('#freshness-map path[data-status]:not([data-status="none"])')
      await doomed.close()
      await lookupPage.fill('#api-key', doomed.key)
      await lookupPage.click('#lookup-submit')
      const problem = lookupPage.locator('#lookup-result .problem')
      await expect.poll(() => problem.locator('h2').textContent()).toBe('Server unreachable')
      expect(await problem.textContent()).toContain(`The taxatlas server at ${doomed.server.url} cannot be reached`)
      await screenshot(lookupPage, 'lookup-server-down')

      await freshnessPage.click('#freshness-refresh')
      await expect.poll(() => freshnessPage.locator('#freshness-problem h2').textContent()).toBe('Server unreachable')
      expect(await freshnessPage.locator('#freshness-status').textContent()).toMatch(/failed; showing the data of/)
      // The last data stays on the map.
      expect(await freshnessPage.locator('#freshness-map path[data-status="none"]').count()).toBe(0)
      expect(other.problems).toEqual([])
      expect(other.foreign).toEqual([])
    } finally {
      await other.close()
      await doomed.close()
    }
  })
})

describe('every page', () => {
  it('asked nothing of any host but the server, threw nothing and broke no CSP rule', () => {
    expect(browser.requests.length).toBeGreaterThan(20)
    expect(browser.foreign).toEqual([])
    for (const url of browser.requests) expect(new URL(url).origin).toBe(lookup.server.url)
    expect(browser.problems).toEqual([])
  })
})
