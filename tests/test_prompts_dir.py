"""A user's prompt directory (issue 29): ``DIR/<name>.toml`` replaces the packaged prompt of that
name, is checked before a run (one line naming the file), is what the model is asked, changes
the call-cache key, and is recorded in the Evaluation's parameters and in a judge card written
from such results. A run without one records nothing new."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

import factgraph
from factgraph.backends.base import ChatMessage, GenerationParams
from factgraph.backends.scripted import ScriptedTextBackend, ScriptOutput
from factgraph.cli.main import cli
from factgraph.prompts import PACKAGED, PromptError, PromptSet, load_prompt, prompt_set
from tests.pipeline_support import PromptRouter
from tests.test_python_api import DOCS, QUERY, RESPONSE, router

TEAM_NLI_SYSTEM = "Our team's NLI instructions: reply yes, no or unknown, one word."


def nli_override(folder: Path, system: str = TEAM_NLI_SYSTEM) -> Path:
    """``folder/nli.toml``: the packaged user template and examples under another system text."""
    folder.mkdir(parents=True, exist_ok=True)
    packaged = load_prompt("nli")
    examples = "".join(f'\n[[examples]]\nuser = """{e.user}"""\nassistant = "{e.assistant}"\n'
                       for e in packaged.examples)
    path = folder / "nli.toml"
    path.write_text(f'system = "{system}"\nuser = """{packaged.user}"""\n{examples}',
                    encoding="utf-8")
    return path


class Recorder:
    """The scripted model of the Python API's tests, also answering the team's NLI prompt, and
    keeping every system text it was asked with."""

    def __init__(self) -> None:
        self.router: PromptRouter = router()
        self.router.by_system[TEAM_NLI_SYSTEM] = "nli"
        self.systems: list[str] = []

    def __call__(self, messages: Sequence[ChatMessage], params: GenerationParams) -> ScriptOutput:
        self.systems.append(messages[0].content)
        return self.router(messages, params)


def run(prompts_dir: Path | None,
        cache: bool | str = False) -> tuple[Recorder, factgraph.Evaluation]:
    recorder = Recorder()
    backend = ScriptedTextBackend(recorder, model="m")
    options = {} if prompts_dir is None else {"prompts_dir": str(prompts_dir)}
    ev = factgraph.evaluate(QUERY, RESPONSE, DOCS, method="nli", model=backend, cache=cache,
                            **options)
    return recorder, ev


def test_an_override_is_what_the_model_is_asked_and_is_recorded(tmp_path: Path) -> None:
    path = nli_override(tmp_path / "prompts")
    default_rec, default = run(None)
    own_rec, own = run(tmp_path / "prompts")
    packaged_system = load_prompt("nli").system.strip()
    assert packaged_system in default_rec.systems and TEAM_NLI_SYSTEM not in default_rec.systems
    assert TEAM_NLI_SYSTEM in own_rec.systems and packaged_system not in own_rec.systems
    # the other stages kept their packaged prompts, and the same answers give the same graph
    assert set(own_rec.systems) - {TEAM_NLI_SYSTEM} == set(default_rec.systems) - {packaged_system}
    assert own.scores == default.scores
    assert "prompts" not in default.parameters
    digest = "sha256:" + hashlib.sha256(path.read_bytes()).hexdigest()
    assert own.parameters["prompts"] == {"nli": digest}
    assert {k: v for k, v in own.parameters.items() if k != "prompts"} == default.parameters


def test_an_override_changes_the_call_cache_key(tmp_path: Path) -> None:
    nli_override(tmp_path / "prompts")
    cache = str(tmp_path / "calls.db")
    first, _ = run(None, cache)
    again, _ = run(None, cache)
    assert first.systems and again.systems == []  # every call answered from the cache
    own, _ = run(tmp_path / "prompts", cache)
    # only the replaced prompt's calls reach the model again: its text is part of the key
    assert own.systems and set(own.systems) == {TEAM_NLI_SYSTEM}


def test_the_environment_names_the_directory(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    nli_override(tmp_path / "prompts")
    monkeypatch.setenv("FACTGRAPH_PROMPTS", str(tmp_path / "prompts"))
    rec, ev = run(None)
    assert TEAM_NLI_SYSTEM in rec.systems and list(ev.parameters["prompts"]) == ["nli"]
    monkeypatch.delenv("FACTGRAPH_PROMPTS")
    assert prompt_set() is PACKAGED and PACKAGED.get("nli") == load_prompt("nli")


@pytest.mark.parametrize(("name", "text", "message"), [
    ("nli.toml", 'system = "x"\nuser = """PREMISE: $premise\n', "invalid TOML: "),
    ("nli.toml", 'system = "x"\n', "user: Field required"),
    ("nli.toml", 'system = "x"\nuser = "$premise $hypothesis"\ntemperature = 0\n',
     "temperature: Extra inputs are not permitted"),
    ("nli.toml", 'system = "x"\nuser = "$premise $hypothesis $claim"\n',
     "user: unknown field(s) $claim (the nli prompt fills in $hypothesis, $premise)"),
    ("nli.toml", 'system = "x"\nuser = "$premise only"\n',
     "user: leaves out $hypothesis (the nli prompt fills in $hypothesis, $premise)"),
    ("nli.toml", 'system = "x"\nuser = "costs $ 5: $premise $hypothesis"\n', "user: a lone $"),
    ("nil.toml", 'system = "x"\nuser = "$premise $hypothesis"\n',
     "no packaged prompt is named 'nil'"),
])
def test_a_bad_prompt_file_is_one_line_naming_it(tmp_path: Path, name: str, text: str,
                                                 message: str) -> None:
    (tmp_path / name).write_text(text, encoding="utf-8")
    with pytest.raises(PromptError) as err:
        PromptSet.from_directory(tmp_path)
    assert str(err.value).startswith(f"{tmp_path / name}: {message}"), str(err.value)
    assert "\n" not in str(err.value)


