// Keeps the hidden class of Node's `process.nextTick` entries alive for the life of the process.
//
// Node builds each entry as `{ [async_id_symbol]: …, [trigger_async_id_symbol]: …, callback, args }`,
// several per request (stream writes and ends). V8 compiles that literal with computed keys into
// direct stores only while its type feedback names one hidden class, and feedback holds classes
// weakly. A full garbage collection that runs while no entry is alive (an idle moment, or the
// allocations of building /openapi.json) frees the class; the next entry gets a new one, the
// feedback turns megamorphic for good, and from then on every entry is built in V8's runtime, which
// shows as more server CPU per cached lookup in `make bench`'s lookup turns.
// An object of the same class, held here, keeps the class and so the feedback alive. Its fields
// hold `undefined`, the most general representation, so no later value replaces the class (one
// made with small integers was replaced by the first asyncId stored as a double, and did not help).
// It ties the server to Node internals; the `make bench` line "nextTick class kept / no pin" shows
// what it buys, and test/next-tick-class.test.ts fails when it no longer acts (docs/decisions.md).
import { AsyncResource } from 'node:async_hooks'

let kept: object | null = null

/** Makes and holds the entry-shaped object, once; false when this Node no longer names its symbols as expected (nothing is held). */
export function keepNextTickClass(): boolean {
  if (kept !== null) return true
  // Node's own two symbols: an AsyncResource carries them as keys.
  const symbols = Object.getOwnPropertySymbols(new AsyncResource('taxatlas.next-tick-class'))
  const asyncId = symbols.find((symbol) => symbol.description === 'async_id_symbol')
  const triggerAsyncId = symbols.find((symbol) => symbol.description === 'trigger_async_id_symbol')
  if (asyncId === undefined || triggerAsyncId === undefined) return false
  kept = { [asyncId]: undefined, [triggerAsyncId]: undefined, callback: undefined, args: undefined }
  return true
}
