# Copyright 2025-2026 The cks-state authors
# SPDX-License-Identifier: Apache-2.0
# The project's commands. README.md shows `make run` and `make test` first.
SHELL := /bin/bash
MVN ?= mvn -B -q
JAR := java/target/cks-state-cli.jar
SIMULATOR_JAR := java/target/cks-state-simulator.jar

LIBRARY_JAR := java/library/target/cks-state-0.1.0.jar

.PHONY: check lint cloudstack package package-test package-release-test series-commits series-alone e2e-cloudstack standin-test run scripts-test test rust-test java-test platform-test build build-host clean toolchains reproducible shared

# The first run is quick: this machine's native library only (build-host); the cross builds for the
# other platforms belong to `make build`, `make test` and the jars that ship.
run: build-host
	java -jar $(SIMULATOR_JAR) simulate

# The build installs nothing (scripts/native.sh checks the toolchains and names what is missing):
# `make toolchains` installs them, pinned; `build` and `test` call it first, `run` and `build-host` only
# the rustup toolchain (`native.sh toolchains-host`).
build: toolchains
	cd java && $(MVN) -DskipTests package

# A fast build for development: this machine's native library only (no cross builds, no glibc
# floor); not the jars that ship.
build-host:
	scripts/native.sh toolchains-host
	rm -rf java/library/target/classes/native
	cd java && $(MVN) -Phost -DskipTests package

test: shared toolchains scripts-test rust-test java-test bench-build platform-test cloudstack package-test package-release-test standin-test

# The tests read CloudStack's sources from ../shared (README: "../shared"): without it, stop at once
# with one line naming CKS_SHARED_DIR, not minutes later in a test.
shared:
	@scripts/shared.sh >/dev/null

