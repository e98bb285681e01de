// The order test files start in. With two workers, a long file that starts late runs on alone at
// the end while the other core idles. Vitest orders files by the durations it recorded on earlier
// runs on this machine; a clean checkout (CI) has none, and vitest then starts the largest files
// first, which are not the longest. So the files that take longest start first, in this order,
// and the rest follow in vitest's own order.
import path from 'node:path'
import { BaseSequencer, type TestSpecification } from 'vitest/node'

/** The longest files of a CI run, longest first (both projects: a file listed ranks in each). */
export const LONG_FILES = [
  'test/publisher-replica.test.ts',
  'test/reliability-store.test.ts',
  'test/reliability-security.test.ts',
  'test/console.test.ts',
  'test/refresh-faults.test.ts',
  'test/reliability-fuzz.test.ts',
  'test/portability-million.test.ts',
  'test/refresh.test.ts',
  'test/readme-refresh.test.ts',
  'test/feed-preference.test.ts',
  'test/reliability-snapshots.test.ts',
  'test/release-decision.test.ts',
  'test/reliability-rate-files.test.ts',
  'test/geography-download.test.ts',
  'test/reliability-faults.test.ts',
  'test/consistency-audit.test.ts',
  'test/aggregator-defaults.test.ts',
  'test/portability-durability.test.ts',
]

export class LongFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification) => {
      const at = LONG_FILES.indexOf(path.relative(this.ctx.config.root, file.moduleId).split(path.sep).join('/'))
      return at === -1 ? LONG_FILES.length : at
    }
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b))
  }
}
