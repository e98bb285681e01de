import { defineState, statutoryFloor } from './descriptor.ts'

export default defineState({
  code: 'MT',
  name: 'Montana',
  fips: '30',
  klass: 'reload',
  feeds: [
    { kind: 'avalara-zip5', dropPattern: 'TAXRATES_ZIP5_MT*.csv' },
    statutoryFloor('Montana', 'resort communities themselves'),
  ],
  combinedBounds: [0, 3000],
  anchors: [
    { feed: 'avalara-zip5', zip: '59601', expected: '0.00000', asOf: '2025-12-01', edition: '202512', source: 'TAXRATES_ZIP5_MT202512.csv row 59601 (HELENA): combined 0.000000 (Avalara estimate, a regression pin rather than a primary-source verification)' },
  ],
})
