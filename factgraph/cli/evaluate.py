"""``factgraph evaluate`` (one input) and ``factgraph batch`` (a JSONL of inputs, resumable).

Method options come from flags named like the option fields (``--t-rel`` → ``t_rel``) or from
``--set name=value``; a flag that the chosen method does not take is an error naming both.
A ``--config`` TOML/JSON file may hold any of the flags (command-line flags win).
"""

from __future__ import annotations

import difflib
import json
import logging
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from factgraph.cli.judge_choice import announce_auto, check_card, reads_query, run_judges
from factgraph.cli.method_flags import (
    MethodFlagsCommand,
    OptionFlag,
    flag_options,
    given_options,
    option_flags,
)
from factgraph.cli.output import (
    UserError,
    format_option,
    format_score,
    make_console,
    read_output,
)
from factgraph.cli.progress import show_progress
from factgraph.cli.run_flags import (
    Decorator,
    model_settings,
    param_names,
    section_settings,
    setting_keywords,
    setting_options,
)
from factgraph.config import DEFAULT_METHOD
from factgraph.errors import InputError
from factgraph.inputs import Document, EvaluationInput, GivenFact
from factgraph.io import read_jsonl
from factgraph.methods import METHODS
from factgraph.models import Evaluation

if TYPE_CHECKING:
    from factgraph.config import EvaluationConfig
    from factgraph.testing import GateFailure

log = logging.getLogger(__name__)

METHOD_NAMES = list(METHODS)  # the registry is the one list of method names

# The keywords of the run flags: settings of the configuration, not method options.
RUN_FLAGS = setting_keywords()


