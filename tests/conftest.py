"""Shared fixtures: paths to the repository's examples and to ../shared/data."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import settings

REPO = Path(__file__).resolve().parent.parent
SHARED_DATA = REPO.parent / "shared" / "data"


def pytest_configure(config: pytest.Config) -> None:
    # CI replays the same generated examples every run, so a red CI is reproducible and a green
    # one is not luck; local runs explore new examples each time.
    settings.register_profile("ci", derandomize=True, print_blob=True)
    if os.environ.get("CI"):
        settings.load_profile("ci")


@pytest.fixture
def example_graph_path() -> Path:
    return REPO / "examples" / "wikicontradict_heber.json"


@pytest.fixture
def shared_data() -> Path:
    if not SHARED_DATA.is_dir():
        pytest.skip("../shared/data is absent")
    return SHARED_DATA


@pytest.fixture
def voss_files(tmp_path: Path) -> dict[str, Path]:
    """The Voss example's response and background texts as files (tests.pipeline_support)."""
    from tests.pipeline_support import write_voss_files

    return write_voss_files(tmp_path)
