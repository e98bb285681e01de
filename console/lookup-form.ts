// The playground's form as a call of the client's tax(state, params): the chosen input mode's
// fields exactly as typed (the server judges them), simple or full, strict, as_of.
import type { TaxParams } from '../client/index.ts'
import { byId } from './dom.ts'

export type InputMode = 'zip' | 'address' | 'place' | 'point'

const value = (id: string) => byId<HTMLInputElement>(id).value
const optional = (id: string) => value(id).trim() || undefined
const checked = (name: string) => document.querySelector<HTMLInputElement>(`input[name="${name}"]:checked`)!.value

export const inputMode = () => checked('input-mode') as InputMode

function inputOf(mode: InputMode): TaxParams {
  switch (mode) {
    case 'zip':
      return { zip: value('zip') }
    case 'address':
      return { address: value('address'), city: optional('address-city'), zip: optional('address-zip') }
    case 'place':
      return { location: value('location') }
    case 'point':
      return { lat: value('lat'), lng: value('lng') }
  }
}

/** The state and parameters the form asks for. */
export function lookupRequest(): { state: string; params: TaxParams } {
  const params: TaxParams = { ...inputOf(inputMode()), mode: checked('shape') as 'simple' | 'full' }
  if (byId<HTMLInputElement>('strict').checked) params.strict = true
  const asOf = optional('as-of')
  if (asOf) params.as_of = asOf
  return { state: value('state').trim(), params }
}

/** Shows the fields of the chosen input mode only. */
export function followInputMode(): void {
  const show = () => {
    const mode = inputMode()
    for (const group of document.querySelectorAll<HTMLElement>('[data-mode]')) group.hidden = group.dataset.mode !== mode
  }
  for (const radio of document.querySelectorAll<HTMLInputElement>('input[name="input-mode"]')) radio.addEventListener('change', show)
  show()
}