# The project's own scripts, checked as a new user meets them: the lookup of ../shared from a clone
# in a temporary folder; the e2e's Python compiles and finds its table in the spec; Marvin's results
# read as the e2e report needs them; the docs name files that exist and list every script.
scripts-test:
	scripts/check-shared-lookup.sh
	python3 -m py_compile scripts/*.py scripts/e2e/*.py
	python3 scripts/e2e/states.py
	python3 scripts/e2e/marvin_tests.py
	python3 scripts/e2e/report_cases.py
	python3 scripts/line-counts.py >/dev/null
	python3 scripts/check-docs.py

# The checks both loops start with: formatting, file sizes, license headers and notices, clippy.
lint:
	cargo fmt --check
	scripts/check-file-sizes.sh
	scripts/check-license-headers.sh
	scripts/third-party-native.py --check
	cargo clippy --workspace --all-targets -- -D warnings

# The quick loop (about 2 minutes on a warm machine, 113 s measured; `make test` stays the gate): fmt, file sizes, clippy, the
# cargo unit and property tests, and the library's H2 tests through this machine's native library
# under -Xcheck:jni (the MariaDB cases are aborted, not run).
CHECK_CARGO_TESTS := --lib --test properties --test entry_matrix --test table_conformance \
	--test modes_decide_alike_and_write_apart \
	--test fencing --test recovery_planning --test upstream_scenarios --test planner_and_scale_details --test spec_parser \
	--test differential_schedules
check: shared lint
	cargo test --quiet $(CHECK_CARGO_TESTS)
	cargo test --quiet -p cks-state-jni
	scripts/native.sh toolchains-host
	rm -rf java/library/target/classes/native
	set -o pipefail; cd java && $(MVN) -Phost -pl library -am -Dh2.only=true -Dcks.excluded.groups=,shipping-jar \
	  -Dcks.shared.dir="$$(../scripts/shared.sh)" test 2>&1 | tee target-check.log
	scripts/check-jni-warnings.sh java/target-check.log java/library/target/surefire-reports

# The core crate alone has no jni (cargo tree): its purity is a build rule, checked.
rust-test: lint
	cargo clippy --workspace --all-targets --features cks-state-jni/test-hooks -- -D warnings
	! cargo tree -p cks-state -e normal --prefix none | grep -q '^jni '
	cargo test --quiet --workspace

# JUnit through the real library under -Xcheck:jni, against H2 and CloudStack's own database
# (built from CloudStack's SQL by scripts/cloudstack-db.sh, cached) on a throwaway MariaDB server
# (the process simulation also starts and stops a throwaway 3-node Galera cluster, scripts/galera.sh).
java-test: shared toolchains
	scripts/mariadb.sh start
	scripts/cloudstack-db.sh load
	scripts/galera.sh install
	set -o pipefail; cd java && $(MVN) -Dmariadb.url="$$(../scripts/mariadb.sh url)" -Dcks.shared.dir="$$(../scripts/shared.sh)" \
	  verify 2>&1 | tee target-test.log; \
	  rc=$$?; ../scripts/mariadb.sh stop; [ $$rc -eq 0 ] || exit $$rc
	scripts/check-jni-warnings.sh java/target-test.log java/library/target/surefire-reports java/tool/target/surefire-reports java/simulator/target/surefire-reports java/examples/target/surefire-reports

# CloudStack's Kubernetes Service plugin and the modules the series in cloudstack/ patches, built
# against CloudStack's own modules (built once per source sha256 into the local Maven repository),
# their tests run (scripts/cloudstack.sh).
cloudstack: shared
	@# The series build with the jar that ships: after `make run` (this machine's library only), build it.
	@scripts/check-native-jar.sh $(LIBRARY_JAR) >/dev/null 2>&1 || $(MAKE) build
	scripts/cloudstack.sh test

# The operator's packages of each line (target/package/<line>/: a .deb and an .rpm per architecture):
# the overlay of the modules the series patches, as make cloudstack built them, the library, the
# systemd drop-in and the cks-state command (docs/operator-deb.md, docs/operator-rpm.md).
package: shared
	scripts/package.sh tools
	@for line in $$(awk -F'\t' '!/^#/ && NF { print $$1 }' cloudstack/lines.tsv); do scripts/package.sh build $$line || exit 1; done

# Each line's packages installed, upgraded and removed with dpkg and rpm on scratch roots, and their
# start check (scripts/package-test.sh; as root).
package-test: package
	@for line in $$(awk -F'\t' '!/^#/ && NF { print $$1 }' cloudstack/lines.tsv); do scripts/package-test.sh $$line || exit 1; done

# The packages built from a release's own source as Apache publishes it (apache-cloudstack-<v>-src.tar.bz2
# and its .sha512: scripts/package.sh release), here 4.20's repacked so: the same overlay as make package's.
package-release-test: package
	scripts/package-release-build-test.sh 4.20

# Every commit of each series builds (after `make cloudstack`, whose modules and library jar it uses):
# what a reviewer taking the series patch by patch, or git bisect, meets. .ci/run runs it after make test.
series-commits: shared
	scripts/series-commits.sh

series-alone: shared
	scripts/series-commits.sh --alone

# The e2e's node stand-in is no kinder than real nodes: its rules on CloudStack's own database of each
# line the e2e runs (scripts/e2e/test_standin.py; a MariaDB of its own, port 3437).
standin-test: shared
	scripts/e2e/standin-test.sh

# CloudStack with the patched plugin on its simulator: two management servers on one MariaDB, one
# SIGKILLed in the middle of a CKS operation, the cluster recovered; compat and fenced side by side; for
# each line of LINES (make e2e-cloudstack LINES=4.20). Not part of `make test` (docs/e2e-cloudstack.md;
# needs root for the network namespaces).
# LINES only from make's command line: the shell's LINES is the terminal's height.
E2E_LINES := $(if $(filter command line,$(origin LINES)),$(LINES),main 4.20)
e2e-cloudstack: build
	CKS_E2E_LINES="$(E2E_LINES)" scripts/e2e-cloudstack.sh

# Both jars carry linux-x86_64 and linux-aarch64 with a glibc 2.17 floor, and the library
# jar answers under Debian 11's glibc and, on aarch64, under qemu; no native-access warning on a
# JDK 22+ (run after java-test's build).
platform-test:
	scripts/check-native-jar.sh $(LIBRARY_JAR) $(JAR) $(SIMULATOR_JAR)
	scripts/check-artifacts.sh $(LIBRARY_JAR) $(JAR) $(SIMULATOR_JAR)
	scripts/platform-smoke.sh $(LIBRARY_JAR) $(JAR) java/library/target/test-classes java/library/target/host.classpath

# The pinned toolchains: Rust of rust-toolchain.toml (rustup), zig and cargo-zigbuild (PyPI, into
# .toolchains/), rustc-web and its arm64 std (Debian). Idempotent; the only step that installs them.
toolchains:
	scripts/native.sh toolchains

# Two clean builds of HEAD in two fresh clones must give byte-identical jars.
reproducible: toolchains
	scripts/reproducible.sh

clean:
	cargo clean
	cd java && $(MVN) clean

# ---- Benchmarks (see BENCHMARKS.md): cargo bench, the JMH suite (one run, ratios to
# baselines of the same run) and the scanner pass end to end on MariaDB. The scanner uses a
# throwaway server of its own (port 3427, .mariadb/bench-3427) so that a `make java-test` beside
# it keeps its server. Results and logs land in java/library/target-bench/. bench-quick: < 5 minutes.
BENCH_OUT := java/library/target-bench
BENCH_JAVA = java -Dcks.state.library.path=$(CURDIR)/$(BENCH_OUT)/native-stage/test-hooks/libcks_state.so \
	-cp "$(BENCH_OUT)/test-classes:$(BENCH_OUT)/classes:$$(cat $(BENCH_OUT)/bench.classpath)"
BENCH_COMMA := ,
BENCH_DB := CKS_MARIADB_PORT=3427 CKS_MARIADB_DIR=$(CURDIR)/.mariadb/bench-3427 scripts/mariadb.sh
BENCH_CLOUDSTACK_DB := CKS_MARIADB_PORT=3427 CKS_MARIADB_DIR=$(CURDIR)/.mariadb/bench-3427 scripts/cloudstack-db.sh

.PHONY: bench bench-quick bench-build

# The benchmarks built, not run: `make test` builds the JMH and scanner benchmarks so that a change
# that breaks one fails there (clippy --all-targets in `make lint` compiles the cargo bench). They load
# this machine's test-hooks library (BENCH_JAVA), which the host build makes.
bench-build:
	scripts/native.sh toolchains-host
	cargo build --release --lib
	cd java && $(MVN) -pl library -am -Pbench,host -Dcks.build.dir=target-bench test-compile

# $(1): full or quick; $(2): scanner cluster counts; $(3): timed scanner passes per count; $(4): async
# job counts of the pass on CloudStack's own database (10,000 clusters).
# cargo bench --profile release reuses the library built above (the bench profile would build it again).
define run-bench
	set -o pipefail; $(if $(filter quick,$(1)),CKS_BENCH_QUICK=1) cargo bench --profile release --bench core_decisions \
	  2>&1 | tee $(BENCH_OUT)/cargo-bench.txt
	set -o pipefail; $(BENCH_JAVA) org.apache.cloudstack.kubernetes.state.BenchMain $(1) \
	  $(BENCH_OUT)/jmh-summary.md 2>&1 | tee $(BENCH_OUT)/jmh.log
	$(BENCH_JAVA) org.apache.cloudstack.kubernetes.state.jdbc.CallsPerWriteBenchmark $(BENCH_OUT)/calls-per-write.md \
	  >$(BENCH_OUT)/calls-per-write.log 2>&1 || { tail -n 40 $(BENCH_OUT)/calls-per-write.log; exit 1; }
	$(BENCH_DB) start
	$(BENCH_JAVA) org.apache.cloudstack.kubernetes.state.jdbc.ScannerBenchmark "$$($(BENCH_DB) url)" $(2) $(3) \
	  $(BENCH_OUT)/scanner-summary.md >$(BENCH_OUT)/scanner.log 2>&1; \
	  rc=$$?; [ $$rc -eq 0 ] || { $(BENCH_DB) stop; tail -n 40 $(BENCH_OUT)/scanner.log; exit $$rc; }
	$(BENCH_CLOUDSTACK_DB) load
	$(BENCH_JAVA) org.apache.cloudstack.kubernetes.state.jdbc.CloudStackScaleBenchmark "$$($(BENCH_DB) url)" 10000 $(4) $(3) \
	  $(BENCH_OUT)/cloudstack-scale-summary.md >$(BENCH_OUT)/cloudstack-scale.log 2>&1; \
	  rc=$$?; $(BENCH_DB) stop; [ $$rc -eq 0 ] || { tail -n 40 $(BENCH_OUT)/cloudstack-scale.log; exit $$rc; }
	@echo; cat $(BENCH_OUT)/jmh-summary.md; echo; cat $(BENCH_OUT)/calls-per-write.md; echo; cat $(BENCH_OUT)/scanner-summary.md; echo; cat $(BENCH_OUT)/cloudstack-scale-summary.md
	python3 scripts/benchmarks-md.py $(BENCH_OUT) $(1)
endef

bench: bench-build
	$(call run-bench,full,1000$(BENCH_COMMA)10000$(BENCH_COMMA)100000,5,1000000$(BENCH_COMMA)2000000)

bench-quick: bench-build
	$(call run-bench,quick,1000$(BENCH_COMMA)10000,3,100000$(BENCH_COMMA)200000)

# Long hostile-input and fault runs; `make test` runs the short versions of the same
# tests. Knobs: SOAK_FUZZ_SECONDS (per libFuzzer target), SOAK_PROPTEST_CASES, SOAK_JUNK_CALLS (per
# native method), SOAK_SIMULATE_OPERATIONS (each long simulate run), SOAK_SIM_SEEDS (long random
# simulation scripts per mode).
SOAK_FUZZ_SECONDS ?= 300
SOAK_PROPTEST_CASES ?= 200000
SOAK_JUNK_CALLS ?= 1000000
SOAK_SIMULATE_OPERATIONS ?= 20000
SOAK_SIM_SEEDS ?= 1000000
CARGO_FUZZ_VERSION := 0.13.2
FUZZ_TARGETS := decode_codes table_lookups scaling_steps recovery_planning fenced_planner

.PHONY: soak soak-fuzz soak-java soak-simulate soak-sim
soak: soak-fuzz soak-sim soak-java soak-simulate

# The random simulation's long scripts (40+ operations per seed, faults all along), a million
# seeds per mode by default.
soak-sim:
	CKS_SIM_LONG_SEEDS=$(SOAK_SIM_SEEDS) cargo test --release --test deterministic_sim long_scripts -- --nocapture

# libFuzzer needs a nightly toolchain; where none is installed (and none can be fetched) the long
# proptest run of the same entry points is all that runs, and this says so.
soak-fuzz:
	PROPTEST_CASES=$(SOAK_PROPTEST_CASES) cargo test --release --test fuzz_entry_points
	@if rustup run nightly rustc --version >/dev/null 2>&1; then \
	  cargo fuzz --version 2>/dev/null | grep -qF '$(CARGO_FUZZ_VERSION)' || \
	    cargo install cargo-fuzz --version $(CARGO_FUZZ_VERSION) --locked || exit 1; \
	  cd fuzz && for t in $(FUZZ_TARGETS); do \
	    echo "fuzz: $$t for $(SOAK_FUZZ_SECONDS) s"; \
	    cargo +nightly fuzz run -O $$t -- -max_total_time=$(SOAK_FUZZ_SECONDS) -print_final_stats=1 || exit 1; \
	  done; \
	else \
	  echo "soak-fuzz: no nightly toolchain: libFuzzer targets in fuzz/ skipped (the proptest run above covers the same entry points)"; \
	fi

soak-java: toolchains
	scripts/mariadb.sh start
	set -o pipefail; cd java && $(MVN) -Dmariadb.url="$$(../scripts/mariadb.sh url)" \
	  -Dsurefire.argLine="-Xcheck:jni -Djunit.jupiter.execution.timeout.default=120m -Dcks.junk.calls=$(SOAK_JUNK_CALLS) -Dcks.concurrency.millis=60000 -Dcks.restart.operations=4000 -Dcks.matrix.steps=1500" \
	  -Dtest='NativeJunkTest,NativeModeJunkTest,ConcurrencyTest,NativeLibraryLoaderTest,DatabaseFaultsTest,DatabaseRestartSimulationTest,MatrixAgreementTest' \
	  -Dsurefire.failIfNoSpecifiedTests=false verify 2>&1 | tee target-soak.log; \
	  rc=$$?; ../scripts/mariadb.sh stop; [ $$rc -eq 0 ] || exit $$rc
	grep -h 'JUNK\|CONCURRENCY\|RACE\|LOADERS\|FAULT\|MATRIX' java/*/target/surefire-reports/*-output.txt || true
	scripts/check-jni-warnings.sh java/target-soak.log java/library/target/surefire-reports java/tool/target/surefire-reports java/simulator/target/surefire-reports

soak-simulate: build
	scripts/soak-simulate.sh $(SIMULATOR_JAR) $(SOAK_SIMULATE_OPERATIONS)

# The protocol checked exhaustively (tests/sim/model, docs/model-check.md): every schedule of
# each bounded configuration in both modes, with the real core; minutes (BENCHMARKS.md).
.PHONY: model-check
model-check:
	cargo test --release --test model_check -- --ignored --nocapture --test-threads 1

# Mutation testing of the core's decisions (cargo-mutants, pinned; tens of minutes, so
# not part of `make test`). Fails on a surviving mutant that mutants/equivalent.txt does not explain.
.PHONY: mutants
mutants:
	scripts/mutants.sh
