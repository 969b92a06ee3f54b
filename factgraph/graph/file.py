"""The fast reader of fact-graph files: bytes to a :class:`~factgraph.graph.GraphTable`.

The object path (``json.loads``, then a pydantic ``Statement`` / ``Relation`` per item, then
arrays) costs about ten times parsing the JSON on a 2M-relation graph and holds a dozen times
the file in memory. This reader decodes the same JSON with msgspec into light rows (C structs
with slots, not tracked by the garbage collector, no ``metadata`` dict allocated when a row
has none) that mirror the pydantic models field for field: unknown keys are refused, ids
must be non-empty strings, labels / origins / kinds must be the enum values, probabilities
lie in [0, 1]. Relations are first kept as raw JSON slices of the file, then decoded a chunk
at a time into rows that become position arrays at once, so no Python object per relation
outlives its chunk (peak memory about 2.5x the file instead of 14x).

It is an accelerator, never a second validator with its own messages: :func:`decode_table`
returns ``None`` whenever anything is off (a JSON or type error, a duplicate id, an unknown
endpoint, a value msgspec reads more strictly than pydantic), and the caller then takes the
object path, which either raises the usual one-line error or accepts the file as before.
So the two paths agree by construction; ``tests/test_io_fast.py`` checks that they do.
"""

from __future__ import annotations

from itertools import repeat
from operator import attrgetter
from typing import Annotated, Any

import msgspec
import numpy as np

from factgraph.graph import GraphTable
from factgraph.models import Origin, RelationLabel, StatementKind

NonEmpty = Annotated[str, msgspec.Meta(min_length=1)]
Probability = Annotated[float, msgspec.Meta(ge=0.0, le=1.0)]
Metadata = dict[str, Any] | msgspec.UnsetType


class StatementRow(msgspec.Struct, forbid_unknown_fields=True, gc=False):
    """The fields of :class:`factgraph.models.Statement`, as a light row."""

    id: NonEmpty
    text: str
    origin: Origin
    source_id: str | None = None
    kind: StatementKind = StatementKind.atom
    question_id: str | None = None
    relevance: float | None = None
    salience: float | None = None
    confidence: float | None = None
    importance: float | None = None
    trace_id: str | None = None
    metadata: Metadata = msgspec.UNSET


class RelationRow(msgspec.Struct, forbid_unknown_fields=True, gc=False):
    """The fields of :class:`factgraph.models.Relation`, as a light row."""

    src: NonEmpty
    dst: NonEmpty
    label: RelationLabel
    probability: Probability | None = None
    method: str | None = None
    trace_id: str | None = None
    metadata: Metadata = msgspec.UNSET


class GraphRows(msgspec.Struct, forbid_unknown_fields=True):
    """The fields of :class:`factgraph.models.FactGraph`; relations stay raw JSON until
    :func:`rows_to_table` decodes them a chunk at a time."""

    query: str = ""
    statements: list[StatementRow] = msgspec.field(default_factory=list)
    relations: list[msgspec.Raw] = msgspec.field(default_factory=list)
    metadata: Metadata = msgspec.UNSET


RELATION_CHUNK = 65_536  # relations decoded into rows at a time (bounds the rows alive)

LABEL_CODE = {label: code for code, label in enumerate(RelationLabel)}

_GRAPH_DECODER = msgspec.json.Decoder(GraphRows)
_RELATIONS_DECODER = msgspec.json.Decoder(list[RelationRow])
_ENVELOPE_DECODER = msgspec.json.Decoder(dict[str, msgspec.Raw])


