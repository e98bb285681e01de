// Building the pages' elements: text is always set as text, never parsed as HTML.
type Child = Node | string | number | null | undefined | false
type Attributes = Record<string, string | number | boolean | null | undefined>

function fill<E extends Element>(element: E, attributes: Attributes, children: Child[]): E {
  for (const [name, value] of Object.entries(attributes)) {
    if (value === null || value === undefined || value === false) continue
    element.setAttribute(name, value === true ? '' : String(value))
  }
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue
    element.append(child instanceof Node ? child : String(child))
  }
  return element
}

/** An HTML element with attributes and children. */
export const h = <K extends keyof HTMLElementTagNameMap>(tag: K, attributes: Attributes = {}, ...children: Child[]): HTMLElementTagNameMap[K] =>
  fill(document.createElement(tag), attributes, children)

/** An SVG element with attributes and children. */
export const svg = <K extends keyof SVGElementTagNameMap>(tag: K, attributes: Attributes = {}, ...children: Child[]): SVGElementTagNameMap[K] =>
  fill(document.createElementNS('http://www.w3.org/2000/svg', tag), attributes, children)

/** The element with this id, which the page's HTML is known to hold. */
export function byId<E extends Element = HTMLElement>(id: string): E {
  const element = document.getElementById(id)
  if (!element) throw new Error(`the page has no #${id}`)
  return element as Element as E
}

/** A definition list from label/value pairs; pairs without a value are left out. */
export function facts(pairs: [string, Child][]): HTMLDListElement {
  const list = h('dl', { class: 'facts' })
  for (const [label, value] of pairs) if (value !== null && value !== undefined && value !== '') list.append(h('dt', {}, label), h('dd', {}, value))
  return list
}

/**
 * A table with a caption, column headings and rows of cells; `rowData[i]` becomes row i's data-*
 * attributes. In a box of its own that scrolls sideways when the table is wider than the screen,
 * so the page never is.
 */
export function table(caption: string, headings: string[], rows: Child[][], attributes: Attributes = {}, rowData: Record<string, string>[] = []): HTMLDivElement {
  const dataOf = (i: number) => Object.fromEntries(Object.entries(rowData[i] ?? {}).map(([name, value]) => [`data-${name}`, value]))
  return h(
    'div',
    { class: 'table-scroll' },
    h(
      'table',
      { class: 'data', ...attributes },
      h('caption', {}, caption),
      h('thead', {}, h('tr', {}, ...headings.map((heading) => h('th', { scope: 'col' }, heading)))),
      h('tbody', {}, ...rows.map((cells, i) => h('tr', dataOf(i), ...cells.map((cell) => h('td', {}, cell))))),
    ),
  )
}

/** A 5-decimal rate string as a percentage: '0.08900' → '8.9%'. */
export function percent(rate: string): string {
  const [whole, fraction = ''] = rate.split('.')
  const digits = `${whole}${fraction.padEnd(5, '0')}`.replace(/^0+(?=\d{4})/, '')
  const integer = digits.slice(0, -3) || '0'
  const decimals = digits.slice(-3).replace(/0+$/, '')
  return `${integer}${decimals ? `.${decimals}` : ''}%`
}
