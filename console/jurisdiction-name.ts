// A jurisdiction as the console names it: by its name, or, where its source gives none (GA's city
// 05000: the SST rate file holds codes only, and no Census place has that one), by its level and
// code with a note saying why there is no name, so that no row is left reading as a bare code.
import { h } from './dom.ts'

/** In place of a name the source does not give: that there is none, and why. */
export const unnamed = (why: string) => h('span', { 'data-field': 'unnamed' }, 'no name', h('small', { class: 'muted' }, `: ${why}`))

export function jurisdictionName(j: { level: string; code: string; name: string | null }, sourceFile: string): HTMLElement {
  const where = h('small', { class: 'muted' }, `${j.level} ${j.code}`)
  return j.name
    ? h('span', { 'data-field': 'jurisdiction' }, `${j.name} `, where)
    : h('span', { 'data-field': 'jurisdiction' }, where, ' ', unnamed(`${sourceFile} gives its code only`))
}
