"""The README's shell blocks run as pasted, print what the README shows, and leave a fresh
checkout clean (``git status --short`` empty). Conventions: tests/readme_blocks.py."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.readme_blocks import (
    Block,
    output_matches,
    parse_commands,
    readme_blocks,
    runnable_script,
    split_outputs,
)

REPO = Path(__file__).resolve().parent.parent
BLOCKS = readme_blocks(REPO / "README.md")
RUNNABLE = [b for b in BLOCKS if b.skip_reason is None]


def scratch_checkout(root: Path) -> Path:
    """A copy of the files a clone would hold (tracked, plus new files not ignored), committed
    in a git repository of its own so that what a block leaves behind shows in git status."""
    files = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=REPO,
                           capture_output=True, check=True).stdout.decode().split("\0")
    repo = root / "repo"
    for name in filter(None, files):
        src = REPO / name
        if src.is_file():
            (repo / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, repo / name)
    shared = REPO.parent / "shared"
    if shared.is_dir():
        (root / "shared").symlink_to(shared)
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"]
    subprocess.run([*git, "init", "-q"], cwd=repo, check=True)
    subprocess.run([*git, "add", "-A"], cwd=repo, check=True)
    subprocess.run([*git, "commit", "-qm", "scratch"], cwd=repo, check=True)
    return repo


def run_block(block: Block, root: Path) -> tuple[str, list[tuple[list[str], int | None]]]:
    repo = scratch_checkout(root)
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}:{os.environ['PATH']}",
           "FACTGRAPH_CACHE": str(root / "calls.sqlite"), "TERM": "dumb", "COLUMNS": "100",
           "NO_COLOR": "1"}
    for key in ("VIRTUAL_ENV", "FALKORDB_URL", "NEO4J_URI", "FACTGRAPH_DEBUG"):
        env.pop(key, None)
    proc = subprocess.run(["bash", "-c", runnable_script(block.commands)], cwd=repo, env=env,
                          capture_output=True, text=True, timeout=600, stdin=subprocess.DEVNULL)
    status = subprocess.run(["git", "status", "--short"], cwd=repo, capture_output=True,
                            text=True, check=True).stdout
    return status, split_outputs(proc.stdout, len(block.commands))


@pytest.mark.parametrize("block", RUNNABLE, ids=[f"line{b.line}" for b in RUNNABLE])
def test_readme_block_runs_as_pasted(block: Block, tmp_path: Path) -> None:
    status, outputs = run_block(block, tmp_path)
    for cmd, (lines, rc) in zip(block.commands, outputs, strict=True):
        shown = "\n".join(lines)
        assert rc is not None, f"README line {block.line}: never finished: {cmd.text}\n{shown}"
        if cmd.must_fail:
            assert rc != 0, f"README line {block.line}: should fail: {cmd.text}\n{shown}"
        else:
            assert rc == 0, f"README line {block.line}: exit {rc}: {cmd.text}\n{shown}"
        if cmd.expected:
            assert output_matches(cmd.expected, lines), (
                f"README line {block.line}: `{cmd.text}` printed\n{shown}\n"
                "but the README shows\n" + "\n".join(cmd.expected))
    assert status == "", f"README line {block.line} left files behind:\n{status}"


def test_every_block_runs_or_says_why_not() -> None:
    assert RUNNABLE, "no runnable README block found"
    for block in BLOCKS:
        assert block.commands, f"README line {block.line}: an empty bash block"
        assert block.skip_reason is None or len(block.skip_reason) > 10


def test_output_matching_rules() -> None:
    assert output_matches(["a  b", "...", "z"], ["a b", "x", "y", "z"])
    assert output_matches(["...", "z"], ["z"])
    assert not output_matches(["a", "b"], ["a", "b", "c"])  # nothing unshown may follow
    assert not output_matches(["a"], ["b"])
    cmds = parse_commands("# c\nfoo \\\n  --x\n#> out\ncat > f <<'E'\n#> not output\nE\nbar")
    assert [c.text.split()[0] for c in cmds] == ["foo", "cat", "bar"]
    assert cmds[0].expected == ["out"] and cmds[1].expected == []
