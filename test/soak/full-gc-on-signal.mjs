// Preloaded into the server by the soak (node --expose-gc --import ./test/soak/full-gc-on-signal.mjs):
// SIGUSR2 runs a full garbage collection and writes `full-gc-done` with process.memoryUsage() on
// stderr, so the soak can read what the server really retains, before and after the load,
// without the heap's sawtooth in between.
process.on('SIGUSR2', () => {
  globalThis.gc()
  process.stderr.write(`full-gc-done ${JSON.stringify(process.memoryUsage())}\n`)
})
