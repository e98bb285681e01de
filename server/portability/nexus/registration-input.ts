// The registration list as sent to PUT /v1/portability/nexus: each state once (code or name),
// `registered_since` a plain date when given.
import type { ValidationDetail } from '../../http/validation.ts'
import { isCalendarDate } from '../../lookup/lookup-date.ts'
import { stateCodeOf } from '../../sale/state-code.ts'

export type RegionInput = { state: string; registered_since?: string | null }
export type Region = { state: string; registeredSince: string | null }

export function parseRegions(input: readonly RegionInput[]): { ok: true; regions: Region[] } | { ok: false; detail: ValidationDetail[] } {
  const detail: ValidationDetail[] = []
  const seen = new Set<string>()
  const regions: Region[] = []
  input.forEach((region, i) => {
    const loc = (field: string) => ['body', 'regions', i, field]
    const state = stateCodeOf(region.state)
    if (!state) detail.push({ loc: loc('state'), msg: `${region.state} is not a US state, DC or PR`, type: 'value_error', input: region.state })
    else if (seen.has(state)) detail.push({ loc: loc('state'), msg: `${state} is listed twice`, type: 'value_error', input: region.state })
    else seen.add(state)
    const since = region.registered_since?.trim() || null
    if (since !== null && !isCalendarDate(since)) {
      detail.push({ loc: loc('registered_since'), msg: 'registered_since must be a date, YYYY-MM-DD', type: 'value_error', input: region.registered_since })
    }
    if (state) regions.push({ state, registeredSince: since })
  })
  return detail.length ? { ok: false, detail } : { ok: true, regions }
}
