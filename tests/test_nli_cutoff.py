"""The NLI entailment cut-off (``nli_cutoff``): with it, a judged pair entails exactly when
P(entails) ≥ the cut-off; without it, when entailment is the most probable label."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from hypothesis import given
from hypothesis import strategies as st

from factgraph.backends.base import NLIResult
from factgraph.stages.nli_relations import PairPolicy, decide_label, judge_pairs
from factgraph.stages.session import ModelSession

# (premise, hypothesis) -> (P entails, P neutral, P contradicts)
PROBS = {("r", "c1"): (0.40, 0.55, 0.05),  # neutral is the most probable label
         ("r", "c2"): (0.10, 0.20, 0.70),
         ("r", "c3"): (0.85, 0.10, 0.05)}


class ProbabilityNLI:
    engine = "fixed"
    model = "fixed"

    def judge(self, pairs: Sequence[tuple[str, str]]) -> list[NLIResult]:
        out = []
        for pair in pairs:
            e, n, c = PROBS.get(pair, (0.0, 1.0, 0.0))
            out.append(NLIResult(entailment=e, neutral=n, contradiction=c))
        return out


def _edges(cutoff: float | None) -> dict[tuple[str, str], str]:
    session = ModelSession(nli=ProbabilityNLI())
    relations, _ = judge_pairs(session, {i: i for i in ("r", "c1", "c2", "c3")}, ["r"],
                               ["c1", "c2", "c3"], PairPolicy(entail_cutoff=cutoff),
                               include_context_pairs=False)
    return {(r.src, r.dst): r.label.value for r in relations}


def test_cutoff_turns_a_probable_enough_entailment_into_an_edge() -> None:
    assert _edges(None) == {("r", "c2"): "contradicts", ("r", "c3"): "entails"}
    assert _edges(0.3) == {("r", "c1"): "entails", ("r", "c2"): "contradicts",
                           ("r", "c3"): "entails"}
    assert _edges(0.9) == {("r", "c2"): "contradicts"}  # c3 (0.85) no longer entails


def test_nli_method_records_the_cutoff() -> None:
    from factgraph.methods.comprehensiveness import ComprehensivenessOptions

    assert ComprehensivenessOptions(nli_cutoff=0.3).nli_cutoff == 0.3
    with pytest.raises(ValueError):
        ComprehensivenessOptions(nli_cutoff=1.5)


probs = st.tuples(st.floats(0, 1), st.floats(0, 1), st.floats(0, 1)).filter(
    lambda t: sum(t) > 0).map(lambda t: tuple(x / sum(t) for x in t))


@given(probs, st.floats(0, 1))
def test_decide_label_against_its_definition(p: tuple[float, float, float], cut: float) -> None:
    res = NLIResult(entailment=min(p[0], 1.0), neutral=min(p[1], 1.0),
                    contradiction=min(p[2], 1.0))
    got = decide_label(res, cut)
    if res.entailment >= cut:
        assert got == "entails"
    else:
        assert got == ("contradicts" if res.contradiction > res.neutral else "neutral")
    assert decide_label(res, None) == res.label
