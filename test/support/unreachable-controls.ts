// Controls a page shows that a user cannot click: each link, button, field or summary shown is
// scrolled to the middle of the screen (its scrolling boxes too, as a finger would scroll them), and
// the element the browser finds at its centre must be the control or inside it. One that stays off
// the screen, or lies under another element (a header, a box drawn over it), is reported.
import type { Page } from 'playwright-core'

export function unreachableControls(page: Page, rootSelector = 'body'): Promise<string[]> {
  return page.evaluate((selector) => {
    const found: string[] = []
    const root = document.querySelector(selector)
    if (!root) throw new Error(`no ${selector} on the page`)
    for (const control of root.querySelectorAll<HTMLElement>('a[href], button, input:not([type="hidden"]), select, textarea, summary')) {
      // Not shown: hidden, or of no size (Swagger UI's copy buttons until hovered).
      if (control.getClientRects().length === 0 || getComputedStyle(control).visibility !== 'visible') continue
      if (control.offsetWidth === 0 || control.offsetHeight === 0) continue
      control.scrollIntoView({ block: 'center', inline: 'center' })
      const box = control.getBoundingClientRect()
      const [x, y] = [box.left + box.width / 2, box.top + box.height / 2]
      const hit = x >= 0 && x < innerWidth && y >= 0 && y < innerHeight ? document.elementFromPoint(x, y) : null
      if (!hit || !(hit === control || control.contains(hit))) {
        found.push(`${control.outerHTML.slice(0, 120)} (${hit ? `under ${hit.tagName.toLowerCase()}${hit.id ? `#${hit.id}` : ''}` : 'off the screen'})`)
      }
    }
    scrollTo(0, 0)
    return found
  }, rootSelector)
}
