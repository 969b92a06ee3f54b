"""The long-form judge (coverage_judge="sentences"): clauses of the reference as facts, the
word check, embedding similarity, and — in the cascade — one model token for the undecided;
the named judges, ``factgraph judges`` and the default judge per kind of input."""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from factgraph.backends.base import ChatMessage, GenerationParams
from factgraph.backends.scripted import ScriptedTextBackend, ScriptOutput
from factgraph.inputs import Document, EvaluationInput
from factgraph.methods.comprehensiveness import ComprehensivenessOptions
from factgraph.methods.e2e.auto import input_kind, resolve_auto_judge
from factgraph.methods.e2e.method import run_e2e
from factgraph.methods.judges import DEFAULT_JUDGES, JUDGES, get_judge
from factgraph.stages.sentence_coverage import word_share
from factgraph.stages.session import ModelSession
from factgraph.stages.text_units import split_facts, split_sentences
from tests.pipeline_support import invoke
from tests.scripted_support import one_token_reply, prompt_field

REPO = Path(__file__).resolve().parent.parent


def test_sentences_drop_citations_and_list_markers() -> None:
    text = ("Dams hold water [4]. They make power [2, 5].\n\n1. **Flood control**: dams "
            "store floods.\n- Irrigation of dry fields")
    assert split_sentences(text) == ["Dams hold water.", "They make power.",
                                     "Flood control: dams store floods.",
                                     "Irrigation of dry fields"]


def test_a_tables_rule_line_is_no_sentence() -> None:
    text = ("| Dam | Height |\n|---|:---:|\n| Hoover Dam | 221 metres |\n"
            "| Grand Coulee Dam | 168 metres |\nPrices rose - then fell --- sharply.")
    assert split_sentences(text) == ["| Dam | Height |", "| Hoover Dam | 221 metres |",
                                     "| Grand Coulee Dam | 168 metres |",
                                     "Prices rose - then fell --- sharply."]


def test_italics_and_quote_markers_are_dropped_from_sentences() -> None:
    """What a reason quotes is the sentence's words: "*positive*" reads "positive", a quote's
    ">" goes; a list's "* " marker, "2*3*4" and snake_case stay as written."""
    text = ("1. **Design**: the reactor had a *positive* void coefficient.\n"
            "> In short: a _flawed_ design plus human error.\n"
            "* The model computes 2*3*4 with max_tokens set.")
    assert split_sentences(text) == [
        "Design: the reactor had a positive void coefficient.",
        "In short: a flawed design plus human error.",
        "The model computes 2*3*4 with max_tokens set."]


def test_sentences_stop_at_a_list_of_works_cited() -> None:
    """A list of works cited states no fact: from a "References" line on, and each line that
    opens with a citation number and reads as an entry (pages, a year, a quoted title)."""
    text = ("Dams hold water [1]. They make power [2].\n\nReferences:\n[1] A. Berg, \"Dams,\" "
            "J. Hydro., vol. 3, pp. 1-9, 2019.\n[2] Lund, K. (2020). Power.")
    assert split_sentences(text) == ["Dams hold water.", "They make power."]
    text = ("Dams hold water [1].\n\n[1] A. Berg and K. Lund, \"Dams and rivers,\" in Proc. "
            "Hydro 2019, pp. 515-520.\n[2] Dams also make power for nearby towns.")
    assert split_sentences(text) == ["Dams hold water.", "Dams also make power for nearby towns."]
    # a text that is only a list keeps it; "Sources of power" is no list of works cited
    assert split_sentences("Sources of power include dams and wind farms.") == [
        "Sources of power include dams and wind farms."]


def test_clauses_cut_sentences_at_boundaries_into_three_content_words_or_more() -> None:
    s = ("The dam, built in 1936 on the Colorado river, holds Lake Mead and it supplies "
         "water to three states.")
    # "The dam" (one content word) joins the clause after it; "and" is a boundary
    assert split_facts(s) == ["The dam built in 1936 on the Colorado river", "holds Lake Mead",
                              "it supplies water to three states."]
    assert split_facts(s, unit="sentence") == [s]
    # a number whose thousands a tokeniser set apart is one number, not a clause break; a year
    # before a comma is no thousands group
    assert split_facts("Just 28 of 700 , 000 babies born in 2013 were given the name . "
                       "In 2010 , 500 people came to the town fair.") == [
        "Just 28 of 700,000 babies born in 2013 were given the name .",
        "In 2010 500 people came to the town fair."]


