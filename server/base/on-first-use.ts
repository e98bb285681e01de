// A module only some requests or settings need, imported on first use: the bundle keeps each in a
// chunk that start-up never loads (docs/architecture.md "How the server starts"). Every import()
// in the server goes through onFirstUse (test/server-bundle.test.ts checks), so a module that
// cannot load, or lacks an export its callers use, is an error naming it rather than a TypeError
// at the first call.
export function onFirstUse<M extends object>(name: string, load: () => Promise<M>, uses: readonly (keyof M & string)[]): () => Promise<M> {
  let loading: Promise<M> | null = null
  return () =>
    (loading ??= load().then(
      (module) => {
        const missing = uses.filter((key) => module[key] === undefined)
        if (missing.length > 0) throw new Error(`could not load ${name}: it has no ${missing.join(', ')}`)
        return module
      },
      (error: Error) => {
        throw new Error(`could not load ${name}: ${error.message}`, { cause: error })
      },
    ))
}
