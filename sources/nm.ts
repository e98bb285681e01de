import { defineState, NM_GRT_PAGE, statutoryFloor } from './descriptor.ts'

export default defineState({
  code: 'NM',
  name: 'New Mexico',
  fips: '35',
  klass: 'auto',
  feeds: [
    { kind: 'nm-trd-grt', pageUrl: NM_GRT_PAGE, trial: true },
    { kind: 'avalara-zip5', dropPattern: 'TAXRATES_ZIP5_NM*.csv' },
    statutoryFloor('New Mexico', 'NM Taxation & Revenue Dept GRT rate schedule (semiannual) + location map'),
  ],
  combinedBounds: [0, 13875],
  anchors: [
    { feed: 'avalara-zip5', zip: '87102', expected: '0.07750', asOf: '2025-12-01', edition: '202512', source: 'TAXRATES_ZIP5_NM202512.csv row 87102 (AIS PROP 19 PUEBLOS #2): combined 0.077500 (Avalara estimate, a regression pin rather than a primary-source verification)' },
  ],
})
