"""The contradiction check as the evidence judge asks it: a conflict is shown only where the
sentences carry the rest of the fact (its P with the value evidence set aside reaches
``CONFLICT_MIN_P``); a fact the answer does not state is missing, not contradicted."""

from __future__ import annotations

import numpy as np
import pytest

import factgraph
from factgraph.stages.contradiction import find_conflict
from factgraph.stages.fact_calibration import load_calibration
from factgraph.stages.fact_evidence import (
    ResponseIndex,
    distinctiveness,
    fact_evidence,
    feature_vector,
)
from factgraph.stages.judged_conflict import (
    CONFLICT_MIN_P,
    VALUE_FEATURES,
    judged_conflict,
    values_aside_probability,
)
from factgraph.stages.text_units import split_sentences


def _verdicts(facts: list[str], answer: str) -> dict[str, str]:
    ev = factgraph.evaluate("", answer, facts=facts, judge="e2e-evidence")
    entailed = {r.dst for r in ev.graph.relations if r.label.value == "entails"}
    wrong = {r.dst for r in ev.graph.relations if r.label.value == "contradicts"}
    return {s.text: "contradicted" if s.id in wrong else "covered" if s.id in entailed
            else "missing" for s in ev.graph.statements if s.metadata.get("given")}


def test_setting_the_value_evidence_aside_reads_those_features_as_zero() -> None:
    cal = load_calibration()
    assert set(cal.features) >= VALUE_FEATURES
    x = np.array([[1.0] * len(cal.features)])
    zeroed = x.copy()
    for j, name in enumerate(cal.features):
        if name in VALUE_FEATURES:
            zeroed[0, j] = 0.0
    assert values_aside_probability(cal, x)[0] == pytest.approx(cal.probability(zeroed)[0])
    # a missing number lowers P: set aside, it no longer does
    assert values_aside_probability(cal, x)[0] > cal.probability(x)[0]


ANNING = ["Mary Anning was born in 1799 in Lyme Regis, Dorset.", "Mary Anning died in 1847.",
          "Mary Anning discovered the first complete plesiosaur skeleton in 1823.",
          "Mary Anning was not allowed to join the Geological Society of London because she "
          "was a woman.", "Mary Anning earned her living by collecting and selling fossils."]
BATTERY = ["Lithium-ion phone batteries gradually lose capacity as they go through charge "
           "cycles.", "Heat is one of the biggest causes of lithium-ion phone battery "
           "degradation.", "Lithium-ion phone batteries do not suffer from the memory effect "
           "that affected nickel-cadmium batteries.", "Optimized Battery Charging holds an "
           "iPhone at 80% and finishes charging shortly before the user usually unplugs it.",
           "A lithium-ion phone battery should be stored long-term at about 50% charge."]


# set 12's terse answers (benchmarks/data/fact_labels_other_kinds_12.jsonl), with some of
# their facts: the facts set the words that tell each one apart, as the judge reads them
@pytest.mark.parametrize(("facts", "fact", "answer"), [
    # another year of another event of the same person: the death is not stated at all
    (ANNING, "Mary Anning died in 1847.",
     "Born in Lyme Regis, Dorset, in 1799, Mary Anning was a fossil collector best known for "
     "discovering the first complete plesiosaur skeleton in 1823. Leading geologists relied on "
     "her finds, yet the Geological Society of London, which barred women, never admitted "
     "her."),
    # another share of another setting: the storage advice is not given
    (BATTERY, "A lithium-ion phone battery should be stored long-term at about 50% charge.",
     "Overnight charging is fine. Just keep the phone cool, since heat does the most damage, "
     "and turn on Optimized Battery Charging (iPhone) or Adaptive Charging (Pixel), which hold "
     "it around 80% until shortly before you usually unplug. Lithium-ion cells have no memory "
     "effect."),
])
def test_a_fact_the_answer_does_not_carry_is_missing_not_contradicted(
        facts: list[str], fact: str, answer: str) -> None:
    sentences = split_sentences(answer, min_content_words=1)
    index = ResponseIndex.of(sentences)
    ev = fact_evidence(fact, index, distinct=distinctiveness(facts))
    cal = load_calibration()
    # the rules alone call it: what the judge sets aside
    assert find_conflict(fact, index, ev.sentence, answer) is not None
    aside = values_aside_probability(cal, np.array([feature_vector(ev, cal.features)]))[0]
    assert aside < CONFLICT_MIN_P
    assert judged_conflict(fact, index, ev, answer, cal) is None
    assert _verdicts(facts, answer)[fact] == "missing"


@pytest.mark.parametrize(("fact", "answer", "slot"), [
    ("Mary Anning died in 1847.", "Mary Anning died in 1874 at Lyme Regis.", "number"),
    ("The RBMK reactor had a positive void coefficient.",
     "The RBMK reactor had a negative void coefficient.", "antonym"),
    ("The Hoover Dam was dedicated by President Franklin D. Roosevelt on September 30, 1935.",
     "President Herbert Hoover dedicated the dam on September 30, 1935.", "name"),
])
def test_a_fact_stated_wrongly_is_still_contradicted(fact: str, answer: str, slot: str) -> None:
    index = ResponseIndex.of([answer])
    ev = fact_evidence(fact, index)
    found = judged_conflict(fact, index, ev, answer, load_calibration())
    assert found is not None and found[1].slot == slot
    assert _verdicts([fact], answer) == {fact: "contradicted"}
