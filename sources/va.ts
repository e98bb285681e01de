import { defineState, VA_RATES_URL, statutoryFloor } from './descriptor.ts'

export default defineState({
  code: 'VA',
  name: 'Virginia',
  fips: '51',
  klass: 'auto',
  feeds: [
    { kind: 'va-tax', url: VA_RATES_URL, trial: true },
    { kind: 'avalara-zip5', dropPattern: 'TAXRATES_ZIP5_VA*.csv' },
    statutoryFloor('Virginia', 'Virginia Tax (rate-by-locality page)'),
  ],
  combinedBounds: [0, 14300],
  anchors: [
    { feed: 'va-tax', zip: '23185', expected: '0.07000', asOf: '2026-11-01', edition: 'current', source: 'Williamsburg / James City County (23185): state 4.3% + local 1% + Hampton Roads regional 0.7% + Historic Triangle 1% (publisher-evidence B, VA row: TAP-va, OST st:va_data; totals observed 5.3/6.0/6.3/7.0%)' },
    { feed: 'avalara-zip5', zip: '23219', expected: '0.06000', asOf: '2025-12-01', edition: '202512', source: 'TAXRATES_ZIP5_VA202512.csv row 23219 (RICHMOND): combined 0.060000 (Avalara estimate, a regression pin rather than a primary-source verification)' },
  ],
})
