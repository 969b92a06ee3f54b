#!/usr/bin/env bash
# Everything the default test run needs, installed into the active environment.
# Optional engines are added here as their smoke tests land; each line notes its cost.
set -euo pipefail
cd "$(dirname "$0")/.."
python -m pip install --quiet -e '.[dev]'
# Graph databases: FalkorDB server binaries + client, and the official Neo4j driver (~5 s).
python -m pip install --quiet -e '.[falkordb,neo4j]'
# Browser tests: Playwright's Python client (~10 s) driving Debian's Chromium (~60-90 s with
# apt); never `playwright install` (no browser downloads). Without root/apt the browser tests
# skip with a reason.
python -m pip install --quiet playwright
if ! command -v chromium >/dev/null 2>&1 && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium) >/dev/null \
    || echo "warning: could not install chromium; browser tests will skip" >&2
fi
