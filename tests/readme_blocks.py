"""The README's shell blocks as a test runs them: commands, their expected output, skip markers.

Conventions (stated in README.md's "Conventions of this README"):
- every fenced ``bash`` block runs as pasted from the repository root, unless the line before
  it is ``<!-- readme-test: skip: REASON -->``;
- under a command, lines ``#> TEXT`` are what it prints (stdout and stderr together), compared
  with runs of whitespace collapsed; a line ``#> ...`` stands for any number of lines;
- a command whose expected output has a line starting with ``Error:`` must exit non-zero, every
  other command must exit 0.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

FENCE = re.compile(r"^```(\w*)\s*$")
SKIP = re.compile(r"^<!--\s*readme-test:\s*skip:\s*(.+?)\s*-->\s*$")
ELLIPSIS = "..."


@dataclass
class Command:
    text: str
    expected: list[str] = field(default_factory=list)

    @property
    def must_fail(self) -> bool:
        return any(line.startswith("Error:") for line in self.expected)


@dataclass
class Block:
    line: int  # 1-based line of the opening fence
    source: str
    commands: list[Command]
    skip_reason: str | None


def normalise(line: str) -> str:
    return " ".join(line.split())


def parse_commands(source: str) -> list[Command]:
    """Commands of a block: continuation lines (``\\``) and heredocs belong to their command;
    ``#> `` lines attach to the command above them; other comments are dropped."""
    commands: list[Command] = []
    lines = source.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        stripped = line.strip()
        if stripped.startswith("#>"):
            if not commands:
                raise ValueError(f"expected output before any command: {line!r}")
            commands[-1].expected.append(stripped[2:].removeprefix(" "))
            i += 1
            continue
        if not stripped or stripped.startswith("#"):
            i += 1
            continue
        parts = [line]
        heredoc = re.search(r"<<-?\s*'?\"?(\w+)'?\"?", line)
        while parts[-1].rstrip().endswith("\\") and i + 1 < len(lines):
            i += 1
            parts.append(lines[i])
        if heredoc:
            end = heredoc.group(1)
            while i + 1 < len(lines):
                i += 1
                parts.append(lines[i])
                if lines[i].strip() == end:
                    break
        commands.append(Command("\n".join(parts)))
        i += 1
    return commands


def readme_blocks(readme: Path) -> list[Block]:
    blocks: list[Block] = []
    lines = readme.read_text().splitlines()
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m or not m.group(1):
            i += 1
            continue
        lang, start = m.group(1), i
        j = i + 1
        while j < len(lines) and not lines[j].startswith("```"):
            j += 1
        if lang == "bash":
            prev = next((ln for ln in reversed(lines[:start]) if ln.strip()), "")
            skip = SKIP.match(prev.strip())
            source = "\n".join(lines[start + 1:j])
            blocks.append(Block(start + 1, source, parse_commands(source),
                                skip.group(1) if skip else None))
        i = j + 1
    return blocks


def output_matches(expected: list[str], actual: list[str]) -> bool:
    """Whether ``actual`` lines match ``expected`` (``...`` = any number of lines), whole."""
    exp = [normalise(e) for e in expected]
    act = [normalise(a) for a in actual if a.strip()]
    exp = [e for e in exp if e]

    def match(i: int, j: int) -> bool:
        if i == len(exp):
            return j == len(act)
        if exp[i] == ELLIPSIS:
            return any(match(i + 1, k) for k in range(j, len(act) + 1))
        return j < len(act) and exp[i] == act[j] and match(i + 1, j + 1)

    return match(0, 0)


MARK = "@@readme-test command {i} exit {rc}@@"


def runnable_script(commands: list[Command]) -> str:
    """One bash script that runs the commands in order in one shell (so ``cd``, variables and
    ``set -a; . file`` carry over) and marks where each one's output ends and its exit code."""
    out = []
    for i, cmd in enumerate(commands):
        mark = MARK.format(i=i, rc="$?")
        out.append(f"{{\n{cmd.text}\n}} 2>&1\n" + 'printf "\\n' + mark + '\\n"')
    return "\n".join(out) + "\n"


def split_outputs(text: str, n: int) -> list[tuple[list[str], int | None]]:
    """Per command: its output lines and exit code (None where it never finished)."""
    results: list[tuple[list[str], int | None]] = []
    current: list[str] = []
    pattern = re.compile(r"@@readme-test command (\d+) exit (\d+)@@")
    for line in text.splitlines():
        m = pattern.fullmatch(line.strip())
        if m:
            results.append((current, int(m.group(2))))
            current = []
        else:
            current.append(line)
    while len(results) < n:
        results.append((current, None))
        current = []
    return results
