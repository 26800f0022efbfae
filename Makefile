# The project's commands. README.md shows `make run` and `make test` first.
SHELL := /bin/bash
MVN ?= mvn -B -q
JAR := java/target/cks-state-cli.jar

.PHONY: run test rust-test java-test build clean

run: build
	java -jar $(JAR) simulate

build:
	cd java && $(MVN) -DskipTests package

test: rust-test java-test

rust-test:
	cargo fmt --check
	cargo clippy --all-targets -- -D warnings
	cargo test --quiet

# JUnit through the real library under -Xcheck:jni, against H2 and a throwaway MariaDB server.
java-test:
	scripts/mariadb.sh start
	set -o pipefail; cd java && $(MVN) -Dmariadb.url="$$(../scripts/mariadb.sh url)" verify 2>&1 | tee target-test.log; \
	  rc=$$?; ../scripts/mariadb.sh stop; [ $$rc -eq 0 ] || exit $$rc
	scripts/check-jni-warnings.sh java/target-test.log java/target/surefire-reports

clean:
	cargo clean
	cd java && $(MVN) clean
