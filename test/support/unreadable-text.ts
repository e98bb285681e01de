// Text a page does not show readably: each rendered text whose box reaches past an ancestor that
// clips it (overflow hidden or clip) or that draws a box around it (a background or border, not
// an inline element), that sits in a scrolling container lower than one of its lines, or whose
// colour is nearly that of the background behind it (a contrast under 1.5:1, as white on the page's
// light wash; Swagger UI's own white-on-colour method badges stay around 2:1).
// What else a scrolling container holds past its edges can be scrolled to.
import type { Page } from 'playwright-core'

export type UnreadableText = { text: string; box: string }

export function unreadableTexts(page: Page, rootSelector: string): Promise<UnreadableText[]> {
  return page.evaluate((selector) => {
    const found: { text: string; box: string }[] = []
    const root = document.querySelector(selector)
    if (!root) throw new Error(`no ${selector} on the page`)
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT)
    const channels = (colour: string) => (colour.match(/[\d.]+/g) ?? []).map(Number)
    const luminance = ([r = 0, g = 0, b = 0]: number[]) => {
      const linear = (v: number) => (v / 255 <= 0.03928 ? v / 255 / 12.92 : ((v / 255 + 0.055) / 1.055) ** 2.4)
      return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b)
    }
    const backgroundOf = (el: Element | null): number[] => {
      for (; el; el = el.parentElement) {
        const colour = channels(getComputedStyle(el).backgroundColor)
        if ((colour[3] ?? 1) > 0) return colour
      }
      return [255, 255, 255]
    }
    const describe = (el: Element) => `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${el.classList.length ? `.${[...el.classList].join('.')}` : ''}`
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent?.trim() ?? ''
      const parent = node.parentElement
      if (!text || !parent || parent.getClientRects().length === 0 || getComputedStyle(parent).visibility !== 'visible') continue
      const range = document.createRange()
      range.selectNodeContents(node)
      const rect = range.getBoundingClientRect()
      if (rect.width === 0 && rect.height === 0) continue
      const lineHeight = range.getClientRects()[0]?.height ?? rect.height
      const [light, dark] = [luminance(channels(getComputedStyle(parent).color)), luminance(backgroundOf(parent))].sort((a, b) => b - a)
      const contrast = (light! + 0.05) / (dark! + 0.05)
      if (contrast < 1.5) {
        found.push({ text: text.slice(0, 60), box: `${describe(parent)} (contrast ${contrast.toFixed(2)}:1)` })
        continue
      }
      for (let box: Element | null = parent; box && box !== document.body; box = box.parentElement) {
        const style = getComputedStyle(box)
        const overflow = [style.overflowX, style.overflowY]
        if (overflow.some((o) => o === 'auto' || o === 'scroll')) {
          if (box.clientHeight + 1 < lineHeight) found.push({ text: text.slice(0, 60), box: `${describe(box)} (scrolls, lower than a line)` })
          break
        }
        const clips = overflow.some((o) => o === 'hidden' || o === 'clip')
        const drawn = style.display !== 'inline' && (style.backgroundColor !== 'rgba(0, 0, 0, 0)' || ['Top', 'Right', 'Bottom', 'Left'].some((side) => parseFloat(style.getPropertyValue(`border-${side.toLowerCase()}-width`)) > 0))
        if (!clips && !drawn) continue
        const edge = box.getBoundingClientRect()
        if (rect.left < edge.left - 1 || rect.right > edge.right + 1 || rect.top < edge.top - 1 || rect.bottom > edge.bottom + 1) {
          found.push({ text: text.slice(0, 60), box: describe(box) })
          break
        }
      }
    }
    return found
  }, rootSelector)
}