def test_word_share_is_the_share_of_content_words() -> None:
    assert word_share("Lake Mead holds water", {"lake", "water"}) == pytest.approx(2 / 4)
    assert word_share("the of", {"x"}) == 0.0


class AxisEmbeddings:
    """One axis per keyword; rows L2-normalised (cosine = shared keywords)."""

    engine = "test"
    model = "axes"
    AXES = ("power", "electricity", "flood", "fish", "tourism")

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        rows = []
        for n, t in enumerate(texts):
            v = np.zeros(len(self.AXES) + len(texts))
            v[: len(self.AXES)] = [1.0 if k in t.lower() else 0.0 for k in self.AXES]
            if not v.any():
                v[len(self.AXES) + n] = 1.0  # no keyword: like nothing else
            rows.append(v / np.linalg.norm(v))
        return np.array(rows)


REFERENCE = ("Hoover Dam stores water for Nevada farms. The turbines generate power. "
             "Fish ladders were never built. Tourism brings many visitors yearly.")
RESPONSE = ("Hoover Dam stores water for farms in Nevada. It makes electricity and power "
            "with turbines.")


def _input(response: str = RESPONSE) -> EvaluationInput:
    return EvaluationInput(id="hoover", query="What does Hoover Dam do?", response=response,
                           documents=[Document(id="reference", text=REFERENCE)])


def test_model_free_judge_uses_words_then_similarity_and_no_model() -> None:
    session = ModelSession(embeddings=AxisEmbeddings())  # no text model at all
    options = ComprehensivenessOptions(coverage_judge="sentences", fact_unit="sentence",
                                       words_cutoff=0.8, similarity_cutoff=0.7)
    ev = run_e2e(_input(), session, options)
    facts = {s.text: s for s in ev.graph.statements if s.origin.value == "context"}
    methods = {ev.graph.statements[[s.id for s in ev.graph.statements].index(r.dst)].text:
               r.method for r in ev.graph.relations}
    assert methods["Hoover Dam stores water for Nevada farms."] == "words"
    # "generate power" shares few words with the response, but its one keyword axis matches
    assert methods["The turbines generate power."] == "embedding"  # 2 of 3 words, cos 0.71
    assert "Fish ladders were never built." not in methods
    assert ev.scores["comprehensiveness"] == pytest.approx(2 / 4)
    assert all("word_share" in f.metadata and "similarity" in f.metadata
               for f in facts.values())


def test_similarity_alone_covers_a_paraphrase() -> None:
    session = ModelSession(embeddings=AxisEmbeddings())
    options = ComprehensivenessOptions(coverage_judge="sentences", fact_unit="sentence",
                                       words_cutoff=1.0, similarity_cutoff=0.9)
    ev = run_e2e(_input("Visitors come for tourism."), session, options)
    covered = [r for r in ev.graph.relations if r.label.value == "entails"]
    assert [r.method for r in covered] == ["embedding"]
    assert ev.scores["comprehensiveness"] == pytest.approx(1 / 4)


def _nli_script(yes_for: str) -> tuple[ScriptedTextBackend, list[str]]:
    asked: list[str] = []

    def script(messages: Sequence[ChatMessage], params: GenerationParams) -> ScriptOutput:
        hypothesis = prompt_field(messages[-1].content, "HYPOTHESIS")
        asked.append(hypothesis)
        assert params.max_tokens == 1
        yes = math.log(0.9 if yes_for in hypothesis else 0.1)
        no = math.log(0.1 if yes_for in hypothesis else 0.9)
        return one_token_reply({"yes": yes, "no": no})
    return ScriptedTextBackend(script), asked


