import { defineState } from './descriptor.ts'

export default defineState({
  code: 'KS',
  name: 'Kansas',
  fips: '20',
  klass: 'reload',
  feed: { kind: 'avalara-zip5', dropPattern: 'TAXRATES_ZIP5_KS*.csv' },
  combinedBounds: [0, 15500],
  anchors: [
    { zip: '67202', expected: '0.09500', asOf: '2025-12-01', edition: '202512', source: 'TAXRATES_ZIP5_KS202512.csv row 67202 (WICHITA): combined 0.095000 (Avalara estimate, a regression pin rather than a primary-source verification)' },
  ],
})
