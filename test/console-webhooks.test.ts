// The console's webhooks page in real headless Chromium against a real server announcing rate
// changes to loopback receivers (test/support/webhook-scene.ts): an account holder lists, adds
// (the signing secret shown once, and the one the deliveries are signed with), re-addresses,
// gives a new secret (the previous one signing beside it for the overlap), enables again and
// deletes endpoints, sends a test event and a delivery again and sees each outcome and every
// attempt, and sees each delivery's status as GET /v1/webhooks/{id}/deliveries has it; refusals
// show the server's envelope; every text is readable on a 1280×800 screen and a 390×844 phone,
// and the page no wider than the screen. Screenshots go to build/screenshots.
import { mkdir, mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildConsole } from '../console/build-console.ts'
import { startBrowser, type ConsoleBrowser } from './support/browser.ts'
import { documentedVerifier, type Verifier } from './support/documented-verifier.ts'
import { PROJECT_ROOT } from './support/shared.ts'
import { unreadableTexts } from './support/unreadable-text.ts'
import type { Received } from './support/webhook-receiver.ts'
import { LOOPBACK_ENV, SECRET, webhookScenes, type SceneOptions, type WebhookScene } from './support/webhook-scene.ts'

const SCREENSHOTS = path.join(PROJECT_ROOT, 'build', 'screenshots')

let consoleDir: string
let verify: Verifier
beforeAll(async () => {
  verify = await documentedVerifier()
  consoleDir = await mkdtemp(path.join(os.tmpdir(), 'taxatlas-console-'))
  await buildConsole(consoleDir)
  await mkdir(SCREENSHOTS, { recursive: true })
})
afterAll(async () => {
  if (consoleDir) await rm(consoleDir, { recursive: true, force: true })
})

const startScene = webhookScenes()

/** A scene whose server serves the console, and a browser on it; `test` runs with both, the browser closed after. */
async function withConsole(options: SceneOptions, test: (s: WebhookScene, browser: ConsoleBrowser) => Promise<void>): Promise<void> {
  const s = await startScene({ ...options, env: { ...LOOPBACK_ENV, ...options.env, TAXATLAS_CONSOLE_DIR: consoleDir } })
  const browser = await startBrowser(s.server.url)
  try {
    await test(s, browser)
    expect(browser.problems).toEqual([])
    expect(browser.foreign).toEqual([])
  } finally {
    await browser.close()
  }
}

/** Opens /webhooks with the key typed and shown; dialogs (the delete confirmation) are accepted. */
async function openPage(browser: ConsoleBrowser, key: string, viewport?: { width: number; height: number }): Promise<Page> {
  const page = await browser.open('/webhooks', {
    beforeLoad: async (p) => {
      p.on('dialog', (dialog) => void dialog.accept())
      if (viewport) await p.setViewportSize(viewport)
    },
  })
  await page.fill('#api-key', key)
  await page.click('#key-form button[type="submit"]')
  await page.waitForSelector('#webhooks-status [data-field="summary"], #webhooks-status .problem')
  return page
}

const shownEndpoints = (page: Page) =>
  page.$$eval('[data-part="webhooks"] tbody tr', (rows) => rows.map((row) => ({ id: row.getAttribute('data-id'), status: row.getAttribute('data-status'), url: row.querySelector('[data-field="url"]')!.firstChild!.textContent })))

const shownDeliveries = (page: Page) =>
  page.$$eval('[data-part="deliveries"] tbody tr', (rows) =>
    rows.map((row) => ({ id: row.getAttribute('data-id'), status: row.querySelector('[data-field="status"]')!.textContent, attempts: Number(row.querySelector('[data-field="attempts"]')!.textContent), last: row.querySelector('[data-field="last"]')!.textContent })),
  )

const shownAttempts = (page: Page) => page.$$eval('[data-part="attempts"] tbody tr', (rows) => rows.map((row) => [...row.querySelectorAll('td')].map((cell) => cell.textContent!)))

const listed = async (s: WebhookScene) => (await s.call('GET', '/v1/webhooks')).body.webhooks as { id: string; url: string; status: string; previous_secret_expires_at: string | null }[]

/** Clicks the button of one of an endpoint's actions. */
async function act(page: Page, id: string, action: string): Promise<void> {
  await page.click(`[data-part="webhooks"] tr[data-id="${id}"] button[data-action="${action}"]`)
}

/** Checked as a receiver checks it, with docs/api.md's code; any age of `t` (the server's clock is moved by hand). */
const signedWith = (received: Received, secret: string) => verify(received.body, received.headers['taxatlas-signature'] as string | undefined, secret, Infinity)