def test_cascade_asks_the_model_only_inside_the_band() -> None:
    text, asked = _nli_script(yes_for="Tourism")
    session = ModelSession(text=text, embeddings=AxisEmbeddings())
    # words: covered at 0.8; band from 0.0 for "Tourism ..." only through its similarity
    options = ComprehensivenessOptions(
        coverage_judge="sentences", fact_unit="sentence", sentence_model_check=True,
        words_cutoff=0.8, similarity_cutoff=0.99, words_floor=0.99, similarity_floor=0.5)
    ev = run_e2e(_input("Hoover Dam stores water for Nevada farms. Tourism and power."),
                 session, options)
    # asked: the facts whose similarity reaches the floor and nothing else covers
    assert asked and all("Hoover" not in h for h in asked)
    by_text = {s.text: s for s in ev.graph.statements}
    tourism = by_text["Tourism brings many visitors yearly."]
    assert tourism.metadata["p_covered"] == pytest.approx(0.9)
    covered = {r.dst: r.method for r in ev.graph.relations}
    assert covered[tourism.id] == "sentences"
    power = by_text["The turbines generate power."]
    assert power.text in asked and power.id not in covered  # in the band; the model said no
    assert "Fish ladders were never built." not in asked


def test_sentences_judge_needs_embeddings() -> None:
    with pytest.raises(ValueError, match="embedding model"):
        run_e2e(_input(), ModelSession(), ComprehensivenessOptions(coverage_judge="sentences"))


def test_an_empty_response_covers_nothing() -> None:
    ev = run_e2e(_input(""), ModelSession(embeddings=AxisEmbeddings()),
                 ComprehensivenessOptions(coverage_judge="sentences"))
    assert ev.scores["comprehensiveness"] == 0.0


def test_auto_picks_the_default_judge_per_kind_and_keeps_given_options() -> None:
    short = EvaluationInput(id="s", query="q?", response="Paris.")
    long = EvaluationInput(id="l", query="q?", response=" ".join(["word"] * 120))
    assert input_kind(short, 80) == "short answer"
    assert input_kind(long, 80) == "long-form"
    one_reference = short.model_copy(update={"documents": [Document(id="r", text="x y")]})
    assert input_kind(one_reference, 80) == "long-form"
    two_texts = short.model_copy(update={"documents": [Document(id="a", text="x"),
                                                       Document(id="b", text="y")]})
    assert input_kind(two_texts, 80) == "short answer"
    opts, name = resolve_auto_judge(long, ComprehensivenessOptions(coverage_judge="auto",
                                                                   coverage_cutoff=0.6))
    assert name == DEFAULT_JUDGES["long-form"] == "e2e-evidence"
    assert opts.coverage_judge == "evidence" and opts.coverage_cutoff == 0.6
    opts, name = resolve_auto_judge(short, ComprehensivenessOptions(coverage_judge="auto"))
    assert name == DEFAULT_JUDGES["short answer"] == "e2e-answers-several"
    assert opts.coverage_judge == "answers" and opts.coverage_cutoff == 0.7


def test_auto_on_a_long_answer_runs_the_long_form_judge_without_a_model() -> None:
    session = ModelSession(embeddings=AxisEmbeddings())
    long_response = RESPONSE + " " + " ".join(["Details follow here."] * 30)
    ev = run_e2e(_input(long_response), session,
                 ComprehensivenessOptions(coverage_judge="auto"))
    assert ev.parameters["judge"] == "e2e-evidence"
    assert ev.parameters["coverage_judge"] == "evidence"
    assert ev.scores["comprehensiveness"] is not None


def test_every_named_judge_validates_and_lists() -> None:
    from factgraph.config import EvaluationConfig

    assert JUDGES
    for judge in JUDGES.values():
        cfg = EvaluationConfig.from_flat(judge.flat())
        assert cfg.method == judge.method
    with pytest.raises(ValueError, match="known:"):
        get_judge("nope")
    res = invoke("judges", "--format", "json")
    listed = json.loads(res.output)
    assert [r["name"] for r in listed] == list(JUDGES)
    defaults = {r["default_for"]: r["name"] for r in listed if r["default_for"]}
    assert defaults == {k: v for k, v in DEFAULT_JUDGES.items()}
    free = next(r for r in listed if r["name"] == "e2e-sentences-model-free")
    assert free["needs_model"] is False and free["measured"], "its dev card is listed"


