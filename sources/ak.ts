import { defineState } from './descriptor.ts'

export default defineState({
  code: 'AK',
  name: 'Alaska',
  fips: '02',
  klass: 'reload',
  feeds: [
    { kind: 'avalara-zip5', dropPattern: 'TAXRATES_ZIP5_AK*.csv' },
  ],
  combinedBounds: [0, 9000],
  anchors: [
    { feed: 'avalara-zip5', zip: '99501', expected: '0.00000', asOf: '2025-12-01', edition: '202512', source: 'TAXRATES_ZIP5_AK202512.csv row 99501 (ANCHORAGE BOROUGH): combined 0.000000 (Avalara estimate, a regression pin rather than a primary-source verification)' },
  ],
})