def test_a_bad_prompt_file_stops_the_cli_before_any_model_call(tmp_path: Path) -> None:
    (tmp_path / "prompts").mkdir()
    (tmp_path / "prompts" / "e2e.toml").write_text('system = "x"\n', encoding="utf-8")
    (tmp_path / "r.txt").write_text("answer", encoding="utf-8")

    def evaluate(prompts: Path) -> Result:
        return CliRunner().invoke(cli, [
            "evaluate", "--query", "q?", "--response", str(tmp_path / "r.txt"), "--model",
            "openai:m@http://127.0.0.1:9/v1", "--no-cache", "--prompts", str(prompts)])

    res = evaluate(tmp_path / "prompts")
    assert res.exit_code == 2, res.output
    assert res.stderr.strip() == (
        f"Error: {tmp_path / 'prompts' / 'e2e.toml'}: user: Field required")
    res = evaluate(tmp_path / "none")
    assert res.exit_code == 2 and "no such prompt directory" in res.stderr


def test_a_judge_card_written_from_such_results_names_the_prompts(tmp_path: Path) -> None:
    from factgraph.evaluation.meta_eval import read_judge_card
    from tests.fake_openai import serve
    from tests.test_cli_pipelines import e2e_by_marker, wikicontradict_file

    team = "Our team's coverage instructions. Reply with one JSON object."
    packaged = load_prompt("e2e")
    prompts = tmp_path / "prompts"
    prompts.mkdir()
    (prompts / "e2e.toml").write_text(f'system = "{team}"\nuser = """{packaged.user}"""\n',
                                      encoding="utf-8")
    digest = "sha256:" + hashlib.sha256((prompts / "e2e.toml").read_bytes()).hexdigest()
    scripted = PromptRouter({"e2e": e2e_by_marker})
    scripted.by_system[team] = "e2e"
    data = wikicontradict_file(tmp_path / "wc.jsonl")
    card_path, default_card = tmp_path / "own.card.json", tmp_path / "default.card.json"
    with serve(scripted) as (url, _):
        for card, extra in ((card_path, ["--prompts", str(prompts)]), (default_card, [])):
            res = CliRunner().invoke(cli, [
                "meta-eval", "wikicontradict", "--data", str(data), "--results",
                str(card.with_suffix(".jsonl")), "--judge", "e2e-list", "--model",
                f"openai:m@{url}", "--no-cache", "--resamples", "200", "--judge-card",
                str(card), *extra])
            assert res.exit_code == 0, res.output
    assert scripted.asked.count("e2e") == 20  # ten answers under each prompt
    own, default = read_judge_card(card_path), read_judge_card(default_card)
    assert own.prompts == {"e2e": digest} and "prompts" not in own.options
    assert own.one_line().endswith(" (own prompts: e2e)")
    assert default.prompts is None and "prompts" not in json.loads(default_card.read_text())
    assert json.loads(card_path.read_text())["prompts"] == {"e2e": digest}
    assert own.model_dump(exclude={"prompts", "date"}) == \
        default.model_dump(exclude={"prompts", "date"})


