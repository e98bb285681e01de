// The whole console on a 390×844 phone, in real headless Chromium against a real server (the lookup
// snapshots of every state, a weekly refresh schedule, webhooks allowed to a loopback receiver):
// one tab walks every page from the navigation, clicking through each page's controls as a user
// does. On each page nothing is wider than the screen, every control (links, buttons, fields) can
// be clicked where it is, and every text is readable; the key typed once on the lookup page serves
// the pages after it. Screenshots go to build/screenshots (console-phone-<page>.png).
import { mkdir, mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { buildConsole } from '../console/build-console.ts'
import { startBrowser, type ConsoleBrowser } from './support/browser.ts'
import { startLookupServer, type LookupServer } from './support/lookup-server.ts'
import { lookupArtifacts } from './support/lookup-snapshots.ts'
import { PROJECT_ROOT } from './support/shared.ts'
import { unreachableControls } from './support/unreachable-controls.ts'
import { unreadableTexts } from './support/unreadable-text.ts'
import { startReceiver, type Receiver } from './support/webhook-receiver.ts'

const PHONE = { width: 390, height: 844 }
const SCREENSHOTS = path.join(PROJECT_ROOT, 'build', 'screenshots')

let consoleDir: string
let receiver: Receiver
let lookup: LookupServer
let browser: ConsoleBrowser
let page: Page

beforeAll(async () => {
  const artifacts = await lookupArtifacts(inject('mirrorUrl'))
  consoleDir = await mkdtemp(path.join(os.tmpdir(), 'taxatlas-console-'))
  await buildConsole(consoleDir)
  receiver = await startReceiver()
  lookup = await startLookupServer(artifacts, {
    TAXATLAS_CONSOLE_DIR: consoleDir,
    TAXATLAS_WEBHOOK_ALLOW_LOOPBACK: '1',
    // What the freshness page tells of; a run it would start (on a Sunday at 03:00) does nothing.
    TAXATLAS_REFRESH_SCHEDULE: 'weekly',
    TAXATLAS_REFRESH_COMMAND: `${process.execPath} -e 0`,
  })
  browser = await startBrowser(lookup.server.url)
  page = await browser.open('/', {
    beforeLoad: async (p) => {
      p.on('dialog', (dialog) => void dialog.accept())
      await p.setViewportSize(PHONE)
    },
  })
  await mkdir(SCREENSHOTS, { recursive: true })
})
afterAll(async () => {
  await browser?.close()
  await lookup?.close()
  await receiver?.close()
  if (consoleDir) await rm(consoleDir, { recursive: true, force: true })
})

/** Everything a phone user must be able to see and reach on the page as it is now. */
async function expectFits(name: string): Promise<void> {
  await page.screenshot({ path: path.join(SCREENSHOTS, `console-phone-${name}.png`), fullPage: true })
  expect(await page.evaluate(() => document.documentElement.scrollWidth), `${name}: no wider than the screen`).toBeLessThanOrEqual(PHONE.width)
  expect(await unreachableControls(page), `${name}: every control can be clicked`).toEqual([])
  expect(await unreadableTexts(page, 'main'), `${name}: every text readable`).toEqual([])
}

/** Follows the navigation's link to a page, as a user taps it; resolves once the page's script has run. */
async function goTo(pageName: string): Promise<void> {
  const link = page.locator(`header.site nav a[data-page="${pageName}"]`)
  const href = (await link.getAttribute('href'))!
  await link.click()
  await page.waitForURL(`${lookup.server.url}${href}`, { waitUntil: 'domcontentloaded' })
}

describe('the console on a 390×844 phone', () => {
  it('freshness: a state tapped, the schedule this server runs told, checked again', async () => {
    await page.waitForSelector('#freshness-map path[data-status]:not([data-status="none"])')
    const { body } = await lookup.get('/v1/freshness')
    expect(body.refresh_schedule.cron).toBe('0 3 * * 0')
    const next = `${body.refresh_schedule.next_run_at.slice(0, 16).replace('T', ' ')} UTC`
    await page.locator('#freshness-map path[data-state="ga"]').click({ force: true })
    await page.waitForSelector('#state-details h2')
    expect(await page.locator('#state-details h2').textContent()).toBe('Georgia (GA)')
    expect(await page.locator('#state-details [data-field="class"]').textContent()).toBe(`auto: fetched again from its publisher at each refresh; this server refreshes every week (Sunday 03:00 UTC), next ${next}`)
    expect(await page.locator('#freshness-status').textContent()).toContain(`this server refreshes every week (Sunday 03:00 UTC), next ${next}.`)
    await page.click('#freshness-refresh')
    await page.waitForFunction(() => document.querySelector('#freshness-status')?.textContent?.includes('(unchanged)'))
    await expectFits('freshness')
  })

  it('lookup: every input mode, both shapes, and the answer', async () => {
    await goTo('lookup')
    await page.fill('#api-key', lookup.key)
    for (const mode of ['address', 'place', 'point', 'zip']) await page.click(`input[name="input-mode"][value="${mode}"]`)
    await page.fill('#zip', '30303')
    await page.click('input[name="shape"][value="full"]')
    await page.click('#strict')
    await page.click('#strict')
    await page.click('#lookup-submit')
    await page.waitForSelector('#lookup-result .answer')
    expect(await page.locator('[data-field="combined_rate"]').textContent()).toBe((await lookup.get('/v1/tax/ga?zip=30303')).body.rate.combined_rate)
    await expectFits('lookup')
  })

  it('changes: the key typed on the lookup page fills the form; a state from a date', async () => {
    await goTo('changes')
    expect(await page.inputValue('#api-key')).toBe(lookup.key)
    await page.fill('#changes-states', 'ga')
    await page.fill('#changes-from', '2022-01-01')
    await page.click('#changes-submit')
    await page.waitForSelector('#changes-status [data-field="summary"]')
    expect(await page.locator('#changes-list tbody tr').count()).toBeGreaterThan(1)
    await expectFits('changes')
  })

  it('webhooks: listed at once with the kept key; added, sent a test, its deliveries and attempts, sent again, re-addressed, given a new secret, deleted', async () => {
    await goTo('webhooks')
    await page.waitForSelector('#webhooks-status [data-field="summary"]')
    expect(await page.locator('#webhooks-status').textContent()).toBe('0 endpoints.')
    await page.fill('#webhook-url', receiver.url)
    await page.click('#webhook-create-submit')
    await page.waitForSelector('[data-part="webhooks"] button[data-action="ping"]')
    await page.click('[data-part="webhooks"] button[data-action="ping"]')
    await page.waitForSelector('#webhook-action-status [data-field="outcome"]')
    expect(await page.locator('#webhook-action-status [data-field="outcome"]').textContent()).toMatch(/^delivered: answered HTTP 200/)
    await page.click('[data-part="webhooks"] button[data-action="deliveries"]')
    await page.click('[data-part="deliveries"] button[data-delivery-action="attempts"]')
    await page.waitForSelector('[data-part="attempts"] tbody tr')
    await page.click('[data-part="deliveries"] button[data-delivery-action="redeliver"]')
    await page.waitForSelector('#webhook-action-status [data-field="sent"] [data-field="outcome"]')
    expect(receiver.received).toHaveLength(2)
    await page.click('[data-part="webhooks"] button[data-action="edit"]')
    await page.waitForSelector('#webhook-edit:not([hidden])')
    await expectFits('webhooks')
    await page.click('#webhook-edit-cancel')
    await page.click('[data-part="webhooks"] button[data-action="rotate"]')
    await page.waitForSelector('#webhook-secret:not([hidden]) [data-field="overlap"]')
    await expectFits('webhooks-new-secret')
    await page.click('[data-part="webhooks"] button[data-action="delete"]')
    await page.waitForSelector('#webhooks-list [data-field="none"]')
  })

  it('API reference: every operation drawn, one opened', async () => {
    await goTo('docs')
    await page.waitForSelector('#swagger-ui .opblock-summary')
    await page.locator('#swagger-ui .opblock-summary').first().click()
    await page.waitForSelector('#swagger-ui .opblock.is-open')
    await expectFits('docs')
  })

  it('account: shown at once with the kept key', async () => {
    await goTo('account')
    await page.waitForSelector('#account-usage:not([hidden])')
    expect(await page.locator('[data-field="tier"]').textContent()).toBe('enterprise')
    await expectFits('account')
  })

  it('threw nothing, broke no CSP rule and asked no other host', () => {
    expect(browser.problems).toEqual([])
    expect(browser.foreign).toEqual([])
  })
})
