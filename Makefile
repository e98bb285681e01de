# taxatlas — every target is a verb; the data it produces lives under build/ (scratch) and
# artifacts/ (published snapshots). Settings come from the environment (see docs/operations.md).

NODE_BIN := node_modules/.bin
TSX := $(NODE_BIN)/tsx

.PHONY: refresh diff audit test bench soak serve typecheck clean release-asset

ARTIFACTS := $(or $(TAXATLAS_ARTIFACTS),artifacts)

# npm rewrites node_modules/.package-lock.json on every install, so it dates the installed tree.
node_modules/.package-lock.json: package-lock.json
	npm install

# Build and publish a new snapshot from the sources (official URLs, or TAXATLAS_MIRROR).
refresh: node_modules/.package-lock.json
	$(TSX) pipeline/main.ts

# The served snapshot as release assets in build/release/: taxatlas-snapshot.tar.gz (extract it in
# an artifacts directory: CURRENT and snapshots/<id>/), its manifest.json and freshness.json, and
# SNAPSHOT (the id). The refresh workflow uploads them to a GitHub release.
release-asset:
	@id=$$(tr -d '[:space:]' < $(ARTIFACTS)/CURRENT) && test -n "$$id" && rm -rf build/release && mkdir -p build/release && \
	tar -czf build/release/taxatlas-snapshot.tar.gz -C $(ARTIFACTS) CURRENT snapshots/$$id && \
	cp $(ARTIFACTS)/snapshots/$$id/manifest.json $(ARTIFACTS)/snapshots/$$id/freshness.json build/release/ && \
	echo $$id > build/release/SNAPSHOT && echo "build/release: snapshot $$id"

# Per-state ZIP changes between two snapshots: make diff FROM=<id> TO=<id> [AS_OF=YYYY-MM-DD]
diff: node_modules/.package-lock.json
	$(TSX) pipeline/diff-main.ts $(FROM) $(TO) $(AS_OF)

# Aggregator against official rates, per state holding both, and each default rule's effect, written to
# docs/audit.md (AUDIT_DOCS): make audit [SNAPSHOT=<id>] [AS_OF=YYYY-MM-DD]
audit: node_modules/.package-lock.json
	$(TSX) pipeline/audit-main.ts --docs=$(or $(AUDIT_DOCS),docs/audit.md) $(if $(SNAPSHOT),--snapshot=$(SNAPSHOT)) $(if $(AS_OF),--as-of=$(AS_OF))

test: node_modules/.package-lock.json
	TZ=UTC $(NODE_BIN)/vitest run

typecheck: node_modules/.package-lock.json
	$(NODE_BIN)/tsc --noEmit

# Runs a script with a temp directory of its own (TMPDIR), removed when it ends, also when it fails or
# is interrupted: the bench and the soak build snapshots and start servers and databases in it.
# Mode 711: the throwaway PostgreSQL runs as the postgres user and must reach its folder inside.
IN_OWN_TMPDIR = dir=$$(mktemp -d "$${TMPDIR:-/tmp}/taxatlas-make-$@-XXXXXX") && trap 'rm -rf "$$dir"' EXIT INT TERM && chmod 711 "$$dir" && TMPDIR="$$dir"

# Side-by-side measurements, printed as a table and written to build/bench.json and docs/benchmarks.md.
bench: node_modules/.package-lock.json
	@$(IN_OWN_TMPDIR) TZ=UTC $(TSX) test/bench/bench.ts

# The lookup server under sustained load (SOAK_SECONDS, default 60, at SOAK_FRACTION, default 0.8,
# of its measured maximum) with a snapshot published midway and the store file taken away for
# SOAK_STORE_OUTAGE_SECONDS (5); writes build/soak.json.
soak: node_modules/.package-lock.json
	@$(IN_OWN_TMPDIR) TZ=UTC $(TSX) test/soak/soak.ts

clean:
	rm -rf build

# The server runs as a bundled ES module with its dependencies inside (only DuckDB's native
# module stays outside, loaded after listen): no TypeScript loader and no package resolution at
# start-up, and signals such as SIGHUP reach it directly. What is imported dynamically (the store
# engines, undici, prom-client) goes to build/server/chunks/, loaded on first use, so start-up
# parses only main.mjs. Chunk names carry a hash of their content and old ones are left in place: a
# server still running from an earlier build finds the chunks it loads later.
SERVER_SOURCES := $(shell find server snapshot-contract pipeline sources -name '*.ts')
# server/build-bundle.ts holds esbuild's options; test/server-bundle.test.ts builds through this rule.
build/server/main.mjs: $(SERVER_SOURCES) node_modules/.package-lock.json
	$(TSX) server/build-bundle.ts $(@D)

# The web console the server serves at / (TAXATLAS_CONSOLE_DIR): pages, their bundled scripts
# (the typed client inside), the states map and Swagger UI, built from console/ into one directory.
CONSOLE_SOURCES := $(shell find console -type f) $(wildcard client/*.ts) sources/index.ts
build/console/index.html: $(CONSOLE_SOURCES) node_modules/.package-lock.json
	$(TSX) console/build-console.ts $(@D)

# The typed client as an npm package in client/dist (`npm pack` in client/ builds it too); its API
# types are regenerated from the server's schemas.
CLIENT_SOURCES := $(wildcard client/*.ts client/codegen/*.ts) client/package.json client/tsconfig.build.json
client/dist/esm/index.js: $(CLIENT_SOURCES) $(SERVER_SOURCES) node_modules/.package-lock.json
	cd client && npm run build

# Serve the current snapshot (building one first when there is none) and the web console: PORT,
# HOST and the rest in docs/operations.md.
serve: build/server/main.mjs build/console/index.html
	@test -s "$${TAXATLAS_ARTIFACTS:-artifacts}/CURRENT" || $(TSX) pipeline/main.ts
	node build/server/main.mjs
