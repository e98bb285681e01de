// The console's returns page, and the impact column of its changes page, in real headless Chromium
// against a real server (the snapshot of GA, CT, DE, TX and IL, a real store) serving the console
// built from console/: an account's recorded sales of a quarter shown by jurisdiction exactly as
// GET /v1/portability/returns answers them, the same return downloaded as the API's CSV file, a
// refused period shown with the server's envelope, each change with the account's exposure as
// GET /v1/changes?impact=true gives it; every text readable on a 1280×800 screen and a 390×844
// phone, the page no wider than the screen. Screenshots go to build/screenshots.
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { buildConsole } from '../console/build-console.ts'
import { startBrowser, type ConsoleBrowser } from './support/browser.ts'
import { startPortabilityServer, type PortabilityServer } from './support/portability-server.ts'
import { PROJECT_ROOT } from './support/shared.ts'
import { unreadableTexts } from './support/unreadable-text.ts'

const SCREENSHOTS = path.join(PROJECT_ROOT, 'build', 'screenshots')
const QUARTER = { from: '2026-07-01', to: '2026-09-30' }

let consoleDir: string
let server: PortabilityServer
let browser: ConsoleBrowser
let key: string

const order = (id: string, date: string, extra: Record<string, unknown> = {}) => ({ transaction_id: id, transaction_date: date, to_zip: '30303', to_state: 'GA', amount: '100.00', shipping: '0', sales_tax: '8.90', ...extra })

beforeAll(async () => {
  consoleDir = await mkdtemp(path.join(os.tmpdir(), 'taxatlas-console-'))
  await buildConsole(consoleDir)
  server = await startPortabilityServer(inject('mirrorUrl'), { TAXATLAS_CONSOLE_DIR: consoleDir }, 'GA,CT,DE,TX,IL')
  browser = await startBrowser(server.url)
  await mkdir(SCREENSHOTS, { recursive: true })
  key = (await server.createAccount('enterprise', 'console returns')).api_key
  const orders = [
    order('c-1', '2026-07-15'),
    order('c-2', '2026-08-20', { to_zip: '30002', amount: '250.00', sales_tax: '19.00' }),
    order('c-3', '2026-09-01', { amount: '500.00', exemption_type: 'wholesale', sales_tax: '0' }),
    order('c-1-refund', '2026-09-10', { kind: 'refund', transaction_reference_id: 'c-1', amount: '25.00', sales_tax: '2.23' }),
    order('c-old', '1995-06-15', { amount: '42.00' }),
    // Within the 90 days before the server's today (2026-11-21): the changes page's exposure.
    order('c-recent', '2026-11-02', { amount: '300.00', sales_tax: '26.70' }),
  ]
  for (const body of orders) expect((await server.call(key, 'POST', '/v1/portability/orders', body)).status).toBe(201)
})
afterAll(async () => {
  await browser?.close()
  await server?.dispose()
  if (consoleDir) await rm(consoleDir, { recursive: true, force: true })
})

const screenshot = (page: Page, name: string) => page.screenshot({ path: path.join(SCREENSHOTS, `console-${name}.png`), fullPage: true })

async function showReturn(page: Page, fields: { state: string; from: string; to: string }) {
  await page.fill('#api-key', key)
  await page.fill('#returns-state', fields.state)
  await page.fill('#returns-from', fields.from)
  await page.fill('#returns-to', fields.to)
  await page.click('#returns-submit')
  await page.waitForSelector('#returns-status [data-field="summary"], #returns-status .problem')
}

const shownRows = (page: Page) =>
  page.$$eval('[data-part="return-rows"] tbody tr', (rows) =>
    rows.map((row) => {
      const field = (name: string) => row.querySelector(`[data-field="${name}"]`)!.textContent
      return { level: row.getAttribute('data-level'), code: row.getAttribute('data-code'), rate: row.getAttribute('data-rate'), taxable: field('taxable'), due: field('due'), collected: field('collected'), difference: field('difference'), filing: field('filing') }
    }),
  )

