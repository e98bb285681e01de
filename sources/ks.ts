import { defineState, SST_RATES_URL } from './descriptor.ts'

export default defineState({
  code: 'KS',
  name: 'Kansas',
  fips: '20',
  klass: 'auto',
  feeds: [
    { kind: 'sst', ratesUrl: SST_RATES_URL },
    { kind: 'avalara-zip5', dropPattern: 'TAXRATES_ZIP5_KS*.csv' },
  ],
  combinedBounds: [0, 15500],
  anchors: [
    { feed: 'avalara-zip5', zip: '67202', expected: '0.07500', asOf: '2025-12-01', edition: '202512', source: 'TAXRATES_ZIP5_KS202512.csv: row 67202 (WICHITA) at 0.095000 folds a 2% special district over part of the ZIP; the other Wichita ZIPs of Sedgwick County agree on 0.075000, the default (sub_zip_district; Avalara estimate, a regression pin rather than a primary-source verification)' },
  ],
})
