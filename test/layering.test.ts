// The floors written down in .dependency-cruiser.cjs hold for the whole code base: no module
// imports from a floor above its own, the client and the console's browser code import nothing of
// the server's, and no import cycle exists.
import { execa } from 'execa'
import { expect, it } from 'vitest'

it('no module imports from a floor above it, and no import cycle exists', async () => {
  const run = await execa('node_modules/.bin/depcruise', ['--output-type', 'err', 'snapshot-contract', 'sources', 'pipeline', 'server', 'client', 'console'], { reject: false })
  expect(run.stdout + run.stderr).toContain('no dependency violations found')
  expect(run.exitCode).toBe(0)
})
