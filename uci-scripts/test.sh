#!/usr/bin/env bash
# The project's test command: Rust tests (unit, UCI sessions, perft suites,
# search), then the python-chess client suite against the release binary.
# PYTHON may name an interpreter that has tests/python/requirements.txt.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
cargo test --release
# The tuning build: its tunables are UCI options and settable.
cargo test --release --features tune --lib -- params options
cargo build --release
KESTREL_BIN="$PWD/target/release/kestrel" "$PYTHON" -m pytest -q tests/python
