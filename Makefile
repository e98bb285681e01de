# taxatlas — every target is a verb; the data it produces lives under build/ (scratch) and
# artifacts/ (published snapshots). Settings come from the environment (see README.md).

NODE_BIN := node_modules/.bin
TSX := $(NODE_BIN)/tsx

.PHONY: refresh diff test bench serve typecheck clean

node_modules: package.json package-lock.json
	npm ci
	@touch node_modules

# Build and publish a new snapshot from the sources (official URLs, or TAXATLAS_MIRROR).
refresh: node_modules
	$(TSX) pipeline/main.ts

# Per-state ZIP changes between two snapshots: make diff FROM=<id> TO=<id> [AS_OF=YYYY-MM-DD]
diff: node_modules
	$(TSX) pipeline/diff-main.ts $(FROM) $(TO) $(AS_OF)

test: node_modules
	TZ=UTC $(NODE_BIN)/vitest run

typecheck: node_modules
	$(NODE_BIN)/tsc --noEmit

# Side-by-side measurements, printed as a table and written to build/bench.json.
bench: node_modules
	TZ=UTC $(TSX) test/bench/bench.ts

clean:
	rm -rf build
