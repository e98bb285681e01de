import { defineState, SST_RATES_URL, statutoryFloor } from './descriptor.ts'
import { sstReading } from './sst-reading.ts'

export default defineState({
  code: 'KS',
  name: 'Kansas',
  fips: '20',
  klass: 'auto',
  feeds: [
    {
      kind: 'sst',
      ratesUrl: SST_RATES_URL,
      reading: sstReading([
        { type: '79', read: 'undecoded', why: 'type-79 rows (about half the active rows, alphanumeric codes such as 11KAN, AEATC) are not decoded: a combined total or an overlay is unknown' },
        { type: '63', read: 'district', why: 'Community and Transportation Improvement Districts bind only to the addresses of boundary A records, never to a whole ZIP' },
      ]),
    },
    { kind: 'avalara-zip5', dropPattern: 'TAXRATES_ZIP5_KS*.csv' },
    statutoryFloor('Kansas', 'Kansas DOR + SST quarterly files'),
  ],
  combinedBounds: [0, 15500],
  anchors: [
    { feed: 'avalara-zip5', zip: '67202', expected: '0.07500', asOf: '2025-12-01', edition: '202512', source: 'TAXRATES_ZIP5_KS202512.csv: row 67202 (WICHITA) at 0.095000 folds a 2% special district over part of the ZIP; the other Wichita ZIPs of Sedgwick County agree on 0.075000, the default (sub_zip_district; Avalara estimate, a regression pin rather than a primary-source verification)' },
  ],
})
