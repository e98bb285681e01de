import { defineState, MO_RATE_TABLES_PAGE, statutoryFloor } from './descriptor.ts'

export default defineState({
  code: 'MO',
  name: 'Missouri',
  fips: '29',
  klass: 'auto',
  feeds: [
    { kind: 'mo-dor', pageUrl: MO_RATE_TABLES_PAGE, trial: true },
    { kind: 'avalara-zip5', dropPattern: 'TAXRATES_ZIP5_MO*.csv' },
    statutoryFloor('Missouri', 'Missouri DOR quarterly rate tables'),
  ],
  combinedBounds: [0, 13225],
  anchors: [
    { feed: 'avalara-zip5', zip: '63101', expected: '0.09679', asOf: '2025-12-01', edition: '202512', source: 'TAXRATES_ZIP5_MO202512.csv: row 63101 (SAINT LOUIS CONVENTION CENTER HOTEL 3 COMMUNITY IMPROVEMENT DISTRICT SL) at 0.116790 folds a 2% CID over the whole ZIP; the other St. Louis ZIPs agree on 0.096790, the default (sub_zip_district; Avalara estimate, a regression pin rather than a primary-source verification)' },
  ],
})
