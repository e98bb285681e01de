import { defineState, LA_LOOKUP_PAGE, statutoryFloor } from './descriptor.ts'

const PINS = 'publisher-evidence-remaining.md §3.5'

export default defineState({
  code: 'LA',
  name: 'Louisiana',
  fips: '22',
  klass: 'auto',
  feeds: [
    { kind: 'la-remote-sellers', pageUrl: LA_LOOKUP_PAGE },
    { kind: 'avalara-zip5', dropPattern: 'TAXRATES_ZIP5_LA*.csv' },
    statutoryFloor('Louisiana', 'Parish collectors / Uniform Local Sales Tax Board; Remote Sellers Commission and LDR Parish E-File rate lookup'),
  ],
  combinedBounds: [0, 14000],
  anchors: [
    { feed: 'la-remote-sellers', zip: '70112', expected: '0.10000', asOf: '2026-09-01', edition: '2026-09-01', source: `New Orleans (Orleans Parish): state 5% + parish-wide 5%; the French Quarter's 0.245% (3601) covers part of the ZIP and is listed as a district that may apply (${PINS}; the other New Orleans ZIPs of the 202512 drop agree on 10%)` },
    { feed: 'avalara-zip5', zip: '70112', expected: '0.10000', asOf: '2025-12-01', edition: '202512', source: 'TAXRATES_ZIP5_LA202512.csv: row 70112 (FRENCH QUARTER EDD) at 0.102450 folds the district\'s 0.245% over the whole ZIP; the other New Orleans ZIPs of Orleans Parish agree on 0.100000, the default (sub_zip_district; Avalara estimate, a regression pin rather than a primary-source verification)' },
  ],
})