def test_cli_judge_sets_method_and_options_and_flags_win() -> None:
    from factgraph.cli.evaluate import build_config

    base = {"judge": "e2e-answers-several", "set_values": ("coverage_cutoff=0.5",)}
    cfg = build_config(base)
    assert cfg.method == "e2e" and cfg.options["coverage_judge"] == "answers"
    assert cfg.options["coverage_cutoff"] == 0.5
    res = invoke("evaluate", "--judge", "nli", "--method", "qa", "--query", "q",
                 "--response", str(REPO / "README.md"))
    assert res.exit_code == 2 and "contradicts" in res.output


def test_python_judge_keyword() -> None:
    import factgraph
    from factgraph.api import make_config

    cfg = make_config(judge="nli-tuned")
    assert cfg.method == "nli" and cfg.options == {"nli_cutoff": 0.2}
    ev = factgraph.evaluate("What does Hoover Dam do?", RESPONSE, [REFERENCE],
                            judge="e2e-sentences-model-free",
                            backends=_backends(), cache=False)
    assert ev.parameters["coverage_judge"] == "sentences"
    assert 0.0 < ev.scores["comprehensiveness"] <= 1.0


def _backends():  # type: ignore[no-untyped-def]
    from factgraph.methods.run import Backends

    return Backends(embeddings=AxisEmbeddings())


def test_meta_eval_takes_the_judges_method() -> None:
    """`meta-eval wikicontradict --judge nli` runs nli (not the e2e default against it)."""
    res = invoke("meta-eval", "wikicontradict", "--judge", "nli", "--results", "x.jsonl",
                 "--data", "/nonexistent/wc.jsonl")
    assert res.exit_code == 2
    assert "contradicts" not in res.output and "/nonexistent/wc.jsonl" in res.output


def test_a_configs_method_is_not_overridden_by_the_api_default() -> None:
    """factgraph.evaluator(config=...) with method e2e runs e2e (it ran nli before)."""
    import factgraph
    from factgraph.config import EvaluationConfig

    cfg = EvaluationConfig.from_flat({"method": "e2e", "coverage_judge": "sentences"})
    ev = factgraph.evaluator(config=cfg, backends=_backends())
    assert ev.method == "e2e"
    assert ev.parsed_options.coverage_judge == "sentences"
    assert factgraph.evaluator(backends=_backends()).method == "nli"  # the API's own default


def test_a_pairwise_card_is_read_and_carried_like_any_judge_card() -> None:
    from factgraph.evaluation.meta_eval import CardedEvaluator, card_of, read_judge_card
    from factgraph.evaluation.pairwise_report import PairwiseCard

    card = read_judge_card(REPO / "docs" / "judge_cards" / "long-form"
                           / "e2e-sentences-model-free.json")
    assert isinstance(card, PairwiseCard)
    line = card.one_line()
    assert "e2e-sentences-model-free" in line and "lexical baseline 63.3 / 59.4" in line
    carded = CardedEvaluator(lambda inp: run_e2e(inp, ModelSession(
        embeddings=AxisEmbeddings()), ComprehensivenessOptions(coverage_judge="sentences")),
        card)
    again = card_of(carded(_input()))
    assert isinstance(again, PairwiseCard) and again.one_line() == line


def test_method_names_come_from_the_registry_alone() -> None:
    """The config's accepted names and the CLI's choices are the registry's (no second list)."""
    from factgraph.cli.evaluate import METHOD_NAMES
    from factgraph.config import ConfigError, EvaluationConfig
    from factgraph.methods import METHODS

    assert list(METHODS) == METHOD_NAMES
    for name in METHODS:
        assert EvaluationConfig.from_flat({"method": name}).method == name
    with pytest.raises(ConfigError, match="known: nli, qa, e2e"):
        EvaluationConfig.from_flat({"method": "exact-match"})
