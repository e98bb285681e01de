import { defineState, statutoryFloor } from './descriptor.ts'

export default defineState({
  code: 'NY',
  name: 'New York',
  fips: '36',
  klass: 'reload',
  feeds: [
    { kind: 'avalara-zip5', dropPattern: 'TAXRATES_ZIP5_NY*.csv' },
    statutoryFloor('New York', 'NY DTF Publication 718 + jurisdiction/rate lookup'),
  ],
  combinedBounds: [0, 13000],
  anchors: [
    { feed: 'avalara-zip5', zip: '10001', expected: '0.08875', asOf: '2025-12-01', edition: '202512', source: 'TAXRATES_ZIP5_NY202512.csv row 10001 (NEW YORK CITY): combined 0.088750 (Avalara estimate, a regression pin rather than a primary-source verification)' },
  ],
})
