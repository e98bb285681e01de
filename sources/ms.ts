import { defineState } from './descriptor.ts'

export default defineState({
  code: 'MS',
  name: 'Mississippi',
  fips: '28',
  klass: 'reload',
  feeds: [
    { kind: 'avalara-zip5', dropPattern: 'TAXRATES_ZIP5_MS*.csv' },
  ],
  combinedBounds: [0, 10000],
  anchors: [
    { feed: 'avalara-zip5', zip: '39201', expected: '0.08000', asOf: '2025-12-01', edition: '202512', source: 'TAXRATES_ZIP5_MS202512.csv row 39201 (JACKSON): combined 0.080000 (Avalara estimate, a regression pin rather than a primary-source verification)' },
  ],
})
