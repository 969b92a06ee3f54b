"""Named judges: a method, its options, cut-offs and models under one name — the rows of the
judges table (``docs/judges.md``) — selected with ``--judge NAME`` (evaluate, batch,
meta-eval) or ``judge=NAME`` in Python instead of a string of ``--set`` options.

A judge's ``options`` are defaults: flags, ``--set`` and ``--config`` values given beside it
win (and are recorded in the Evaluation's parameters, as always). ``factgraph judges`` lists
every judge with what it needs and, where a judge card backs it, its agreement with people
and its cost (``docs/judge_cards/``).

``inputs`` says what a judge was built and measured for: a short answer to a question
(WikiContradict: one answer per text), or a long-form answer judged against a long reference
answer or documents (RAGChecker's meta-evaluation set). :data:`DEFAULT_JUDGES` names the judge
that measures best for each kind; ``coverage_judge="auto"`` picks between them per input
(``factgraph.methods.e2e.auto.input_kind``), and is the e2e default: a user who
changes nothing gets the best measured judge for the kind of input.

Where judges come from: the built-ins below, then the ``factgraph.judges`` entry-point group of
every installed distribution (a :class:`NamedJudge`, or a function returning one), read on the
first lookup, never at import; a package adds a judge with one line of its ``pyproject.toml``::

    [project.entry-points."factgraph.judges"]
    e2e-evidence-strict = "my_package.judges:STRICT"

and :func:`register_judge` from Python. A declared judge never replaces one of the same name.
:data:`JUDGES` is the registry as a mapping (name → judge).
"""

from __future__ import annotations

from collections.abc import Iterator, MutableMapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from factgraph.errors import UserInputError
from factgraph.plugins import PluginRegistry

InputKind = Literal["short answer", "long-form"]

ENTRY_POINT_GROUP = "factgraph.judges"


