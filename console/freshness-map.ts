// The US map of the freshness page: us-atlas states drawn with d3-geo's Albers USA projection
// (Alaska and Hawaii inset; territories have no place on it and are listed in the table), each
// state filled with its status colour. Hovering, tapping or focusing a state selects it.
import { geoAlbersUsa, geoPath } from 'd3-geo'
import type { FeatureCollection, Geometry } from 'geojson'
import { feature } from 'topojson-client'
import type { GeometryCollection, Topology } from 'topojson-specification'
import { svg } from './dom.ts'
import { STATUS_STYLES, type FreshnessRecord } from './freshness-status.ts'

type StateProperties = { name: string; code: string }

const WIDTH = 975
const HEIGHT = 610
const NO_DATA = '#e0e0e0'

export class FreshnessMap {
  readonly #svg: SVGSVGElement
  readonly #paths = new Map<string, SVGPathElement>()
  readonly #onSelect: (code: string) => void

  constructor(element: SVGSVGElement, onSelect: (code: string) => void) {
    this.#svg = element
    this.#onSelect = onSelect
  }

  /** Draws the states from the map file the console ships (assets/states.json). */
  async draw(): Promise<void> {
    const response = await fetch('/assets/states.json')
    if (!response.ok) throw new Error(`the map could not be loaded (${response.status})`)
    const topology = (await response.json()) as Topology<{ states: GeometryCollection<StateProperties> }>
    const states = feature(topology, topology.objects.states) as FeatureCollection<Geometry, StateProperties>
    const path = geoPath(geoAlbersUsa().fitSize([WIDTH, HEIGHT], states))
    for (const state of states.features) {
      const d = path(state)
      if (!d) continue
      const { code, name } = state.properties
      const element = svg('path', { d, 'data-state': code, fill: NO_DATA, tabindex: 0, role: 'button', 'aria-label': name }, svg('title', {}, name))
      const select = () => this.#onSelect(code)
      element.addEventListener('pointerenter', select)
      element.addEventListener('click', select)
      element.addEventListener('focus', select)
      this.#paths.set(code, element)
      this.#svg.append(element)
    }
  }

  /** The codes of the states drawn. */
  get codes(): string[] {
    return [...this.#paths.keys()]
  }

  /** Colours each state by its record's status. */
  paint(records: ReadonlyMap<string, FreshnessRecord>): void {
    for (const [code, element] of this.#paths) {
      const record = records.get(code)
      const style = record ? STATUS_STYLES[record.status] : null
      element.setAttribute('fill', style?.colour ?? NO_DATA)
      element.setAttribute('data-status', record?.status ?? 'none')
      const label = record ? `${record.name}: ${style!.label}` : `${code.toUpperCase()}: no data`
      element.setAttribute('aria-label', label)
      element.querySelector('title')!.textContent = label
    }
  }

  /** Marks the selected state. */
  select(code: string): void {
    for (const [other, element] of this.#paths) element.classList.toggle('selected', other === code)
  }
}
