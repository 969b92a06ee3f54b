"""``factgraph schema``: print the JSON Schema of the file formats."""

from __future__ import annotations

import json

import click
from pydantic import BaseModel

from factgraph.datasets.fact_labels import FactLabelsRow
from factgraph.datasets.pairwise import PairwiseInstance
from factgraph.inputs import EvaluationInput
from factgraph.models import Evaluation, FactGraph

# the names `validate --kind` uses (inputs, results, graph), and evaluation for results
SCHEMAS: dict[str, type[BaseModel]] = {"graph": FactGraph, "evaluation": Evaluation,
                                       "results": Evaluation, "inputs": EvaluationInput,
                                       "pairwise": PairwiseInstance, "facts": FactLabelsRow}


@click.command("schema")
@click.argument("what", type=click.Choice(sorted(SCHEMAS)), default="graph")
def schema_cmd(what: str) -> None:
    """Print the JSON Schema of a FactGraph (default), an Evaluation (a results row), an
    inputs row (what `factgraph batch` reads), a pairwise preference row (`factgraph meta-eval
    pairwise`) or a fact-labels row (`factgraph meta-eval facts`)."""
    click.echo(json.dumps(SCHEMAS[what].model_json_schema(), indent=2))
