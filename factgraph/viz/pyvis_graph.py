"""A fact graph as a ``pyvis.network.Network`` (the optional extra ``factgraph[pyvis]``).

For users who restyle or embed graphs with pyvis: the network is drawn from the same data as
``factgraph view`` (:func:`factgraph.viz.view.view_data`: statuses, palette and edge styles
from the graph engine), so both draw the same nodes and edges — response statements as boxes,
context statements coloured covered / uncovered / basis, entailment and contradiction styled
apart, neutral edges hidden (as the view hides them until asked), tooltips as plain text,
equivalent statements (one SCC) in one vis ``group``. ``net.write_html(path)`` writes one
offline page (see :mod:`factgraph.viz.pyvis_offline`).
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from factgraph.models import Evaluation, FactGraph

if TYPE_CHECKING:
    from pyvis.network import Network

MISSING_PYVIS = "to_pyvis needs pyvis: pip install 'factgraph[pyvis]'"
BIG_GRAPH = 500  # the view's clustering threshold: past it, a faster layout


def _fmt(x: float | None) -> str:
    if x is None:
        return "—"
    return str(int(x)) if float(x).is_integer() else f"{x:.3f}"


def statement_tooltip(s: dict[str, Any], palette: dict[str, dict[str, Any]]) -> str:
    """The view's tooltip lines for one statement (``view_data`` row), as plain text."""
    kind = f" ({s['kind']})" if s["kind"] != "atom" else ""
    lines = [s["text"], "", f"id: {s['id']}", f"origin: {s['origin']}{kind}",
             f"status: {palette[s['status']]['label']}"]
    if s["source_id"]:
        lines.append(f"source: {s['source_id']}")
    if s["relevance"] is not None:
        lines.append(f"relevance: {_fmt(s['relevance'])}")
    if s["confidence"] is not None:
        lines.append(f"confidence: {_fmt(s['confidence'])}")
    if s["component_size"] > 1:
        lines.append(f"equivalent statements: {s['component_size']}")
    if s["trace_id"]:
        model = f" ({s['trace_model']})" if s["trace_model"] else ""
        lines.append(f"model call: {s['trace_id']}{model}")
    return "\n".join(lines)


def relation_tooltip(r: dict[str, Any]) -> str:
    p = f" (p={_fmt(r['probability'])})" if r["probability"] is not None else ""
    by = f" by {r['method']}" if r["method"] else ""
    return f"{r['label']}{p}{by}"


def network_options(n_statements: int) -> dict[str, Any]:
    """vis-network options of the view (layout, physics, hover tooltips)."""
    big = n_statements > BIG_GRAPH
    physics: dict[str, Any] = {"solver": "barnesHut", "stabilization": {"iterations": 60}}
    if not big:
        physics = {"solver": "barnesHut", "stabilization": {"iterations": 400},
                   "barnesHut": {"gravitationalConstant": -9000, "springLength": 170,
                                 "avoidOverlap": 0.6}}
    return {
        "layout": {"improvedLayout": not big},
        "physics": physics,
        "interaction": {"hover": True, "tooltipDelay": 150, "multiselect": False},
        "nodes": {"widthConstraint": {"maximum": 220}},
        "edges": {"smooth": False if big else {"type": "continuous"}},
    }


def to_pyvis(obj: Evaluation | FactGraph, *, height: str = "720px", width: str = "100%",
             notebook: bool = False, heading: str = "") -> Network:
    """A pyvis Network of this graph, styled like ``factgraph view``; its ``write_html``
    output loads nothing from the network and runs only its own scripts."""
    try:
        from factgraph.viz.pyvis_offline import OfflineNetwork
    except ImportError:
        raise ImportError(MISSING_PYVIS) from None
    from factgraph.viz.view import view_data

    data = view_data(obj)
    palette, styles = data["palette"], data["edge_styles"]
    net = OfflineNetwork(height=height, width=width, directed=True, notebook=notebook,
                         heading=heading)
    for s in data["statements"]:
        colour = palette[s["status"]]
        response = s["origin"] == "response"
        extra: dict[str, Any] = {}
        if s["component_size"] > 1:
            extra["group"] = s["component"]
        color = {"background": colour["color"], "border": colour["border"],
                 "highlight": {"background": colour["color"], "border": "#111"}}
        net.add_node(
            s["id"], label=s["label"], title=statement_tooltip(s, palette),
            shape="box" if response else "ellipse", color=color,
            borderWidth=3 if s["status"] == "basis" else 1,
            font={"color": "#fff" if response else "#111", "size": 13},
            status=s["status"], origin=s["origin"], source=s["source_id"] or "",
            component=s["component"], **extra)
        net.node_map[s["id"]]["color"] = color  # pyvis drops the colour of grouped nodes
    from pyvis.edge import Edge

    for r in data["relations"]:
        style = styles[r["label"]]
        # What net.add_edge appends, without its linear search of the node list per edge
        # (the graph model has already checked that both ends exist).
        net.edges.append(Edge(
            r["src"], r["dst"], True, relation=r["label"], arrows="to",
            color={"color": style["color"], "highlight": "#111"},
            dashes=bool(style.get("dashes")), width=1.5, title=relation_tooltip(r),
            hidden=r["label"] == "neutral").options)
    net.set_options(json.dumps(network_options(len(data["statements"]))))
    return net
