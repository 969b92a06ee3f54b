#!/usr/bin/env bash
# Everything the default test run needs, installed into the active environment.
# Optional engines are added here as their smoke tests land.
set -euo pipefail
cd "$(dirname "$0")/.."
python -m pip install --quiet -e '.[dev]'
