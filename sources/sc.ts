import { defineState, statutoryFloor } from './descriptor.ts'

export default defineState({
  code: 'SC',
  name: 'South Carolina',
  fips: '45',
  klass: 'reload',
  feeds: [
    { kind: 'avalara-zip5', dropPattern: 'TAXRATES_ZIP5_SC*.csv' },
    statutoryFloor('South Carolina', 'SC DOR ST-500 / ST-575'),
  ],
  combinedBounds: [0, 15000],
  anchors: [
    { feed: 'avalara-zip5', zip: '29201', expected: '0.08000', asOf: '2025-12-01', edition: '202512', source: 'TAXRATES_ZIP5_SC202512.csv row 29201 (RICHLAND): combined 0.080000 (Avalara estimate, a regression pin rather than a primary-source verification)' },
  ],
})
