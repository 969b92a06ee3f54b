"""Entry point of the ``factgraph`` CLI: one group, commands registered from small modules.

Errors the user can fix (:class:`factgraph.errors.UserInputError` and its family: bad files, bad
arguments, unknown names) print one line to stderr and exit with code 2; no traceback. Any
other exception is a bug and surfaces with its traceback. Set ``FACTGRAPH_DEBUG=1`` to see
the traceback of a user error too.
"""

from __future__ import annotations

import importlib
import logging
import os
import sys
from typing import Any

import click

from factgraph import __version__
from factgraph.cli.output import UserError
from factgraph.cli.quiet import quiet_third_parties
from factgraph.errors import InputError, UserInputError

# (module, attribute) of each command; imported lazily so `factgraph --help` stays fast and
# optional engines are imported only by the commands that need them.
COMMANDS: dict[str, tuple[str, str]] = {
    "analyze": ("factgraph.cli.analyze", "analyze_cmd"),
    "basis": ("factgraph.cli.analyze", "basis_cmd"),
    "explain": ("factgraph.cli.analyze", "explain_cmd"),
    "export": ("factgraph.cli.export", "export_cmd"),
    "schema": ("factgraph.cli.schema", "schema_cmd"),
    "meta-eval": ("factgraph.cli.meta_eval", "meta_eval_group"),
    "validate": ("factgraph.cli.validate", "validate_cmd"),
    "db": ("factgraph.cli.db", "db_group"),
    "explore": ("factgraph.cli.explore", "explore_cmd"),
    "view": ("factgraph.cli.view", "view_cmd"),
    "report": ("factgraph.cli.view", "report_cmd"),
    "cache": ("factgraph.cli.cache", "cache_group"),
    "evaluate": ("factgraph.cli.evaluate", "evaluate_cmd"),
    "batch": ("factgraph.cli.evaluate", "batch_cmd"),
    "index": ("factgraph.cli.index", "index_group"),
    "judges": ("factgraph.cli.judges", "judges_cmd"),
}


ENGINE_ERRORS = {"OpenAIServerError", "BackendLoadError", "ServerUnreachableError"}


class FactgraphGroup(click.Group):
    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        spec = COMMANDS.get(cmd_name)
        if spec is None:
            return None
        module = importlib.import_module(spec[0])
        cmd = getattr(module, spec[1])
        assert isinstance(cmd, click.Command)
        return cmd

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except InputError as e:
            raise UserError(str(e)) from None
        except RuntimeError as e:
            # Engine failures (a server that keeps failing, a model that will not load): one
            # line and exit 1; FACTGRAPH_DEBUG=1 shows the traceback.
            if os.environ.get("FACTGRAPH_DEBUG") or type(e).__name__ not in ENGINE_ERRORS:
                raise
            raise click.ClickException(f"{type(e).__name__}: {e}") from None
        except UserInputError as e:
            # Only the user-error family: a bare KeyError or ValueError is a bug, and keeps
            # its traceback.
            if os.environ.get("FACTGRAPH_DEBUG"):
                raise
            msg = str(e)
            raise UserError(msg.splitlines()[0] if msg else type(e).__name__) from None


@click.group(cls=FactgraphGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="factgraph")
@click.option("-v", "--verbose", count=True, help="More logging (-v info, -vv debug).")
def cli(verbose: int) -> None:
    """Fact graphs that explain why an LLM's long-form answer is incomplete or wrong."""
    level = logging.WARNING - 10 * min(verbose, 2)
    logging.basicConfig(
        level=level, format="%(levelname)s %(name)s: %(message)s", stream=sys.stderr
    )
    quiet_third_parties(verbose)


def main() -> None:
    cli(prog_name="factgraph")
