import { defineState } from './descriptor.ts'

export default defineState({
  code: 'PA',
  name: 'Pennsylvania',
  fips: '42',
  klass: 'reload',
  feeds: [
    { kind: 'avalara-zip5', dropPattern: 'TAXRATES_ZIP5_PA*.csv' },
  ],
  combinedBounds: [0, 9000],
  anchors: [
    { feed: 'avalara-zip5', zip: '19103', expected: '0.08000', asOf: '2025-12-01', edition: '202512', source: 'TAXRATES_ZIP5_PA202512.csv row 19103 (PHILADELPHIA): combined 0.080000 (Avalara estimate, a regression pin rather than a primary-source verification)' },
  ],
})
