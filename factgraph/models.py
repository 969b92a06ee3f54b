"""The one vocabulary of factgraph: Statement, Relation, FactGraph, Evaluation.

Every method (comprehensiveness, ICAT, precision/recall, ARGUE) produces these, and every
output (files, views, graph databases) consumes them. See DESIGN.md, "One vocabulary".

Direction convention: a Relation ``src -> dst`` with label ``entails`` means *src entails dst*
(premise -> hypothesis). Equivalence is two edges.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import Enum
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

if TYPE_CHECKING:  # imported where used: every command reads these models, few draw them
    import networkx as nx

SCHEMA_VERSION = "1"

# How a graph or an evaluation is drawn: ``"html"`` (the notebook view) and ``"pyvis"``. The
# drawing code lives in factgraph.viz, which imports this module, so this module never imports
# it: the package's ``__init__`` (the public API, above every layer) registers the two functions,
# and they load viz on first use. See docs/extending.md, "The layers".
_DISPLAYS: dict[str, Callable[..., Any]] = {}


def register_display(kind: str, draw: Callable[..., Any]) -> None:
    """Make ``draw(obj, **kwargs)`` the drawing of ``kind`` (``"html"`` or ``"pyvis"``)."""
    _DISPLAYS[kind] = draw


def _display(kind: str) -> Callable[..., Any]:
    try:
        return _DISPLAYS[kind]
    except KeyError:
        raise LookupError(f"no {kind!r} display is registered (import factgraph)") from None


class Origin(str, Enum):
    """Which side of the comparison a statement comes from."""

    response = "response"
    context = "context"


class StatementKind(str, Enum):
    """What a statement is: an atomic statement, a Q&A answer, a claim, a reference fact, ..."""

    atom = "atom"
    answer = "answer"
    claim = "claim"
    fact = "fact"
    nugget = "nugget"
    aspect = "aspect"


class RelationLabel(str, Enum):
    """Edge labels. Only ``entails`` creates comprehensiveness coverage; ``covers`` links a claim
    to an ICAT aspect."""

    entails = "entails"
    contradicts = "contradicts"
    neutral = "neutral"
    covers = "covers"


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=False, validate_assignment=False)


class Statement(_Strict):
    """A node of the fact graph: one atomic piece of text."""

    id: str = Field(min_length=1, description="Unique within the graph; stable across runs.")
    text: str = Field(description="The statement, verbatim.")
    origin: Origin
    source_id: str | None = Field(
        default=None, description="The response or background document the statement came from."
    )
    kind: StatementKind = StatementKind.atom
    question_id: str | None = Field(default=None, description="For Q&A answers: their question.")
    relevance: float | None = Field(default=None, description="Relevance to the query, 1-5.")
    salience: float | None = Field(default=None, description="Salience, 1-5 (Jafari et al. 2026).")
    confidence: float | None = Field(default=None, description="Answer confidence, 1-5.")
    importance: float | None = Field(default=None, description="Importance weight in [0, 1].")
    trace_id: str | None = Field(default=None, description="The model call that produced it.")
    metadata: dict[str, Any] = Field(default_factory=dict)


class Relation(_Strict):
    """A directed edge ``src -> dst``. For ``entails``: src entails dst."""

    src: str = Field(min_length=1)
    dst: str = Field(min_length=1)
    label: RelationLabel
    probability: float | None = Field(default=None, ge=0.0, le=1.0)
    method: str | None = Field(
        default=None, description="Which judge made it: llm, cross-encoder, pint, exact, human."
    )
    trace_id: str | None = None
    metadata: dict[str, Any] = Field(default_factory=dict)


class FactGraph(_Strict):
    """Statements + relations + the query. Validates that ids are unique and edges resolve."""

    query: str = ""
    statements: list[Statement] = Field(default_factory=list)
    relations: list[Relation] = Field(default_factory=list)
    metadata: dict[str, Any] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _ids_resolve(self) -> FactGraph:
        seen: set[str] = set()
        for i, s in enumerate(self.statements):
            if s.id in seen:
                raise ValueError(f"statements.{i}.id: duplicate statement id {s.id!r}")
            seen.add(s.id)
        for i, r in enumerate(self.relations):
            for end in ("src", "dst"):
                sid = getattr(r, end)
                if sid not in seen:
                    raise ValueError(f"relations.{i}.{end}: unknown statement id {sid!r}")
        return self

    def _repr_html_(self) -> str:
        """Jupyter: the interactive view, isolated in an iframe."""
        html: str = _display("html")(self)
        return html

    def to_pyvis(self, **kwargs: Any) -> Any:
        """A ``pyvis.network.Network`` styled like ``factgraph view`` (``factgraph[pyvis]``);
        see :func:`factgraph.viz.pyvis_graph.to_pyvis` for the keyword arguments."""
        return _display("pyvis")(self, **kwargs)

    def statement(self, statement_id: str) -> Statement:
        """The statement with this id (KeyError if absent)."""
        for s in self.statements:
            if s.id == statement_id:
                return s
        raise KeyError(statement_id)

    def to_networkx(self) -> nx.MultiDiGraph:
        """A NetworkX view: nodes carry statement fields, edges carry relation fields."""
        import networkx as nx

        g: nx.MultiDiGraph = nx.MultiDiGraph(query=self.query)
        for s in self.statements:
            g.add_node(s.id, **s.model_dump(mode="json", exclude={"id"}))
        for r in self.relations:
            g.add_edge(r.src, r.dst, **r.model_dump(mode="json", exclude={"src", "dst"}))
        return g


class Verdict(_Strict):
    """A per-statement outcome: covered / uncovered / basis, supported / contradicted, ..."""

    statement_id: str
    label: str
    evidence: list[str] = Field(default_factory=list, description="Statement ids that justify it.")
    probability: float | None = None
    trace_id: str | None = None


class Trace(_Strict):
    """One model call: what went in, what came out, how it was parsed."""

    id: str
    engine: str
    model: str
    messages: list[dict[str, Any]] = Field(default_factory=list)
    parameters: dict[str, Any] = Field(default_factory=dict)
    raw_output: str | None = None
    parsed: Any = None
    parse_error: str | None = None
    usage: dict[str, int] = Field(default_factory=dict)
    latency_s: float | None = None
    cached: bool = False


class ParseFailure(_Strict):
    """A model reply that could not be used after every repair attempt (never a silent 0)."""

    stage: str
    item: str = Field(description="What the call was about: a text id, a pair, a question.")
    error: str
    attempts: int = 1
    trace_id: str | None = None


class Evaluation(_Strict):
    """One scored (query, response): method, parameters, scores, graph, verdicts, traces."""

    schema_version: str = SCHEMA_VERSION
    id: str = Field(min_length=1, description="Stable id of the evaluated input.")
    method: str
    query: str = ""
    response_id: str | None = None
    model: str | None = Field(default=None, description="The model that wrote the response.")
    parameters: dict[str, Any] = Field(default_factory=dict)
    scores: dict[str, float | None] = Field(default_factory=dict)
    graph: FactGraph = Field(default_factory=FactGraph)
    verdicts: list[Verdict] = Field(default_factory=list)
    traces: list[Trace] = Field(default_factory=list)
    limits_hit: list[str] = Field(default_factory=list)
    parse_failures: list[ParseFailure] = Field(default_factory=list)
    metadata: dict[str, Any] = Field(default_factory=dict)

    def _repr_html_(self) -> str:
        """Jupyter: the interactive view of this evaluation's graph, isolated in an iframe."""
        html: str = _display("html")(self)
        return html

    def to_pyvis(self, **kwargs: Any) -> Any:
        """A ``pyvis.network.Network`` of this evaluation's graph (``factgraph[pyvis]``)."""
        return _display("pyvis")(self, **kwargs)

    @field_validator("scores")
    @classmethod
    def _finite_scores(cls, v: dict[str, float | None]) -> dict[str, float | None]:
        import math

        for k, x in v.items():
            if x is not None and not math.isfinite(x):
                raise ValueError(f"score {k!r} is not finite: {x}")
        return v
