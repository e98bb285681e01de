import { defineState } from './descriptor.ts'

export default defineState({
  code: 'ID',
  name: 'Idaho',
  fips: '16',
  klass: 'reload',
  feeds: [
    { kind: 'avalara-zip5', dropPattern: 'TAXRATES_ZIP5_ID*.csv' },
  ],
  combinedBounds: [0, 9000],
  anchors: [
    { feed: 'avalara-zip5', zip: '83702', expected: '0.06000', asOf: '2025-12-01', edition: '202512', source: 'TAXRATES_ZIP5_ID202512.csv row 83702 (ADA): combined 0.060000 (Avalara estimate, a regression pin rather than a primary-source verification)' },
  ],
})