def _parse_set(values: tuple[str, ...]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for item in values:
        if "=" not in item:
            raise UserError(f"--set {item!r}: expected NAME=VALUE")
        name, raw = item.split("=", 1)
        try:
            out[name.strip().replace("-", "_")] = json.loads(raw)
        except json.JSONDecodeError:
            out[name.strip().replace("-", "_")] = raw
    return out


def run_options() -> list[Decorator]:
    """The run flags every command of :func:`common_options` takes: the settings' flags,
    generated from the settings models (factgraph.cli.run_flags), and the few written here."""
    return [
        click.option("--method", "-m", type=click.Choice(METHOD_NAMES), default=None,
                     is_eager=True,  # read before --help, which then lists its flags alone
                     help=f"Evaluation method (default {DEFAULT_METHOD}, or from --config); "
                          "a method's options are the flags marked with its name "
                          "(`--method NAME --help` lists only those)."),
        click.option("--prompts", "prompts_dir", default=None, metavar="DIR",
                     type=click.Path(file_okay=False),
                     help="Your own prompts: DIR/NAME.toml replaces the packaged prompt NAME "
                          "(recorded in the results). [default: $FACTGRAPH_PROMPTS]"),
        click.option("--judge", "judge", default=None, metavar="NAME",
                     help="A named judge: method, options, cut-offs and models in one name "
                          "(`factgraph judges` lists them); other flags override its "
                          "options."),
        *setting_options(model_settings()),
        click.option("--cache", "cache_path", default=None,
                     help="Call cache file (default $FACTGRAPH_CACHE or ~/.cache/factgraph)."),
        click.option("--no-cache", is_flag=True, help="Do not read or write the call cache."),
        click.option("--config", default=None, type=click.Path(dir_okay=False),
                     help="TOML/JSON file with any of these flags (flags win)."),
        click.option("--set", "set_values", multiple=True, help="Method option NAME=VALUE."),
        *setting_options(section_settings()),
    ]


# Method-option flags, generated from the registered methods' options models; an option may
# not take a keyword or spelling of the run flags (derived from them here) nor, in a command,
# one of that command's own (MethodFlagsCommand checks each command as it is built).
OPTION_FLAGS: list[OptionFlag] = option_flags(param_names(run_options()))


def common_options(f: Any) -> Any:
    """The run flags and the method flags, shared by evaluate, batch and meta-eval (whose
    commands are :class:`MethodFlagsCommand`)."""
    f = flag_options(OPTION_FLAGS)(f)
    for d in reversed(run_options()):
        f = d(f)
    return f


def build_config(kw: dict[str, Any]) -> EvaluationConfig:
    """The typed run configuration (factgraph.config) from the CLI keyword arguments, built
    by :func:`factgraph.api.config_from_flat` as the Python API builds it: flags win over
    ``--set``, which wins over the ``--config`` file, which wins over ``--judge``'s options;
    the same names and validation as ``factgraph.evaluate(**options)``."""
    from factgraph.api import config_from_flat
    from factgraph.config import ConfigError, UnknownOptionError, read_config_file

    values: dict[str, Any] = read_config_file(kw["config"]) if kw.get("config") else {}
    values.update(_parse_set(kw.get("set_values") or ()))
    given = {name: kw[name] for name in RUN_FLAGS if kw.get(name) is not None}
    if not given.get("no_cache"):
        given.pop("no_cache", None)  # the flag's default (False) must not hide a file's cache
    method = kw.get("method") or values.get("method") or _judge_method(kw.get("judge")) \
        or DEFAULT_METHOD
    options, wrong = given_options(OPTION_FLAGS, kw, method)
    if wrong:
        takes = [o.flag_name for o in OPTION_FLAGS if not o.hidden and method in o.methods]
        owners = "; ".join(f"{o.flag_name} is a flag of {', '.join(o.methods)}"
                           for o in OPTION_FLAGS if o.flag_name in wrong)
        raise UserError(f"{', '.join(wrong)} does not apply to --method {method} "
                        f"(it takes: {', '.join(takes) or 'no option'}); {owners}")
    values.update(given)
    values.update(options)
    if kw.get("prompts_dir"):
        values["prompts_dir"] = kw["prompts_dir"]
    values["method"] = method
    try:
        return config_from_flat(values, judge=kw.get("judge"))
    except UnknownOptionError as e:
        misspelt = _did_you_mean(e.names, e.accepted, e.method)
        if misspelt:
            raise UserError(misspelt) from None
        flag_names = ", ".join("--" + u.replace("_", "-") for u in e.names)
        raise UserError(f"{flag_names} does not apply to --method {e.method} "
                        f"(it takes: {', '.join(e.accepted)}){_taken_by(e.names)}") from None
    except ConfigError as e:
        raise UserError(f"--method {values['method']}: {e}") from None


def _judge_method(name: str | None) -> str | None:
    """The method of the judge ``--judge`` names (which method's flags apply), or None."""
    if not name:
        return None
    from factgraph.methods.judges import get_judge

    try:
        return get_judge(name).method
    except ValueError as e:
        raise UserError(f"--judge: {e}") from None


def _did_you_mean(names: list[str], accepted: list[str], method: str) -> str | None:
    """``unknown option words_cutof of --method e2e: did you mean words_cutoff?`` for the names
    that no method takes and that likely misspell one the method does; None when none is."""
    from factgraph.methods.registry import option_fields

    taken = {n for m in METHODS for n in option_fields(METHODS[m].options)}
    said = []
    for name in names:
        close = difflib.get_close_matches(name, accepted, n=1, cutoff=0.75)
        if close and name not in taken:
            said.append(f"unknown option {name} of --method {method}: did you mean "
                        f"{close[0]}?")
    return "; ".join(said) or None


def _taken_by(names: list[str]) -> str:
    """``; prune_top_k is an option of nli`` for the names some other method takes."""
    from factgraph.methods.registry import option_fields

    said = []
    for name in names:
        owners = [m for m in METHODS if name in option_fields(METHODS[m].options)]
        if owners:
            said.append(f"{name} is an option of {', '.join(owners)}")
    return "".join(f"; {s}" for s in said)


def build_evaluator(kw: dict[str, Any]) -> Any:
    """An Evaluator from the CLI keyword arguments (see build_config)."""
    return evaluator_of(build_config(kw))


def evaluator_of(config: EvaluationConfig) -> Any:
    """The config's Evaluator, its models loaded; a bad spec or missing engine is one line."""
    from factgraph.backends.factory import BackendSpecError

    try:
        return config.evaluator()
    except BackendSpecError as e:
        raise UserError(str(e)) from None


def _read_text(path: str) -> str:
    if path == "-":
        return sys.stdin.read()
    try:
        return Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputError(path, "no such file") from None
    except (OSError, UnicodeDecodeError) as e:
        raise InputError(path, f"cannot read: {e}") from None


def _documents(paths: tuple[str, ...]) -> list[Document]:
    docs: list[Document] = []
    for path in paths:
        if path.endswith((".jsonl", ".jsonl.gz")):
            docs += [d for _, d in read_jsonl(path, Document)]
        else:
            docs.append(Document(id=Path(path).stem or f"doc{len(docs) + 1}",
                                 text=_read_text(path)))
    ids = [d.id for d in docs]
    dup = {i for i in ids if ids.count(i) > 1}
    if dup:
        raise UserError(f"--context: duplicate document ids {sorted(dup)}")
    return docs


def _given_facts(texts: tuple[str, ...], path: str | None) -> list[GivenFact]:
    """``--fact`` texts (ids ``f1``, ``f2``, …) or the facts of ``--facts FILE``."""
    from factgraph.io import read_given_facts

    if texts and path:
        raise UserError("give --fact TEXT (repeat) or --facts FILE, not both")
    if path:
        return read_given_facts(path)
    return [GivenFact(id=f"f{n}", text=t) for n, t in enumerate(texts, 1) if t.strip()]


def summary_row(ev: Evaluation) -> dict[str, Any]:
    return {"id": ev.id, "method": ev.method, "scores": ev.scores,
            "parse_failures": len(ev.parse_failures), "limits_hit": ev.limits_hit,
            "incomplete": ev.metadata.get("incomplete"),
            "calls": {k: v for k, v in ev.metadata.get("counts", {}).items()
                      if k.endswith(".calls") or k.endswith(".pairs")}}


FORMATS = ("table", "json")
FAIL_UNDER = click.option(
    "--fail-under", type=float, default=None, metavar="S",
    help="A gate for CI: exit 1 when a score is below S or undefined, listing the ids.")
def _main_scores() -> str:
    """``comprehensiveness for nli, qa, e2e; icat for icat-m, ...`` from the registry."""
    by_score: dict[str, list[str]] = {}
    for name in METHODS:
        by_score.setdefault(METHODS[name].main_score, []).append(name)
    return "; ".join(f"{score} for {', '.join(names)}" for score, names in by_score.items())


FAIL_SCORE = click.option(
    "--fail-score", default=None, metavar="NAME",
    help=f"The score --fail-under checks (default: the method's main score — {_main_scores()}).")


def check_gate(evaluations: Iterable[Evaluation], minimum: float, score: str | None
               ) -> tuple[list[GateFailure], int]:
    """The gate's failures over ``evaluations`` (read one at a time, none kept) and how many
    were checked; a ``score`` that none of them carries is a UserError naming the scores
    they do carry."""
    from factgraph.graph import SCORE_KEY
    from factgraph.testing import gate_failures

    failures: list[GateFailure] = []
    known: set[str] = set()
    checked = 0
    for ev in evaluations:
        checked += 1
        known.update(ev.scores)
        failures += gate_failures([ev], minimum, score)
    if score is not None and score != SCORE_KEY and checked and score not in known:
        raise UserError(f"--fail-score {score}: no such score in these evaluations "
                        f"(they have: {', '.join(sorted(known)) or 'none'})")
    return failures, checked


@click.command("evaluate", cls=MethodFlagsCommand)
@click.option("--input", "input_file", type=click.Path(dir_okay=False), default=None,
              help="An input as JSON ({id, query, response, documents}) instead of the flags "
                   "below.")
@click.option("--query", default=None, help="The user query.")
@click.option("--response", "response_file", default=None,
              help="File holding the response text ('-' for stdin).")
@click.option("--context", "context_files", multiple=True,
              help="Background text file (repeat), or a JSONL of {id, text} documents.")
@click.option("--fact", "fact_texts", multiple=True, metavar="TEXT",
              help="A fact the response should contain (repeat; ids f1, f2, …), judged as "
                   "given. With given facts the --context documents are evidence only.")
@click.option("--facts", "facts_file", default=None, type=click.Path(dir_okay=False),
              help="Given facts: a text file, one fact per line, or a JSONL of {id, text} "
                   "objects or strings.")
@click.option("--id", "input_id", default="input", show_default=True, help="Id of the input.")
@click.option("-o", "--output", "--out", "outputs", multiple=True, metavar="FILE",
              help="Write the Evaluation JSON to FILE (--output table|json still works for a "
                   "while; use --format).")
@format_option(FORMATS, "table", "What to print on stdout: the scores, or a JSON summary.")
@FAIL_UNDER
@FAIL_SCORE
@click.option("--judge-card", "judge_card", default=None, type=click.Path(dir_okay=False),
              help="A judge card (from factgraph meta-eval): shown beside the scores and "
                   "stored in the Evaluation.")
@common_options
def evaluate_cmd(input_file: str | None, query: str | None, response_file: str | None,
                 context_files: tuple[str, ...], fact_texts: tuple[str, ...],
                 facts_file: str | None, input_id: str, outputs: tuple[str, ...],
                 fmt: str | None, fail_under: float | None, fail_score: str | None,
                 judge_card: str | None, **kw: Any) -> None:
    """Evaluate one response: build its fact graph and score it."""
    from factgraph.errors import parse_model
    from factgraph.evaluation.meta_eval import attach_card, read_judge_card
    from factgraph.graph.results import write_json
    from factgraph.testing import comprehensiveness_message, gate_record

    choice = read_output(outputs, fmt, FORMATS, "table")
    out_file, output = choice.file, choice.format
    card = read_judge_card(judge_card) if judge_card else None

    if input_file:
        if fact_texts or facts_file:
            raise UserError("give the facts in the --input JSON (\"facts\"), or --fact / "
                            "--facts without --input")
        inp = parse_model(EvaluationInput, json.loads(_read_text(input_file)), input_file)
    else:
        facts = _given_facts(fact_texts, facts_file)
        needs_text = METHODS[kw.get("method") or DEFAULT_METHOD].needs_response
        if needs_text and response_file is None:
            raise UserError("give --query and --response (or --input FILE); with given facts "
                            "or the evidence judge --query may be left out")
        inp = EvaluationInput(id=input_id, query=query or "",
                              response=_read_text(response_file) if response_file else "",
                              documents=_documents(context_files),
                              facts=facts)
    config = build_config(kw)
    if not input_file and query is None and not inp.facts \
            and METHODS[config.method].needs_response \
            and reads_query(config, kw.get("judge"), inp):
        raise UserError("give --query: this run's judge reads it (--query may be left out with "
                        "given facts, or with the evidence judge: one --context, or --judge "
                        "e2e-evidence)")
    if card is not None and judge_card:
        check_card(card, judge_card, config, run_judges(config, kw.get("judge"), [inp]))
    announce_auto(config, [inp])
    evaluator = evaluator_of(config)
    ev = evaluator(inp)
    if card is not None:
        attach_card(ev, card)
    if out_file:
        write_json(out_file, ev)
    failures, checked = check_gate([ev], fail_under, fail_score) if fail_under is not None \
        else ([], 0)
    if output == "json":
        row = summary_row(ev)
        if card is not None:
            row["judge_card"] = card.model_dump(mode="json")
        if fail_under is not None:
            row["gate"] = gate_record(failures, checked, fail_under)
        click.echo(json.dumps(row, ensure_ascii=False, indent=2))
    else:
        _print_scores(ev, card)
    if failures:
        raise click.ClickException(
            f"--fail-under {fail_under:g}: " + comprehensiveness_message(ev, fail_under or 0.0,
                                                                         fail_score))


def _print_scores(ev: Evaluation, card: Any) -> None:
    """The table form of ``evaluate``'s stdout."""
    console = make_console()
    console.print(f"[bold]{ev.method}[/bold] {ev.id}")
    for name, value in ev.scores.items():
        console.print(f"  {name}: {format_score(name, value)}")
    if card is not None:
        console.print(f"  {card.one_line()}", markup=False)
    if ev.metadata.get("incomplete"):
        console.print(f"  incomplete: {ev.metadata['incomplete']}", markup=False)
    if ev.parse_failures:
        console.print(f"  parse failures: {len(ev.parse_failures)} (see the Evaluation file)")
    for hit in ev.limits_hit:
        console.print(f"  limit: {hit}", markup=False)


@click.command("batch", cls=MethodFlagsCommand)
@click.argument("input_file", type=click.Path(dir_okay=False))
@click.option("-o", "--output", "--out", "outputs", multiple=True, metavar="FILE",
              help="Results JSONL: one Evaluation per line, appended as each input finishes "
                   "(required; --output table|json still works for a while; use --format).")
@click.option("--resume", is_flag=True, help="Continue an interrupted run: skip finished ids.")
@click.option("--progress/--no-progress", default=None,
              help="Progress bar (default: when stderr is a terminal).")
@format_option(FORMATS, "table", "What to print on stdout: one summary line, or JSON.")
@FAIL_UNDER
@FAIL_SCORE
@click.option("--executor", type=click.Choice(["local", "ray"]), default="local",
              show_default=True, help="Who evaluates: this process, or Ray actors "
              "(pip install 'factgraph[ray]'; docs/distributed.md).")
@click.option("--ray-address", default=None, help="Ray cluster to join (ray: default "
              "RAY_ADDRESS, else a local Ray instance sized to this machine).")
@click.option("--workers", type=int, default=None,
              help="Ray actors (default: as many as the cluster's GPUs/CPUs fit).")
@click.option("--gpus-per-worker", type=float, default=None,
              help="GPUs per Ray actor (vllm: one model per actor; default 0).")
@click.option("--cpus-per-worker", type=float, default=None,
              help="CPUs per Ray actor (default 1; lower for openai: endpoints).")
@click.option("--judge-card", "judge_card", default=None, type=click.Path(dir_okay=False),
              help="A judge card (from factgraph meta-eval): stored in every Evaluation and "
                   "shown with the summary.")
@common_options
def batch_cmd(input_file: str, outputs: tuple[str, ...], resume: bool, progress: bool | None,
              fmt: str | None, fail_under: float | None, fail_score: str | None,
              executor: str, ray_address: str | None, workers: int | None,
              gpus_per_worker: float | None, cpus_per_worker: float | None,
              judge_card: str | None, **kw: Any) -> None:
    """Evaluate every line of an inputs JSONL ({id, query, response, documents})."""
    from factgraph.evaluation.meta_eval import CardedEvaluator, read_judge_card
    from factgraph.runners.batch import BatchRunner

    choice = read_output(outputs, fmt, FORMATS, "table")
    if choice.file is None:
        raise click.UsageError("Missing option '-o' / '--output': the results JSONL to write.")
    out_file, output = choice.file, choice.format
    card = read_judge_card(judge_card) if judge_card else None

    ray_flags = {"--ray-address": ray_address, "--workers": workers,
                 "--gpus-per-worker": gpus_per_worker, "--cpus-per-worker": cpus_per_worker}
    if executor == "local" and any(v is not None for v in ray_flags.values()):
        given = ", ".join(k for k, v in ray_flags.items() if v is not None)
        raise UserError(f"{given} needs --executor ray")
    model_spec = kw.get("model") or ""
    if executor == "local" and model_spec.startswith("openai:") and "," in model_spec:
        raise UserError("--model names several endpoints: that needs --executor ray "
                        "(one endpoint per actor)")
    if executor == "ray":  # a missing extra is the one line, before anything is said or run
        from factgraph.runners.distributed import RayUnavailableError, import_ray

        try:
            import_ray()
        except RayUnavailableError as e:
            raise UserError(str(e)) from None
    items = [(inp.id, inp) for _, inp in read_jsonl(input_file, EvaluationInput)]
    config = build_config(kw)
    if card is not None and judge_card:
        check_card(card, judge_card, config,
                   run_judges(config, kw.get("judge"), (inp for _, inp in items)))
    announce_auto(config, [inp for _, inp in items])
    show = show_progress(progress)
    expected: tuple[type[Exception], ...] = (FileExistsError, ValueError)
    try:
        if executor == "ray":
            from factgraph.runners.distributed import (
                RayUnavailableError,
                WorkerStartError,
                executor_for_cli,
            )

            expected += (RayUnavailableError, WorkerStartError)
            evaluator = None
            ray_executor = executor_for_cli(build_evaluator, kw, address=ray_address,
                                            workers=workers, gpus_per_worker=gpus_per_worker,
                                            cpus_per_worker=cpus_per_worker)
            runner = BatchRunner(None, out_file, resume=resume, progress=show,
                                 executor=ray_executor)
        else:
            evaluator = build_evaluator(kw)
            if card is not None:
                evaluator = CardedEvaluator(evaluator, card)
            runner = BatchRunner(evaluator, out_file, resume=resume, progress=show)
        summary = runner.run(items)
    except expected as e:
        raise UserError(str(e)) from None
    record = summary.model_dump()
    record["context_reused"] = (evaluator.context_store.hits if evaluator is not None
                                else ray_executor.context_reused)
    if card is not None:
        record["judge_card"] = card.model_dump(mode="json")
    failures: list[GateFailure] = []
    if fail_under is not None and not summary.stopped_by_signal:
        from factgraph.graph.results import iter_evaluations
        from factgraph.testing import gate_record

        wanted = {item_id for item_id, _ in items}
        failures, checked = check_gate((ev for ev in iter_evaluations(out_file)
                                        if ev.id in wanted), fail_under, fail_score)
        record["gate"] = gate_record(failures, checked, fail_under)
    if output == "json":
        click.echo(json.dumps(record, indent=2))
    else:
        see = f" (see {runner.failures_path})" if runner.failures_path.exists() else ""
        make_console().print(
            f"{summary.ran} evaluated, {summary.already_done} already done, "
            f"{summary.failed} failed{see}"
            + (f", stopped by {summary.stopped_by_signal}" if summary.stopped_by_signal else ""),
            markup=False)
        if card is not None:
            make_console().print(card.one_line(), markup=False)
    if summary.stopped_by_signal:
        sys.exit(130)
    if failures:
        from factgraph.testing import gate_summary

        raise click.ClickException(gate_summary(failures, record["gate"]["checked"],
                                                fail_under or 0.0))
    if summary.failed:
        sys.exit(1)
