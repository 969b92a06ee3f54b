"""The layers (docs/extending.md, "The layers"): the import-linter contracts of pyproject.toml
hold, no two modules import each other in a circle, and an import inside a function or under
``TYPE_CHECKING`` counts as much as one at the top of a module."""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import networkx as nx
import pytest

REPO = Path(__file__).resolve().parent.parent

grimp = pytest.importorskip(
    "grimp", reason="import-linter is not installed (it comes with the dev extra)")
pytest.importorskip("importlinter", reason="import-linter is not installed (the dev extra)")


def _settings() -> dict[str, object]:
    with open(REPO / "pyproject.toml", "rb") as f:
        settings: dict[str, object] = tomllib.load(f)["tool"]["importlinter"]
    return settings


def _graph(package: str, path: Path) -> Any:
    """The import graph of ``package`` found under ``path``, built as lint-imports builds it."""
    sys.path.insert(0, str(path))
    try:
        return grimp.build_graph(
            package, cache_dir=None,
            exclude_type_checking_imports=bool(_settings()["exclude_type_checking_imports"]))
    finally:
        sys.path.remove(str(path))


def test_the_import_contracts_hold() -> None:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(REPO), *filter(None, [os.environ.get("PYTHONPATH")])])}
    res = subprocess.run(
        [sys.executable, "-c", "import sys; from importlinter.cli import lint_imports; "
         "sys.exit(lint_imports(no_cache=True, no_logo=True))"],
        cwd=REPO, env=env, capture_output=True, text=True, timeout=300)
    assert "Contracts: " in res.stdout, res.stdout + res.stderr
    assert res.returncode == 0, res.stdout + res.stderr
    contracts = _settings()["contracts"]
    assert isinstance(contracts, list) and len(contracts) >= 4
    assert f"Contracts: {len(contracts)} kept, 0 broken." in res.stdout


def test_no_module_imports_itself_through_others() -> None:
    graph = _graph("factgraph", REPO)
    modules = sorted(graph.modules)
    assert "factgraph.models" in modules and "factgraph.stages.session" in modules
    g: nx.DiGraph = nx.DiGraph()
    g.add_nodes_from(modules)
    for m in modules:
        for imported in graph.find_modules_directly_imported_by(m):
            g.add_edge(m, imported)
    assert g.number_of_edges() > len(modules)
    circles = [sorted(c) for c in nx.strongly_connected_components(g) if len(c) > 1]
    assert circles == []


def test_every_python_folder_is_a_package_the_check_sees() -> None:
    # a folder without __init__.py is a namespace package: grimp (and find_packages) skip it,
    # so its imports would go unchecked
    folders = {p.parent for p in (REPO / "factgraph").rglob("*.py")}
    assert folders
    assert sorted(str(f.relative_to(REPO)) for f in folders
                  if not (f / "__init__.py").exists()) == []


def test_imports_inside_functions_and_under_type_checking_count(tmp_path: Path) -> None:
    pkg = tmp_path / "layered_demo"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "low.py").write_text("def draw():\n    from layered_demo import high\n"
                                "    return high\n")
    (pkg / "typed.py").write_text("from typing import TYPE_CHECKING\n"
                                  "if TYPE_CHECKING:\n    from layered_demo import high\n")
    (pkg / "high.py").write_text("import layered_demo.low\n")
    graph = _graph("layered_demo", tmp_path)
    imported_by = graph.find_modules_directly_imported_by
    assert imported_by("layered_demo.low") == {"layered_demo.high"}
    assert imported_by("layered_demo.typed") == {"layered_demo.high"}
    assert imported_by("layered_demo.high") == {"layered_demo.low"}


def test_no_command_module_imports_the_cli_entry_point() -> None:
    # cli/main loads the command modules by name; they share UserError and the output helpers
    # through cli/output, never by importing main back
    graph = _graph("factgraph", REPO)
    importers = graph.find_modules_that_directly_import("factgraph.cli.main")
    assert sorted(importers) == ["factgraph.__main__"]
