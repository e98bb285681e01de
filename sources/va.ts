import { defineState } from './descriptor.ts'

export default defineState({
  code: 'VA',
  name: 'Virginia',
  fips: '51',
  klass: 'reload',
  feeds: [
    { kind: 'avalara-zip5', dropPattern: 'TAXRATES_ZIP5_VA*.csv' },
  ],
  combinedBounds: [0, 14300],
  anchors: [
    { feed: 'avalara-zip5', zip: '23219', expected: '0.06000', asOf: '2025-12-01', edition: '202512', source: 'TAXRATES_ZIP5_VA202512.csv row 23219 (RICHMOND): combined 0.060000 (Avalara estimate, a regression pin rather than a primary-source verification)' },
  ],
})