def rows_to_table(rows: GraphRows, chunk: int = RELATION_CHUNK) -> GraphTable | None:
    """Arrays of decoded rows; ``None`` on a bad relation, a duplicate statement id or an
    unknown endpoint.

    Relations are decoded ``chunk`` at a time and turned into positions with C-level loops
    (``map`` over ``attrgetter``), so at most one chunk of relation rows is alive at once.
    Empties ``rows.relations`` (the raw slices) when done.
    """
    statements = rows.statements
    index = {s.id: i for i, s in enumerate(statements)}
    if len(index) != len(statements):
        return None
    raws = rows.relations
    m = len(raws)
    src = np.empty(m, dtype=np.int64)
    dst = np.empty(m, dtype=np.int64)
    is_entails = np.empty(m, dtype=bool)
    is_contradicts = np.empty(m, dtype=bool)
    probability = np.empty(m, dtype=np.float64)
    is_response = np.fromiter((s.origin is Origin.response for s in statements), dtype=bool,
                              count=len(statements))
    details: dict[int, RelationRow] = {}
    get = index.get
    for start in range(0, m, chunk):
        try:
            batch = _RELATIONS_DECODER.decode(b"[" + b",".join(raws[start:start + chunk]) + b"]")
        except (msgspec.DecodeError, UnicodeDecodeError):
            return None
        end = start + len(batch)
        src[start:end] = np.fromiter(map(get, map(attrgetter("src"), batch), repeat(-1)),
                                     dtype=np.int64, count=len(batch))
        dst[start:end] = np.fromiter(map(get, map(attrgetter("dst"), batch), repeat(-1)),
                                     dtype=np.int64, count=len(batch))
        label = np.fromiter(map(LABEL_CODE.__getitem__, map(attrgetter("label"), batch)),
                            dtype=np.int8, count=len(batch))  # one pass for both masks
        is_entails[start:end] = label == LABEL_CODE[RelationLabel.entails]
        is_contradicts[start:end] = label == LABEL_CODE[RelationLabel.contradicts]
        probability[start:end] = np.array(list(map(attrgetter("probability"), batch)),
                                          dtype=np.float64)
        _keep_details(details, batch, start, src[start:end], dst[start:end],
                      is_entails[start:end], is_contradicts[start:end], is_response)
    if m and (src.min() < 0 or dst.min() < 0):
        return None
    rows.relations = []
    return GraphTable(query=rows.query, statements=statements, src=src, dst=dst,
                      is_entails=is_entails, probability=probability,
                      is_contradicts=is_contradicts, details=details)


def _keep_details(details: dict[int, RelationRow], batch: list[RelationRow], start: int,
                  src: np.ndarray, dst: np.ndarray, is_entails: np.ndarray,
                  is_contradicts: np.ndarray, is_response: np.ndarray) -> None:
    """Keep, by position, the rows of one chunk a reason can name (``factgraph.graph.reasons``): an
    entailment from a response statement, a contradiction between the response and the
    background, and only when it records a method, a trace id or non-empty metadata (a row
    with ``{}`` gives a reason nothing more than no row). A chunk with an unknown endpoint
    keeps nothing (the whole table is refused)."""
    if not len(batch) or src.min() < 0 or dst.min() < 0:
        return
    from_response = is_response[src]
    wanted = (is_entails & from_response) | (is_contradicts & (from_response != is_response[dst]))
    for k in np.flatnonzero(wanted).tolist():
        row = batch[k]
        if row.method is not None or row.trace_id is not None or row.metadata:  # {} is none
            details[start + k] = row


def decode_table(data: bytes) -> GraphTable | None:
    """A GraphTable from the bytes of a FactGraph or Evaluation JSON; ``None`` when the fast
    path cannot vouch for the file (the caller then takes the object path)."""
    decoded = decode_graph_file(data)
    return None if decoded is None else decoded[1]


def decode_graph_file(data: bytes) -> tuple[str, GraphTable] | None:
    """``("graph", table)`` for a FactGraph file, ``("results", table)`` for an Evaluation
    (an object with ``graph`` and ``method``: its graph decoded here, everything else validated
    by pydantic with the graph left out), ``None`` when the fast path cannot vouch for it."""
    try:
        rows = _GRAPH_DECODER.decode(data)
    except (msgspec.DecodeError, UnicodeDecodeError):
        rows = None
    if rows is not None:
        table = rows_to_table(rows)
        return None if table is None else ("graph", table)
    table = _decode_evaluation(data)
    return None if table is None else ("results", table)


def _decode_evaluation(data: bytes) -> GraphTable | None:
    from pydantic import ValidationError

    from factgraph.models import Evaluation

    try:
        envelope = _ENVELOPE_DECODER.decode(data)
    except (msgspec.DecodeError, UnicodeDecodeError):
        return None
    if "graph" not in envelope or "method" not in envelope:
        return None
    graph_raw = envelope.pop("graph")
    rest = b"{" + b",".join(
        msgspec.json.encode(key) + b":" + bytes(raw) for key, raw in envelope.items()
    ) + b"}"
    try:
        Evaluation.model_validate_json(rest)
    except ValidationError:
        return None
    try:
        rows = _GRAPH_DECODER.decode(graph_raw)
    except (msgspec.DecodeError, UnicodeDecodeError):
        return None
    return rows_to_table(rows)