describe('the webhooks page', () => {
  it('adds an endpoint and shows its secret once, changes its URL, gives it a new secret the next delivery is signed with (the old one too, for the overlap shown), and deletes it', async () => {
    await withConsole({}, async (s, browser) => {
      const first = await s.receiver()
      const second = await s.receiver()
      const page = await openPage(browser, s.key)
      expect(await page.locator('#webhooks-list [data-field="none"]').count()).toBe(1)

      await page.fill('#webhook-url', first.url)
      await page.fill('#webhook-secret-input', SECRET)
      await page.click('#webhook-create-submit')
      await page.waitForSelector('#webhook-secret:not([hidden]) [data-field="secret"]')
      expect(await page.locator('#webhook-secret [data-field="secret"]').textContent()).toBe(SECRET)
      // Listed oldest first: the second is made a second later.
      s.clock.advance(1_000)
      await page.fill('#webhook-url', `${second.url}/generated`)
      await page.click('#webhook-create-submit')
      // The secret the server made, shown once: a delivery to it is signed with it.
      await expect.poll(() => page.locator('#webhook-secret [data-field="secret"]').textContent()).not.toBe(SECRET)
      const shownSecret = (await page.locator('#webhook-secret [data-field="secret"]').textContent())!
      expect(shownSecret).toMatch(/^whsec_.{32,}$/)
      const endpoints = await listed(s)
      const own = endpoints.find((w) => w.url === first.url)
      const generated = endpoints.find((w) => w.url === `${second.url}/generated`)
      expect(endpoints).toEqual([own, generated])
      expect(await shownEndpoints(page)).toEqual([own, generated].map((w) => ({ id: w!.id, status: 'enabled', url: w!.url })))
      await page.screenshot({ path: path.join(SCREENSHOTS, 'console-webhooks-added.png'), fullPage: true })

      await act(page, generated!.id, 'edit')
      await page.fill('#webhook-edit-url', second.url)
      await page.click('#webhook-edit-submit')
      await expect.poll(async () => (await listed(s))[1]!.url).toBe(second.url)
      await expect.poll(() => shownEndpoints(page).then((rows) => rows[1]!.url)).toBe(second.url)
      expect(await page.locator('#webhook-secret').isHidden()).toBe(true)

      await act(page, own!.id, 'rotate')
      await page.waitForSelector('#webhook-secret:not([hidden]) [data-field="secret"]')
      const rotated = (await page.locator('#webhook-secret [data-field="secret"]').textContent())!
      expect(rotated).toMatch(/^whsec_[\w-]{43}$/)
      expect(rotated).not.toBe(SECRET)
      const overlapUntil = (await listed(s)).find((w) => w.id === own!.id)!.previous_secret_expires_at!
      expect(overlapUntil).toBe(new Date(s.clock.now() + 24 * 3_600_000).toISOString())
      const until = `${overlapUntil.slice(0, 16).replace('T', ' ')} UTC`
      expect(await page.locator('#webhook-secret [data-field="overlap"]').textContent()).toContain(`The previous secret keeps signing beside it (a second v1= in Taxatlas-Signature) until ${until}`)
      expect(await page.locator(`tr[data-id="${own!.id}"] [data-field="overlap"]`).textContent()).toBe(` the previous secret signs too until ${until}`)

      await s.publish()
      await s.tick()
      expect(first.received).toHaveLength(1)
      expect(second.received).toHaveLength(1)
      // Within the overlap a receiver still holding the replaced secret passes too.
      expect(signedWith(first.received[0]!, rotated)).toBe(true)
      expect(signedWith(first.received[0]!, SECRET)).toBe(true)
      expect(signedWith(first.received[0]!, shownSecret)).toBe(false)
      expect(signedWith(second.received[0]!, shownSecret)).toBe(true)

      await act(page, generated!.id, 'delete')
      await expect.poll(() => shownEndpoints(page).then((rows) => rows.map((row) => row.id))).toEqual([own!.id])
      expect((await listed(s)).map((w) => w.id)).toEqual([own!.id])
      await page.close()
    })
  })

  it("shows an endpoint's deliveries as the API lists them: pending after a 500, then delivered; a disabled endpoint is enabled again", async () => {
    await withConsole({ env: { TAXATLAS_WEBHOOK_DISABLE_AFTER_DAYS: '0.01' } }, async (s, browser) => {
      const healthy = await s.receiver()
      const failing = await s.receiver()
      healthy.script(500)
      failing.script(...Array.from({ length: 20 }, () => 500))
      const healthyId = await s.register(healthy)
      const failingId = await s.register(failing)
      await s.publish()
      await s.tick()

      const page = await openPage(browser, s.key)
      await act(page, healthyId, 'deliveries')
      await page.waitForSelector('[data-part="deliveries"] tbody tr')
      let [record] = await s.deliveries(healthyId)
      expect(await shownDeliveries(page)).toEqual([{ id: record.id, status: 'pending', attempts: 1, last: expect.stringContaining('HTTP 500') }])
      expect(await page.locator('#deliveries-title').textContent()).toBe(`Recent deliveries to ${healthy.url}`)
      expect(await page.locator('[data-part="deliveries"] [data-field="next"]').textContent()).toBe(`${record.next_attempt_at.slice(0, 16).replace('T', ' ')} UTC`)

      // Retried until it is delivered, and the failing endpoint until it is disabled.
      for (let round = 0; round < 20; round++) {
        const [pending] = (await s.deliveries(failingId)).filter((d: { status: string }) => d.status === 'pending')
        if (!pending) break
        s.clock.set(Date.parse(pending.next_attempt_at))
        await s.tick()
      }
      ;[record] = await s.deliveries(healthyId)
      expect(record.status).toBe('delivered')
      await page.click('#key-form button[type="submit"]')
      await expect.poll(() => shownDeliveries(page)).toEqual([{ id: record.id, status: 'delivered', attempts: 2, last: expect.stringContaining('HTTP 200') }])
      expect(await page.locator('[data-part="deliveries"] [data-field="next"]').textContent()).toBe(`delivered ${record.delivered_at.slice(0, 16).replace('T', ' ')} UTC`)

      const disabled = (await listed(s)).find((w) => w.id === failingId)!
      expect(disabled.status).toBe('disabled')
      expect(await page.locator(`tr[data-id="${failingId}"]`).getAttribute('data-status')).toBe('disabled')
      expect(await page.locator(`tr[data-id="${failingId}"] [data-field="status"]`).textContent()).toContain('answered 500')
      await act(page, failingId, 'deliveries')
      await expect.poll(() => shownDeliveries(page).then((rows) => rows.map((row) => row.status))).toEqual(['failed'])
      await page.screenshot({ path: path.join(SCREENSHOTS, 'console-webhooks-deliveries.png'), fullPage: true })
      expect(await page.locator(`tr[data-id="${healthyId}"] button[data-action="enable"]`).count()).toBe(0)

      await act(page, failingId, 'enable')
      await expect.poll(() => page.locator(`tr[data-id="${failingId}"]`).getAttribute('data-status')).toBe('enabled')
      expect((await listed(s)).find((w) => w.id === failingId)!.status).toBe('enabled')
      await page.close()
    })
  })

  it('sends a test event and a delivery again from the page, showing each outcome and every attempt as the API records them', async () => {
    await withConsole({}, async (s, browser) => {
      const receiver = await s.receiver()
      receiver.script(200, 500)
      const id = await s.register(receiver)
      const page = await openPage(browser, s.key)

      await act(page, id, 'ping')
      await page.waitForSelector('#webhook-action-status [data-field="outcome"]')
      const [ping] = await s.deliveries(id)
      expect(ping).toMatchObject({ event_type: 'ping', status: 'delivered', last_status: 200 })
      const pingDetail = (await s.call('GET', `/v1/webhooks/${id}/deliveries/${ping.id}`)).body
      const took = `${pingDetail.attempt_history[0].duration_ms.toLocaleString('en-US')} ms`
      expect(await page.locator('#webhook-action-status').textContent()).toBe(`Test event to ${receiver.url} (delivery ${ping.id}): delivered: answered HTTP 200 in ${took}`)
      // What the receiver got: a ping, signed with the endpoint's secret.
      expect(receiver.received).toHaveLength(1)
      expect(JSON.parse(receiver.received[0]!.body)).toMatchObject({ id: ping.id, type: 'ping', webhook_id: id })
      expect(signedWith(receiver.received[0]!, SECRET)).toBe(true)
      // The deliveries and the ping's attempts are shown with it.
      expect(await shownDeliveries(page)).toEqual([{ id: ping.id, status: 'delivered', attempts: 1, last: expect.stringContaining('HTTP 200') }])
      expect(await page.locator('[data-part="deliveries"] [data-field="event"]').textContent()).toBe('test (ping)')
      expect(await page.locator('#attempts-title').textContent()).toBe(`Attempts of ${ping.id}`)
      expect(await shownAttempts(page)).toEqual(pingDetail.attempt_history.map((a: any) => [String(a.attempt), `${a.started_at.slice(0, 16).replace('T', ' ')} UTC`, `HTTP ${a.status}`, took, '']))

      // Sent again a minute later (listed newest first), and answered 500: failed, not tried again.
      s.clock.advance(60_000)
      await page.click(`[data-part="deliveries"] tr[data-id="${ping.id}"] button[data-delivery-action="redeliver"]`)
      await page.waitForSelector('#webhook-action-status [data-field="outcome"].delivery-failed')
      const [again] = await s.deliveries(id)
      expect(again).toMatchObject({ redelivery_of: ping.id, event_id: ping.event_id, status: 'failed', last_status: 500 })
      expect(await page.locator('#webhook-action-status [data-field="outcome"]').textContent()).toMatch(/^failed: HTTP 500 in [\d,]+ ms; it is not tried again$/)
      expect(JSON.parse(receiver.received[1]!.body)).toMatchObject({ id: again.id, event_id: ping.event_id, type: 'ping' })
      expect((await shownDeliveries(page)).map((row) => [row.id, row.status])).toEqual([
        [again.id, 'failed'],
        [ping.id, 'delivered'],
      ])
      expect(await page.locator(`[data-part="deliveries"] tr[data-id="${again.id}"] [data-field="event"]`).textContent()).toBe(`test (ping) sent again: ${ping.id}`)
      expect((await shownAttempts(page)).map((row) => row.slice(2, 3).concat(row.slice(4)))).toEqual([['HTTP 500', 'answered 500']])

      // "Attempts" shows an earlier delivery's.
      await page.click(`[data-part="deliveries"] tr[data-id="${ping.id}"] button[data-delivery-action="attempts"]`)
      await page.waitForFunction((deliveryId) => document.querySelector('#attempts-title')?.textContent === `Attempts of ${deliveryId}`, ping.id)
      expect((await shownAttempts(page)).map((row) => row[2])).toEqual(['HTTP 200'])
      await page.screenshot({ path: path.join(SCREENSHOTS, 'console-webhooks-test-event.png'), fullPage: true })
      await page.close()
    })
  })

  it("shows the server's refusal: a URL it does not accept with the field's detail, an unknown key", async () => {
    await withConsole({}, async (s, browser) => {
      const page = await openPage(browser, s.key)
      for (const [url, words] of [
        ['https://10.1.2.3/hook', /private/],
        ['ftp://93.184.216.34/hook', /https/],
      ] as const) {
        await page.fill('#webhook-url', url)
        await page.click('#webhook-create-submit')
        await page.waitForSelector('#webhook-action-status .problem')
        expect(await page.locator('#webhook-action-status .problem h2').textContent()).toBe('422 VALIDATION_ERROR')
        expect(await page.locator('#webhook-action-status .problem-detail').textContent()).toMatch(words)
        expect(await page.locator('#webhook-action-status .problem-detail code').first().textContent()).toBe('body.url')
      }
      expect(await page.locator('#webhook-secret').isHidden()).toBe(true)
      expect(await listed(s)).toEqual([])
      await page.close()

      const refused = await openPage(browser, 'tx_live_not_a_real_key')
      expect(await refused.locator('#webhooks-status .problem-message').textContent()).toBe('Invalid X-API-Key.')
      expect(await refused.locator('#webhooks-endpoints').isHidden()).toBe(true)
      await refused.close()
    })
  })

  it('shows every text whole and readable, and nothing wider than the screen, on a 1280×800 screen and a 390×844 phone', async () => {
    await withConsole({}, async (s, browser) => {
      const receiver = await s.receiver()
      receiver.script(500)
      const id = await s.register(receiver)
      await s.call('POST', '/v1/webhooks', { url: `${receiver.url}/a-much-longer-path/that/keeps/going/for-a-while?with=query&and=more` })
      await s.publish()
      await s.tick()
      for (const viewport of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
        const page = await openPage(browser, s.key, viewport)
        await act(page, id, 'deliveries')
        await page.waitForSelector('[data-part="deliveries"] tbody tr')
        await act(page, id, 'edit')
        await page.screenshot({ path: path.join(SCREENSHOTS, `console-webhooks-${viewport.width}x${viewport.height}.png`), fullPage: true })
        expect(await unreadableTexts(page, 'main'), `${viewport.width}×${viewport.height}`).toEqual([])
        // Nothing makes the page wider than the screen: wide tables scroll in their own box.
        expect(await page.evaluate(() => document.documentElement.scrollWidth), `${viewport.width}×${viewport.height}`).toBeLessThanOrEqual(viewport.width)
        await page.close()
      }
    })
  })
})