def _plugin(root: Path) -> None:
    """An installed package ``plug_prompts`` holding the prompt ``plug_prompts:ask``."""
    (root / "plug_prompts").mkdir()
    (root / "plug_prompts" / "__init__.py").write_text("", encoding="utf-8")
    (root / "plug_prompts" / "ask.toml").write_text(
        'system = "Packaged."\nuser = "Q: $question"\n', encoding="utf-8")
    (root / "plug_module.py").write_text("", encoding="utf-8")


def test_another_packages_prompt_is_named_package_relatively(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from factgraph.prompts import qualified_name

    _plugin(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    assert qualified_name("nli") == qualified_name("factgraph.prompts:nli") == "nli"
    assert qualified_name(("factgraph.prompts", "nli")) == "nli"
    assert qualified_name(("plug_prompts", "ask")) == "plug_prompts:ask"
    for bad in ("", "plug_prompts:", "a/b", ("plug_prompts", "a:b")):
        with pytest.raises(ValueError, match="not a prompt name"):
            qualified_name(bad)
    ask = PACKAGED.get(("plug_prompts", "ask"))
    assert ask == load_prompt("plug_prompts:ask") and ask.name == "plug_prompts:ask"
    assert ask.messages(question="why?")[-1].content == "Q: why?"

    own = tmp_path / "own"
    (own / "plug_prompts").mkdir(parents=True)
    path = own / "plug_prompts" / "ask.toml"
    path.write_text('system = "Mine."\nuser = "Question: $question"\n', encoding="utf-8")
    prompts = PromptSet.from_directory(own)
    assert prompts.get("plug_prompts:ask").system == "Mine."
    assert prompts.get("nli") == load_prompt("nli")  # the built-ins keep their packaged prompts
    assert prompts.recorded() == {
        "plug_prompts:ask": "sha256:" + hashlib.sha256(path.read_bytes()).hexdigest()}


@pytest.mark.parametrize(("relative", "text", "message"), [
    ("plug_prompts/ask.toml", 'system = "x"\nuser = "$q"\n',
     "user: unknown field(s) $q; leaves out $question (the plug_prompts:ask prompt fills in "
     "$question)"),
    ("plug_prompts/tell.toml", 'system = "x"\nuser = "$question"\n',
     "package 'plug_prompts' has no prompt tell.toml, so this file would replace nothing"),
    ("no_such_package_here/ask.toml", 'system = "x"\nuser = "$question"\n',
     "no installed package is named 'no_such_package_here', so this file would replace nothing"),
    ("plug_module/ask.toml", 'system = "x"\nuser = "$question"\n',
     "package 'plug_module' cannot hold prompts: "),
    ("factgraph.prompts/nli.toml", 'system = "x"\nuser = "$premise $hypothesis"\n',
     "a second file for the nli prompt"),
])
def test_a_bad_file_for_another_packages_prompt_is_one_line_naming_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, relative: str, text: str,
        message: str) -> None:
    _plugin(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    own = tmp_path / "own"
    nli_override(own)
    (own / relative).parent.mkdir(parents=True, exist_ok=True)
    (own / relative).write_text(text, encoding="utf-8")
    with pytest.raises(PromptError) as err:
        PromptSet.from_directory(own)
    assert str(err.value).startswith(f"{own / relative}: {message}"), str(err.value)
    assert "\n" not in str(err.value)
