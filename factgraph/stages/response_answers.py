"""The response's own answers to the query, checked against each background text.

Answers read from each text on its own (``context_facts.extract_context_facts`` with
``kind="answers"``) miss what a text only implies: a small model reading "she took up skiing in
2014" answers a "did she ... before 2013?" question with nothing, or with the other text's
"yes". A response that answers "no" then looks like it gave no background answer at all. This
stage looks from the other side:

1. the response's answer(s) to the query are read with the same prompt as the texts'
   (``query_answers``, the response as the text; grounded in the response); to a yes/no
   question (a text answered "yes" or "no") the response's opening "yes" / "no" is its
   answer too;
2. an answer that no known background answer matches word for word, either way round
   (``answer_match.answer_stated``), is new;
3. each new answer is put to every background text it is lexically grounded in (numbers
   included: a figure the text lacks is never asked about) as one yes/no question, "does the
   TEXT give this ANSWER?" (``factgraph/prompts/answer_support.toml``), with
   ``P(yes)`` read from the first token's log-probabilities (``fact_coverage.p_yes``).

An answer that some text supports with ``P(yes) ≥ cutoff`` is a background answer the
per-text reading missed: it joins the answer set (found by the response, attested by a text),
and the response covers it. An answer no text supports is not added — it is not a background
answer, so it cannot raise comprehensiveness. The extra cost is one call per response plus one
one-token call per (new answer, grounded text).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from pydantic import BaseModel, Field

from factgraph.stages.answer_match import answer_stated, bare_yes_no, opening_yes_no
from factgraph.stages.atomize import clip_text
from factgraph.stages.context_facts import extract_context_facts, grounded
from factgraph.stages.fact_coverage import one_token_params, p_yes
from factgraph.stages.session import ModelSession


class ResponseAnswer(BaseModel):
    """One answer the response gives that no known background answer matches."""

    text: str
    p_supported: dict[str, float | None] = Field(
        description="P(yes) per background text key; texts the answer is not grounded in are "
                    "not asked (absent).")

    def supporting(self, cutoff: float) -> list[str]:
        """Keys of the texts that support the answer, most probable first."""
        keyed = [(p, k) for k, p in self.p_supported.items() if p is not None and p >= cutoff]
        return [k for _, k in sorted(keyed, key=lambda pk: -pk[0])]


def is_known(answer: str, known: Sequence[str]) -> bool:
    """True when a known answer and ``answer`` match word for word, either way round."""
    return any(answer_stated(k, answer) or answer_stated(answer, k) for k in known)


def response_answers(
    session: ModelSession, query: str, response: str, texts: Mapping[str, str],
    known: Sequence[str], max_answers: int = 3, min_overlap: float | None = 0.5,
    top_logprobs: int = 10,
) -> list[ResponseAnswer] | None:
    """The response's answers that ``known`` lacks, each with its support per text.

    ``None`` when the response's answers could not be read (recorded by the session).
    """
    read = extract_context_facts(session, query, {"response": response}, max_answers,
                                 min_overlap, stage="response_answers", kind="answers")
    if read is None:
        return None
    answers = [a.text for a in read]
    # To a yes/no question (the texts answered "yes" or "no") the response's opening word is
    # its answer, even where the extraction gave none (seen with a 1.5B model on dev).
    opening = opening_yes_no(response)
    if opening and opening not in answers and any(bare_yes_no(k) for k in known):
        answers.append(opening)
    new = [a for a in answers if not is_known(a, known)]
    session.count("response_answers.new", len(new))
    asks = [(a, k) for a in new for k in texts
            if min_overlap is None or grounded(a, texts[k], min_overlap, "answers")]
    out = [ResponseAnswer(text=a, p_supported={}) for a in new]
    if not asks:
        return out
    p = session.prompt("answer_support")
    chats = [p.messages(query=query, text=clip_text(session, k, texts[k]), answer=a)
             for a, k in asks]
    gens = session.generate("answer_support", chats, one_token_params(session, top_logprobs))
    session.count("answer_support.generated_tokens", len(gens))
    by_text = {a.text: a for a in out}
    for (a, k), g in zip(asks, gens, strict=True):
        value = p_yes(g)
        by_text[a].p_supported[k] = None if value is None else round(value, 6)
    return out
