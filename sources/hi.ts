import { defineState } from './descriptor.ts'

const EVIDENCE = 'publisher-evidence-remaining.md §5.1'
// Every county surcharge ends on 2030-12-31 by its ordinance; a refresh after that day with no newer
// row here reports it (a warning, not silence).
const SURCHARGE = 'county surcharge on general excise tax'

export default defineState({
  code: 'HI',
  name: 'Hawaii',
  fips: '15',
  klass: 'static',
  feeds: [
    {
      kind: 'statute-table',
      verifiedOn: '2026-12-01',
      levies: [
        { county: '15003', name: 'City and County of Honolulu', tax: SURCHARGE, rate: '0.00500', from: '2007-01-01', to: '2030-12-31', citation: `${EVIDENCE} (HI-CS, HI-HC)` },
        { county: '15007', name: 'Kauai County', tax: SURCHARGE, rate: '0.00500', from: '2019-01-01', to: '2030-12-31', citation: `Ord. 1021; ${EVIDENCE} (HI-KPS, HI-HC)` },
        { county: '15001', name: 'Hawaii County', tax: SURCHARGE, rate: '0.00250', from: '2019-01-01', to: '2019-12-31', citation: `Ord. 18-74; ${EVIDENCE} (HI-HC, HI-CROWE)` },
        { county: '15001', name: 'Hawaii County', tax: SURCHARGE, rate: '0.00500', from: '2020-01-01', to: '2030-12-31', citation: `Ord. 19-29; ${EVIDENCE} (HI-HC, HI-CROWE)` },
        { county: '15009', name: 'Maui County', tax: SURCHARGE, rate: '0.00500', from: '2024-01-01', to: '2030-12-31', citation: `Ord. 5511 (Tax Announcement 2023-05); ${EVIDENCE} (HI-MAUI, DG-hi, OST-hi); rules table HI row ("Maui since 2024-01-01")` },
        // Kalawao (15005) levies no surcharge (TAP-hi, DG-hi): no row.
      ],
    },
    { kind: 'avalara-zip5', dropPattern: 'TAXRATES_ZIP5_HI*.csv' },
  ],
  combinedBounds: [0, 13000],
  anchors: [
    { feed: 'statute-table', zip: '96813', expected: '0.04500', asOf: '2026-12-01', edition: '2026-12-01', source: `Honolulu (15003): GET 4% + county surcharge 0.5% (${EVIDENCE})` },
    { feed: 'statute-table', zip: '96742', expected: '0.04000', asOf: '2026-12-01', edition: '2026-12-01', source: `Kalaupapa (Kalawao, 15005): GET 4%, no county surcharge; must not inherit Maui's (${EVIDENCE}, DG-hi)` },
    { feed: 'statute-table', zip: '96793', expected: '0.04000', asOf: '2023-12-31', edition: '2026-12-01', source: `Wailuku (Maui, 15009) before Maui's surcharge began on 2024-01-01 (${EVIDENCE}, HI-MAUI)` },
    { feed: 'statute-table', zip: '96793', expected: '0.04500', asOf: '2026-12-01', edition: '2026-12-01', source: `Wailuku (Maui, 15009): GET 4% + county surcharge 0.5% since 2024-01-01 (${EVIDENCE}, HI-MAUI)` },
    { feed: 'statute-table', zip: '96720', expected: '0.04250', asOf: '2019-06-01', edition: '2026-12-01', source: `Hilo (Hawaii County, 15001) in 2019: GET 4% + surcharge 0.25% (${EVIDENCE}, HI-HC)` },
    { feed: 'avalara-zip5', zip: '96813', expected: '0.04500', asOf: '2025-12-01', edition: '202512', source: 'TAXRATES_ZIP5_HI202512.csv row 96813 (HONOLULU): combined 0.045000 (Avalara estimate, a regression pin rather than a primary-source verification)' },
  ],
})
