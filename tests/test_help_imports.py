"""``factgraph evaluate --help`` reads the methods' options, never their run code (issue 34,
second pass): the flags come from the options models, which live apart from the stages, the
prompts and the modules that run a method (a spec's ``run`` is a ``lazy_callable``)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent

# In a fresh interpreter: the help, then what it imported and the modules that hold the
# run code of every built-in method and judge kind, read off the specs after the snapshot (a
# run given as a function, e2e's, lives in its spec's module, which the help reads).
PROBE = """
import json, sys
from click.testing import CliRunner
from factgraph.cli.main import cli
res = CliRunner().invoke(cli, ["evaluate", *sys.argv[1:], "--help"])
loaded = sorted(m for m in sys.modules if m.startswith("factgraph"))
from factgraph.methods.e2e.kinds import judge_kinds
from factgraph.methods.registry import BUILTIN_METHODS, METHODS
runs = [METHODS[name].run for name in BUILTIN_METHODS]
runs += [kind.run for kind in judge_kinds().values()]
targets = sorted({run.target.partition(":")[0] for run in runs if hasattr(run, "target")})
print(json.dumps({"code": res.exit_code, "help": res.output, "loaded": loaded,
                  "run_modules": targets}))
"""


def _help(*args: str) -> dict[str, object]:
    done = subprocess.run([sys.executable, "-c", PROBE, *args], cwd=REPO, capture_output=True,
                          text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(REPO)})
    assert done.returncode == 0, done.stderr
    out: dict[str, object] = json.loads(done.stdout)
    assert out["code"] == 0, out["help"]
    return out


def _forbidden(out: dict[str, object]) -> list[str]:
    """The imported modules that are stages, prompts, or a method's / judge kind's run code."""
    loaded, runs = out["loaded"], out["run_modules"]
    assert isinstance(loaded, list) and isinstance(runs, list)
    return [m for m in loaded if m.startswith(("factgraph.stages", "factgraph.prompts"))
            or m in runs]


@pytest.mark.parametrize("args", [(), ("--method", "icat-a")])
def test_evaluate_help_imports_no_run_code(args: tuple[str, ...]) -> None:
    out = _help(*args)
    run_modules = out["run_modules"]
    assert isinstance(run_modules, list)
    assert {"factgraph.methods.nli", "factgraph.methods.icat",
            "factgraph.methods.e2e.sentences"} <= set(run_modules)  # the probe sees them
    assert _forbidden(out) == []
    loaded = out["loaded"]
    assert isinstance(loaded, list)
    # of the backends only the sampling parameters the run configuration reads
    assert {m for m in loaded if m.startswith("factgraph.backends.")} <= \
        {"factgraph.backends.params"}
    text = " ".join(str(out["help"]).split())
    assert "--max-aspects" in text  # icat-a's flag, made from its options model
    if not args:
        assert "--coverage-cutoff" in text and "--t-rel" in text  # every method's flags
    else:
        assert "--coverage-cutoff" not in text


def test_a_run_imports_its_run_code_on_the_first_call() -> None:
    """The spec's run is the run function once called (what the Evaluator calls, and
    ``inspect.signature`` reads through it)."""
    import inspect

    from factgraph.methods import get_method, get_method_spec
    from factgraph.methods.nli import run_nli

    spec = get_method_spec("nli")
    assert "context_store" in inspect.signature(spec.run).parameters
    assert get_method("nli")[1] is run_nli


def test_the_evidence_judges_default_calibration_is_the_shipped_one() -> None:
    """Written in the judge's options (no stage imported to read it) and in the stage that
    loads it: the same name."""
    from factgraph.methods.e2e.kind_specs import EvidenceJudge
    from factgraph.stages.fact_calibration import DEFAULT_CALIBRATION

    assert EvidenceJudge().calibration == DEFAULT_CALIBRATION