class NamedJudge(BaseModel):
    """One named judge: the configuration behind a row of the judges table."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str
    method: str
    options: dict[str, Any] = Field(default_factory=dict)
    embed_model: str | None = Field(None, description="Embedding spec the judge needs.")
    needs_model: bool = Field(True, description="Needs a text model (--model).")
    inputs: InputKind
    description: str
    cards: tuple[str, ...] = Field((), description="Judge cards (files under "
                                                   "docs/judge_cards/) that measured it.")

    def flat(self) -> dict[str, Any]:
        """The judge as flat config names (``EvaluationConfig.from_flat``)."""
        out: dict[str, Any] = {"method": self.method, **self.options}
        if self.embed_model:
            out["embed_model"] = self.embed_model
        return out


_ANSWERS = {"coverage_judge": "answers"}
BUILTIN_JUDGES: tuple[NamedJudge, ...] = (
    NamedJudge(
        name="e2e-answers-several", method="e2e",
        options={**_ANSWERS, "yes_no_polarity": True, "several_answers_check": True,
                 "coverage_cutoff": 0.7},
        inputs="short answer",
        description="The answers each text gives to the query, then a word check and one "
                    "yes/no token per answer; yes/no answers by one polarity question; a "
                    "second answer to a one-answer query counts only if the response gives "
                    "several.",
        cards=("12-e2e-answers-several-320.json", "13-e2e-answers-several.json")),
    NamedJudge(
        name="e2e-answers-polarity", method="e2e",
        options={**_ANSWERS, "yes_no_polarity": True, "several_answers_check": False,
                 "coverage_cutoff": 0.7},
        inputs="short answer",
        description="The answer judge without the several-answers check.",
        cards=("14-e2e-answers-polarity.json",)),
    NamedJudge(
        name="e2e-answers", method="e2e",
        options={**_ANSWERS, "yes_no_polarity": False, "several_answers_check": False,
                 "coverage_cutoff": 0.65},
        inputs="short answer",
        description="The answer judge as first run: one yes/no token per answer.",
        cards=("15-e2e-answers.json",)),
    NamedJudge(
        name="e2e-per-fact", method="e2e",
        options={"coverage_judge": "per-fact", "coverage_cutoff": 0.3},
        inputs="short answer",
        description="Facts extracted once per query and texts (grounded), one yes/no token "
                    "per fact.",
        cards=("16-e2e-per-fact.json",)),
    NamedJudge(
        name="e2e-list", method="e2e", options={"coverage_judge": "list"},
        inputs="short answer",
        description="One call lists the covered and uncovered facts (Dejl et al. 2025, "
                    "§3.3).",
        cards=("20-e2e.json",)),
    NamedJudge(
        name="nli", method="nli", inputs="short answer",
        description="Atoms, relevance filter, NLI pairs (Dejl et al. 2025, §3.1).",
        cards=("30-nli.json",)),
    NamedJudge(
        name="nli-tuned", method="nli", options={"nli_cutoff": 0.2}, inputs="short answer",
        description="NLI with the entailment cut-off chosen on dev.",
        cards=("31-nli-tuned.json",)),
    NamedJudge(
        name="qa", method="qa", inputs="short answer",
        description="Questions, answers per text, answer comparison (Dejl et al. 2025, §3.2).",
        cards=("35-qa.json",)),
    NamedJudge(
        name="e2e-sentences-model-free", method="e2e",
        options={"coverage_judge": "sentences"}, embed_model="minilm", needs_model=False,
        inputs="long-form",
        description="No text model: the reference's sentences are the facts; a sentence is "
                    "covered by the word check or by its MiniLM similarity to the response's "
                    "sentences (cut-offs chosen on dev).",
        cards=("long-form/e2e-sentences-model-free.json",)),
    NamedJudge(
        name="e2e-sentences-cascade", method="e2e",
        options={"coverage_judge": "sentences", "sentence_model_check": True},
        embed_model="minilm", inputs="long-form",
        description="The reference's sentences as facts, cheapest evidence first: the word "
                    "check and MiniLM similarity decide what they can, one yes/no token of "
                    "the text model decides the rest.",
        cards=("long-form/e2e-sentences-cascade.json",)),
    NamedJudge(
        name="e2e-evidence", method="e2e", options={"coverage_judge": "evidence"},
        needs_model=False, inputs="long-form",
        description="No model, no embedder: each fact (given, or the reference's clauses) gets "
                    "a calibrated P(stated) from its words, phrases, numbers and names in its "
                    "best-aligned response sentence (fitted on fact labels of news summaries "
                    "and of long answers, weighed alike); a fact that sentence states otherwise "
                    "(number, date, negation, antonym, name) is contradicted. Answers rank by "
                    "expected coverage.",
        cards=("long-form/e2e-evidence.json", "facts/e2e-evidence.json")),
    NamedJudge(
        name="e2e-evidence-cascade", method="e2e",
        # the calibration and cut-off its model combination was fitted with
        options={"coverage_judge": "evidence", "evidence_model_check": True,
                 "calibration": "evidence-v3", "coverage_cutoff": 0.5},
        inputs="long-form",
        description="The evidence judge, and for the facts its cheap evidence leaves undecided "
                    "one yes / no / unknown token of the text model on the nearest sentences, "
                    "joined to the cheap evidence by the combination fitted for it "
                    "('no': contradicted).",
        cards=("facts/e2e-evidence-cascade.json",)),
)

_REGISTRY: PluginRegistry[str, NamedJudge] = PluginRegistry(
    ENTRY_POINT_GROUP, NamedJudge, key=lambda judge: judge.name,
    describe=lambda judge: f"a judge named {judge.name!r}")
for _judge in BUILTIN_JUDGES:
    _REGISTRY.register(_judge)


def register_judge(judge: NamedJudge, *, replace: bool = False) -> NamedJudge:
    """Add a named judge from Python; a second judge of the same name is an error unless
    ``replace``. An installed package uses the ``factgraph.judges`` entry-point group."""
    return _REGISTRY.register(judge, replace)


def unregister_judge(name: str) -> None:
    """Remove a judge (a replaced built-in comes back)."""
    _REGISTRY.unregister(name)


class _Judges(MutableMapping[str, NamedJudge]):
    """Name → named judge: a live view of the registry (built-ins first, then entry points,
    then registered ones). Setting a name registers (replacing), deleting unregisters."""

    def __getitem__(self, name: str) -> NamedJudge:
        judge = _REGISTRY.get(name)
        if judge is None:
            raise KeyError(name)
        return judge

    def __setitem__(self, name: str, judge: NamedJudge) -> None:
        if judge.name != name:
            raise ValueError(f"judge {judge.name!r} cannot be registered as {name!r}")
        _REGISTRY.register(judge, replace=True)

    def __delitem__(self, name: str) -> None:
        if name not in self:
            raise KeyError(name)
        _REGISTRY.unregister(name)

    def __iter__(self) -> Iterator[str]:
        return iter(_REGISTRY.keys_in_order())

    def __len__(self) -> int:
        return len(_REGISTRY.keys_in_order())

    def __contains__(self, name: object) -> bool:
        return name in _REGISTRY.keys_in_order()


JUDGES: MutableMapping[str, NamedJudge] = _Judges()

# The best measured judge per kind of input (README's judges table says which card backs it).
DEFAULT_JUDGES: dict[InputKind, str] = {"short answer": "e2e-answers-several",
                                        "long-form": "e2e-evidence"}


def get_judge(name: str) -> NamedJudge:
    """The named judge; ValueError naming the known ones."""
    try:
        return JUDGES[name]
    except KeyError:
        raise UserInputError(
            f"unknown judge {name!r}; known: {', '.join(sorted(JUDGES))}") from None
