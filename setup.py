"""Ship the top-level cypher/ and viz/ folders inside the wheel as factgraph/_cypher, _viz."""

from __future__ import annotations

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py


class BuildWithResources(build_py):
    def run(self) -> None:
        super().run()
        root = Path(__file__).resolve().parent
        for name in ("cypher", "viz"):
            src = root / name
            if src.is_dir():
                dst = Path(self.build_lib) / "factgraph" / f"_{name}"
                shutil.rmtree(dst, ignore_errors=True)
                shutil.copytree(src, dst, ignore=shutil.ignore_patterns("__pycache__"))


setup(cmdclass={"build_py": BuildWithResources})