describe('the returns page', () => {
  it('shows the quarter by jurisdiction as the API answers it, with its totals, exemptions and sources', async () => {
    const expected = (await server.call(key, 'GET', `/v1/portability/returns?state=GA&from=${QUARTER.from}&to=${QUARTER.to}`)).body
    expect(expected.rows.length).toBeGreaterThan(1)
    const page = await browser.open('/returns')
    await showReturn(page, { state: 'ga', ...QUARTER })
    expect(await shownRows(page)).toEqual(
      expected.rows.map((row: any) => ({
        level: row.jurisdiction.level,
        code: row.jurisdiction.code,
        rate: row.rate,
        taxable: row.taxable_sales,
        due: row.tax_due,
        collected: row.tax_collected,
        difference: row.difference,
        filing: row.filing_code ? `${row.filing_code.code} ${row.filing_code.system}` : 'not given',
      })),
    )
    const totals = page.locator('[data-part="return-totals"]')
    expect(await totals.locator('[data-field="due"]').textContent()).toBe(expected.totals.tax_due)
    expect(await totals.locator('[data-field="collected"]').textContent()).toBe(expected.totals.tax_collected)
    expect(await totals.locator('[data-kind="wholesale"]').textContent()).toContain(expected.totals.exempt_sales.wholesale)
    expect(await page.locator('#returns-status').textContent()).toContain(`Georgia, ${QUARTER.from} to ${QUARTER.to}: ${expected.totals.transactions} transactions, tax due ${expected.totals.tax_due}`)
    expect(await page.locator('[data-part="return-sources"] li').count()).toBe(expected.sources.length)
    await screenshot(page, 'returns')
    await page.close()
  })

  it("lists what it could not assign, and says which days no held rate data covers", async () => {
    const page = await browser.open('/returns')
    await showReturn(page, { state: 'GA', from: '1995-01-01', to: '1995-12-31' })
    expect(await page.locator('[data-part="return-unassigned"] tbody tr').getAttribute('data-reason')).toBe('rates_not_held')
    expect(await page.locator('[data-part="return-notices"] [data-code="rates_not_held"]').count()).toBe(1)
    expect(await page.locator('[data-part="return-sources"] [data-data="none"]').count()).toBe(1)
    await page.close()
  })

  it('downloads the same return as the API\'s CSV file', async () => {
    const page = await browser.open('/returns')
    await page.fill('#api-key', key)
    await page.fill('#returns-state', 'GA')
    await page.fill('#returns-from', QUARTER.from)
    await page.fill('#returns-to', QUARTER.to)
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#returns-csv')])
    expect(download.suggestedFilename()).toBe(`taxatlas-return-GA-${QUARTER.from}-${QUARTER.to}.csv`)
    const file = await fetch(`${server.url}/v1/portability/returns?state=GA&from=${QUARTER.from}&to=${QUARTER.to}&format=csv`, { headers: { 'X-API-Key': key } })
    expect(await readFile((await download.path())!, 'utf8')).toBe(await file.text())
    await page.close()
  })

  it('shows the envelope of a period the API refuses', async () => {
    const page = await browser.open('/returns')
    await showReturn(page, { state: 'GA', from: '2026-09-30', to: '2026-07-01' })
    expect(await page.locator('#returns-status .problem h2').textContent()).toBe('422 VALIDATION_ERROR')
    expect(await page.locator('#returns-status .problem').textContent()).toContain('query.to')
    await page.close()
  })

  it('shows every text whole and readable, and nothing wider than the screen, on a 1280×800 screen and a 390×844 phone', async () => {
    for (const viewport of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
      const page = await browser.open('/returns', { beforeLoad: (p) => p.setViewportSize(viewport) })
      await showReturn(page, { state: 'GA', ...QUARTER })
      await screenshot(page, `returns-${viewport.width}x${viewport.height}`)
      expect(await unreadableTexts(page, 'main'), `${viewport.width}×${viewport.height}`).toEqual([])
      expect(await page.evaluate(() => document.documentElement.scrollWidth), `${viewport.width}×${viewport.height}`).toBeLessThanOrEqual(viewport.width)
      await page.close()
    }
  })
})

describe('the changes page', () => {
  it("gives each change the account's sales of the last 90 days it touches and the tax difference, as /v1/changes?impact=true does", async () => {
    const expected = (await server.call(key, 'GET', '/v1/changes?states=GA&from=2020-01-01&impact=true&limit=1000')).body.changes
    expect(expected.some((change: any) => change.impact.transactions > 0)).toBe(true)
    for (const viewport of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
      const page = await browser.open('/changes', { beforeLoad: (p) => p.setViewportSize(viewport) })
      await page.fill('#api-key', key)
      await page.fill('#changes-states', 'GA')
      await page.fill('#changes-from', '2020-01-01')
      await page.click('#changes-submit')
      await page.waitForSelector('#changes-status [data-field="summary"]')
      const shown = await page.$$eval('#changes-list tbody tr', (rows) => rows.map((row) => ({ exposure: row.querySelector('[data-field="exposure"]')!.textContent, difference: row.querySelector('[data-field="tax-difference"]')!.textContent })))
      expect(shown).toEqual(expected.map((change: any) => ({ exposure: change.impact.transactions ? `${change.impact.gross_sales} in ${change.impact.transactions} transactions` : 'none', difference: change.impact.tax_difference })))
      expect(await page.locator('#changes-status [data-field="impact-window"]').textContent()).toContain(`${expected[0].impact.window.from} to ${expected[0].impact.window.to}`)
      await screenshot(page, `changes-impact-${viewport.width}x${viewport.height}`)
      expect(await unreadableTexts(page, 'main'), `${viewport.width}×${viewport.height}`).toEqual([])
      expect(await page.evaluate(() => document.documentElement.scrollWidth), `${viewport.width}×${viewport.height}`).toBeLessThanOrEqual(viewport.width)
      await page.close()
    }
  })
})

describe('every page', () => {
  it('asked nothing of any host but the server, threw nothing and broke no CSP rule', () => {
    expect(browser.foreign).toEqual([])
    expect(browser.problems).toEqual([])
  })
})
