// Every feed kind's adapter, keyed by FeedKind: the pipeline asks a feed what to do through this
// table and never compares feed names, and a kind without an adapter does not compile.
import type { Feed } from '../../sources/descriptor.ts'
import type { FeedKind } from '../../snapshot-contract/feed-traits.ts'
import { akArsstcAdapter } from './ak-arsstc/adapter.ts'
import { alDorAdapter } from './al-dor/adapter.ts'
import { avalaraZip5Adapter } from './avalara-zip5/adapter.ts'
import { azDorTptAdapter } from './az-dor-tpt/adapter.ts'
import { cdtfaAdapter } from './cdtfa/adapter.ts'
import { coDorAdapter } from './co-dor/adapter.ts'
import type { FeedAdapter } from './feed-adapter.ts'
import { flDorSurtaxAdapter } from './fl-dor-surtax/adapter.ts'
import { idorOrdmacheAdapter } from './idor-ordmache/adapter.ts'
import { moDorAdapter } from './mo-dor/adapter.ts'
import { nmTrdGrtAdapter } from './nm-trd-grt/adapter.ts'
import { sstAdapter } from './sst/adapter.ts'
import { statutoryAdapter } from './statutory/adapter.ts'
import { txComptrollerAdapter } from './tx-comptroller/adapter.ts'
import { vaTaxAdapter } from './va-tax/adapter.ts'

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
