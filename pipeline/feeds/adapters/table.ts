// Every feed kind's adapter, keyed by FeedKind: the pipeline asks a feed what to do through this
// table and never compares feed names, and a kind without an adapter does not compile.
import type { Feed } from '../../../sources/descriptor.ts'
import type { FeedKind } from '../../../snapshot-contract/feed-traits.ts'
import { akArsstcAdapter } from './ak-arsstc.ts'
import { alDorAdapter } from './al-dor.ts'
import { avalaraZip5Adapter } from './avalara-zip5.ts'
import { azDorTptAdapter } from './az-dor-tpt.ts'
import { cdtfaAdapter } from './cdtfa.ts'
import { coDorAdapter } from './co-dor.ts'
import type { FeedAdapter } from './feed-adapter.ts'
import { flDorSurtaxAdapter } from './fl-dor-surtax.ts'
import { idorOrdmacheAdapter } from './idor-ordmache.ts'
import { moDorAdapter } from './mo-dor.ts'
import { nmTrdGrtAdapter } from './nm-trd-grt.ts'
import { sstAdapter } from './sst.ts'
import { statutoryAdapter } from './statutory.ts'
import { txComptrollerAdapter } from './tx-comptroller.ts'
import { vaTaxAdapter } from './va-tax.ts'

export const FEED_ADAPTERS: { readonly [K in FeedKind]: FeedAdapter<K> } = {
  sst: sstAdapter,
  cdtfa: cdtfaAdapter,
  'idor-ordmache': idorOrdmacheAdapter,
  'tx-comptroller': txComptrollerAdapter,
  'fl-dor-surtax': flDorSurtaxAdapter,
  'az-dor-tpt': azDorTptAdapter,
  'va-tax': vaTaxAdapter,
  'mo-dor': moDorAdapter,
  'al-dor': alDorAdapter,
  'co-dor': coDorAdapter,
  'nm-trd-grt': nmTrdGrtAdapter,
  'ak-arsstc': akArsstcAdapter,
  'avalara-zip5': avalaraZip5Adapter,
  statutory: statutoryAdapter,
}

/** The adapter of a descriptor's feed, typed for that feed (a correlated union TypeScript cannot see through on its own). */
export const adapterOf = <K extends FeedKind>(feed: Extract<Feed, { kind: K }>): FeedAdapter<K> => FEED_ADAPTERS[feed.kind as K] as FeedAdapter<K>
