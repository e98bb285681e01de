// Real headless Chromium (Debian's, driven by playwright-core) for tests of the web console: a
// fresh profile per browser, every request recorded and any to another host than the server
// refused, and each page's uncaught errors and Content-Security-Policy refusals collected.
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { chromium, type BrowserContext, type Page } from 'playwright-core'

export const CHROMIUM = process.env.TAXATLAS_CHROMIUM ?? '/usr/bin/chromium'

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

export type ConsoleBrowser = {
  context: BrowserContext
  /** every URL the pages asked for, in order */
  requests: string[]
  /** requests to any other origin than the server's (refused) */
  foreign: string[]
  /** uncaught errors and CSP refusals of every page opened with `open` */
  problems: string[]
  /** a new page, watched for problems, at `path` of the server */
  open: (path: string, options?: { beforeLoad?: (page: Page) => Promise<unknown> }) => Promise<Page>
  close: () => Promise<void>
}

export async function startBrowser(origin: string): Promise<ConsoleBrowser> {
  const profile = await mkdtemp(path.join(os.tmpdir(), 'taxatlas-chromium-'))
  const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, args: ARGS, headless: true, viewport: { width: 1280, height: 900 } })
  const requests: string[] = []
  const foreign: string[] = []
  const problems: string[] = []
  await context.route('**/*', (route) => {
    const url = route.request().url()
    requests.push(url)
    if (new URL(url).origin === origin) return route.continue()
    foreign.push(url)
    return route.abort('blockedbyclient')
  })
  return {
    context,
    requests,
    foreign,
    problems,
    open: async (pathName, options = {}) => {
      const page = await context.newPage()
      page.on('pageerror', (error) => problems.push(`${pathName}: uncaught ${error.message}`))
      page.on('console', (message) => {
        if (/Content Security Policy|Refused to/i.test(message.text())) problems.push(`${pathName}: ${message.text()}`)
      })
      await options.beforeLoad?.(page)
      await page.goto(`${origin}${pathName}`)
      return page
    },
    close: async () => {
      await context.close()
      await rm(profile, { recursive: true, force: true })
    },
  }
}
