// A lookup's answer as the playground shows it: the served combined rate, its parts, how it was
// resolved and how sure it is, every warning and normalization repair, and in full mode the rows,
// every candidate jurisdiction of the ZIP with its weight, the place resolved and the billing.
import type { TaxFullResponse, TaxSimpleResponse } from '../client/index.ts'
import { facts, h, percent, table } from './dom.ts'
import { unnamed } from './jurisdiction-name.ts'

type Answer = TaxSimpleResponse | TaxFullResponse
type Warning = Answer['meta']['warnings'][number]
type Normalization = NonNullable<TaxSimpleResponse['meta']['normalization']>

const isFull = (answer: Answer): answer is TaxFullResponse => Array.isArray((answer as TaxFullResponse).rows)

/** A 5-decimal rate with its percentage. */
const rateCell = (rate: string) => h('span', { class: 'rate' }, h('code', {}, rate), ' ', h('span', { class: 'muted' }, percent(rate)))

export function answerView(answer: Answer): HTMLElement {
  const { rate, meta } = answer
  const place = [rate.city, rate.county && `${rate.county} COUNTY`, rate.state].filter(Boolean).join(', ')
  const view = h(
    'div',
    { class: 'answer' },
    h(
      'p',
      { class: 'combined' },
      h('span', { class: 'combined-label' }, 'Combined rate '),
      h('code', { 'data-field': 'combined_rate' }, rate.combined_rate),
      h('span', { class: 'combined-percent' }, ` ${percent(rate.combined_rate)}`),
      h('span', { class: 'muted' }, ` — ZIP ${rate.zip}, ${place}`),
    ),
    table('Rate parts', ['Level', 'Name', 'Rate'], [
      ['State', rate.state, rateCell(rate.state_rate)],
      ['County', partName(rate.county, rate.county_rate), rateCell(rate.county_rate)],
      ['City', partName(rate.city, rate.city_rate), rateCell(rate.city_rate)],
      ['Special districts', 'combined', rateCell(rate.combined_district_rate)],
      [h('strong', {}, 'Combined'), '', h('strong', {}, rateCell(rate.combined_rate))],
    ], { 'data-part': 'parts' }),
    facts([
      ['Resolved via', h('code', {}, meta.resolved_via)],
      ['Confidence', h('span', { 'data-field': 'confidence' }, meta.confidence)],
      ['Effective date', `${meta.effective_date ?? 'not published'} (${meta.effective_date_basis})`],
      ['Freight taxable', rate.freight_taxable ? 'yes' : 'no'],
    ]),
  )
  view.append(warningsView(isFull(answer) ? answer.warnings : meta.warnings))
  const normalization = isFull(answer) ? answer.normalization : answer.meta.normalization
  if (normalization) view.append(repairsView(normalization))
  if (isFull(answer)) view.append(...fullView(answer))
  view.append(h('details', { class: 'raw' }, h('summary', {}, 'The answer as sent'), h('pre', {}, JSON.stringify(answer, null, 2))))
  return view
}

function warningsView(warnings: readonly Warning[]): HTMLElement {
  const title = h('h3', {}, `Warnings (${warnings.length})`)
  if (warnings.length === 0) return h('section', { 'data-part': 'warnings' }, title, h('p', { class: 'muted' }, 'None.'))
  return h(
    'section',
    { 'data-part': 'warnings' },
    title,
    h('ul', {}, ...warnings.map((warning) => (typeof warning === 'string' ? h('li', {}, warning) : h('li', {}, h('code', {}, warning.code), ' ', warning.message)))),
  )
}

function repairsView(normalization: Normalization): HTMLElement {
  return h(
    'section',
    { 'data-part': 'normalization' },
    h('h3', {}, 'Normalization repairs'),
    table('What was repaired before the lookup', ['Rule', 'Field', 'Received', 'Used', 'Confidence'], normalization.applied.map((repair) => [
      h('code', {}, repair.rule_id),
      repair.field,
      h('code', {}, repair.raw),
      h('code', {}, repair.normalized),
      repair.confidence,
    ])),
  )
}

/** A part of the rate by its name; one with a rate but no name says so rather than showing a dash. */
const partName = (name: string, rate: string) => name || (/[1-9]/.test(rate) ? unnamed('its source gives a code only (mode=full lists it)') : '—')

function fullView(answer: TaxFullResponse): HTMLElement[] {
  const { resolved_place: place, ambiguous_zip5: ambiguity, billing } = answer
  return [
    h('h3', {}, 'Jurisdictions'),
    table('Each rate answered, with its source', ['Level', 'Name', 'Code', 'Rate', 'In force', 'Source'], answer.rows.map((row) => [
      row.level,
      row.name || unnamed(`${row.source_file} gives its code only`),
      h('code', {}, row.code),
      rateCell(row.rate),
      `${row.effective_from ?? '…'} – ${row.effective_to ?? '…'}`,
      `${row.source_kind}: ${row.source_file}`,
    ]), { 'data-part': 'rows' }),
    h('h3', {}, ambiguity.ambiguous ? 'Candidates (the ZIP is ambiguous)' : 'Candidates'),
    table('Every jurisdiction the ZIP may lie in, with its share of addresses', ['County', 'City', 'Weight', 'Combined', 'Served'], ambiguity.candidates.map((candidate) => [
      candidate.county || '—',
      candidate.city || '—',
      h('span', { 'data-field': 'weight' }, String(candidate.weight)),
      rateCell(candidate.combined_rate),
      candidate.selected ? 'yes' : '',
    ]), { 'data-part': 'candidates' }),
    h('h3', {}, 'Place resolved'),
    facts([
      ['ZIP', place.zip4 ? `${place.zip}-${place.zip4} (the +4 is not used)` : place.zip],
      ['County', place.county ? `${place.county.name} (${place.county.fips})` : '—'],
      ['City', place.city ? `${place.city.name}${place.city.geoid ? ` (${place.city.geoid})` : ''}` : '—'],
      ['USPS city', place.usps_city],
      ['Point', place.lat === null || place.lng === null ? '—' : `${place.lat}, ${place.lng}`],
    ]),
    h('h3', {}, 'Billing'),
    facts([
      ['Tier', billing.tier],
      ['Lookups this period', `${billing.quota.used}${billing.quota.limit === null ? ' (no limit)' : ` of ${billing.quota.limit}`}`],
      ['Counted', billing.lookup_counted ? 'yes' : 'no'],
    ]),
  ]
}
