"""Per-fact coverage: one small question per (response, fact) — "does the response show this
fact true?" — answered with a single generated token.

Two question wordings: ``nli`` (below) for context facts, and ``answer_coverage`` for the
answer-coverage judge — the query, the response and one answer a background text gives to the
query: "does the response give this answer?" (``factgraph/prompts/answer_coverage.toml``).

For a bare yes / no answer to a yes/no query, ``polarity_probabilities`` asks instead one
question per response — which answer does it give: yes, no, both or unclear? — and reads both
answers' probabilities off that one token (``response_polarity.toml``).

``several_answers_probability`` asks one question per response — does it give more than one
different answer to the query? — for the answer judge's ``several_answers_check``
(``response_several_answers.toml``), and ``one_answer_query_probability`` one per query — does
it ask for one answer or for a list? (``question_one_answer.toml``).

The question is the project's NLI prompt (``factgraph/prompts/nli.toml``: yes / no / unknown,
the wording measured to work with a 1.5B model) with the response as premise and the fact as
hypothesis. The probability that the response covers the fact is read from the first token's top
log-probabilities: ``P(yes) = m_yes / (m_yes + m_no + m_unknown)`` with ``m_w`` the summed
probability of the top tokens that spell the start of ``w`` (any case, surrounding spaces
ignored). Without log-probabilities the token itself gives 1.0 / 0.0; an answer that is none of
the three is ``None`` and recorded as a parse failure, never read as "no".

With ``samples = k > 1`` (self-consistency) the question is asked k times at temperature 1 with
seeds 0..k−1 and the probability is the mean of the k per-sample values (the share of "yes"
votes where no log-probabilities come back); it costs k calls per fact. The response (premise)
comes before the fact in the prompt, so engines with prefix caching (llama.cpp, vLLM) reuse it
across the facts of one response.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from factgraph.backends.base import ChatMessage, Generation, GenerationParams
from factgraph.models import ParseFailure
from factgraph.stages.atomize import clip_text
from factgraph.stages.session import ModelSession


def _word(token: str) -> str | None:
    t = token.strip().strip(".,:;\"'").lower()
    if t in ("y", "ye", "yes"):
        return "yes"
    if t in ("n", "no"):
        return "no"
    if len(t) >= 2 and "unknown".startswith(t):
        return "unknown"
    return None


def first_token_mass(gen: Generation, word_of: Callable[[str], str | None],
                     words: Sequence[str]) -> dict[str, float] | None:
    """``m_w`` per word: the summed probability of the first token's top tokens that
    ``word_of`` reads as ``w``. Without log-probabilities (or when no top token reads as a
    word) the generated first word counts 1; None when that is none of the words either."""
    mass = dict.fromkeys(words, 0.0)
    if gen.logprobs:
        first = gen.logprobs[0]
        for token, lp in (dict(first.top) or {first.token: first.logprob}).items():
            w = word_of(token)
            if w:
                mass[w] += math.exp(lp)
        if sum(mass.values()) > 0:
            return mass
    w = word_of(gen.text.split()[0]) if gen.text.split() else None
    if w is None:
        return None
    mass[w] = 1.0
    return mass


def p_yes(gen: Generation) -> float | None:
    """P(yes) of a one-token answer (see module docstring); None when it says neither."""
    mass = first_token_mass(gen, _word, ("yes", "no", "unknown"))
    return None if mass is None else mass["yes"] / sum(mass.values())


def one_token_params(session: ModelSession, top_logprobs: int = 10) -> GenerationParams:
    """The session's generation parameters for a one-token answer read from its top
    log-probabilities (no JSON schema, no choice list)."""
    return session.params.model_copy(update={"max_tokens": 1, "top_logprobs": top_logprobs,
                                             "json_schema": None, "choices": None})


def _word_by_prefix(words: Sequence[str]) -> Callable[[str], str | None]:
    """A token reader: the one word of ``words`` whose start the token spells (case, spaces and
    end punctuation ignored); None for no word or more than one."""
    def read(token: str) -> str | None:
        t = token.strip().strip(".,:;\"'").lower()
        if not t:
            return None
        hits = [w for w in words if w.startswith(t)]
        return hits[0] if len(hits) == 1 else None
    return read


def _one_token_mass(session: ModelSession, stage: str, prompt: str, item: str,
                    word_of: Callable[[str], str | None], words: Sequence[str], expected: str,
                    top_logprobs: int, **fields: str) -> dict[str, float] | None:
    """Ask one one-token question (``prompt`` filled with ``fields``) and read ``m_w`` per
    word off its first token (``first_token_mass``); None — recorded as a parse failure of
    ``item`` — when the answer is none of the words."""
    chat = session.prompt(prompt).messages(**fields)
    [gen] = session.generate(stage, [chat], one_token_params(session, top_logprobs))
    session.count(f"{stage}.generated_tokens")
    mass = first_token_mass(gen, word_of, words)
    if mass is None:
        session.failures.append(ParseFailure(
            stage=stage, item=item, error=f"not {expected}: {gen.text[:40]!r}", attempts=1,
            trace_id=gen.trace.id))
    return mass


_POLARITY = ("yes", "no", "both", "unclear")  # the four differ in their first letter


def polarity_probabilities(session: ModelSession, query: str, response: str,
                           top_logprobs: int = 10, stage: str = "polarity"
                           ) -> dict[str, float] | None:
    """P(the response gives "yes") and P(... "no") to a yes/no query, from one token:
    "yes", "no", "both" (it gives both answers) or "unclear" (neither); with ``m_w`` the summed
    probability of the top tokens that spell the start of ``w``,
    ``P(yes) = (m_yes + m_both) / Σ m`` and ``P(no) = (m_no + m_both) / Σ m``. Without
    log-probabilities the token gives 1.0 / 0.0. ``None`` when the answer is none of the four
    (recorded as a parse failure)."""
    mass = _one_token_mass(session, stage, "response_polarity", "response",
                           _word_by_prefix(_POLARITY), _POLARITY, "yes/no/both/unclear",
                           top_logprobs, query=query,
                           response=clip_text(session, "response", response))
    if mass is None:
        return None
    total = sum(mass.values())
    return {"yes": (mass["yes"] + mass["both"]) / total, "no": (mass["no"] + mass["both"]) / total}


def several_answers_probability(session: ModelSession, query: str, response: str,
                                top_logprobs: int = 10, stage: str = "several_answers"
                                ) -> float | None:
    """P(the response gives two or more different answers to the query), from one token
    (``P(yes)`` as in ``p_yes``); None when the answer is neither yes nor no (recorded as a
    parse failure)."""
    mass = _one_token_mass(session, stage, "response_several_answers", "response", _word,
                           ("yes", "no", "unknown"), "yes/no", top_logprobs, query=query,
                           response=clip_text(session, "response", response))
    return None if mass is None else mass["yes"] / sum(mass.values())


def one_answer_query_probability(session: ModelSession, query: str, top_logprobs: int = 10,
                                 stage: str = "query_kind") -> float | None:
    """P(the query asks for one answer, not for a list of several things), from one token:
    ``m_one / (m_one + m_list)``; None when the answer is neither (a parse failure)."""
    mass = _one_token_mass(session, stage, "question_one_answer", "query",
                           _word_by_prefix(("one", "list")), ("one", "list"), "one/list",
                           top_logprobs, query=query)
    return None if mass is None else mass["one"] / sum(mass.values())


def coverage_probabilities(
    session: ModelSession, response: str, facts: Sequence[str], samples: int = 1,
    top_logprobs: int = 10, stage: str = "coverage", query: str | None = None,
) -> list[float | None]:
    """P(the response states or implies fact) for each fact (None: no readable answer).

    With ``query`` the facts are answers to it and the ``answer_coverage`` question is asked;
    without, the ``nli`` question (response as premise, fact as hypothesis).
    """
    if samples < 1:
        raise ValueError("samples must be at least 1")
    if not facts:
        return []
    shown = clip_text(session, "response", response)
    if query is None:
        p = session.prompt("nli")
        chats = [p.messages(premise=shown, hypothesis=f) for f in facts]
    else:
        p = session.prompt("answer_coverage")
        chats = [p.messages(query=query, response=shown, answer=f) for f in facts]
    runs: list[list[float | None]] = []
    for k in range(samples):
        params = one_token_params(session, top_logprobs)
        if samples > 1:
            params = params.model_copy(update={"temperature": 1.0, "seed": k})
        runs.append(_yes_probabilities(session, stage, chats, params))
    out: list[float | None] = []
    for values in zip(*runs, strict=True):
        usable = [v for v in values if v is not None]
        out.append(sum(usable) / len(usable) if usable else None)
    return out


def _yes_probabilities(session: ModelSession, stage: str,
                       chats: Sequence[Sequence[ChatMessage]],
                       params: GenerationParams) -> list[float | None]:
    """One batch of yes/no/unknown questions: ``P(yes)`` per chat (``p_yes``), the generated
    tokens counted, an unreadable answer recorded as a parse failure of ``fact N``."""
    gens = session.generate(stage, chats, params)
    session.count(f"{stage}.generated_tokens", len(gens))
    out = [p_yes(g) for g in gens]
    for n, (g, value) in enumerate(zip(gens, out, strict=True)):
        if value is None:
            session.failures.append(ParseFailure(
                stage=stage, item=f"fact {n + 1}", error=f"not yes/no/unknown: {g.text[:40]!r}",
                attempts=1, trace_id=g.trace.id))
    return out


def evidence_probabilities(session: ModelSession, pairs: Sequence[tuple[str, str]],
                           top_logprobs: int = 10, stage: str = "coverage"
                           ) -> list[float | None]:
    """P(yes) that each ``(evidence, fact)`` pair's evidence states the fact: the ``nli``
    question with the evidence as premise, one token per pair, all pairs in one batch (the
    long-form judge shows each fact only the response sentences nearest to it). None, recorded
    as a parse failure, when the answer is not yes / no / unknown."""
    if not pairs:
        return []
    p = session.prompt("nli")
    chats = [p.messages(premise=clip_text(session, "response", ev), hypothesis=fact)
             for ev, fact in pairs]
    return _yes_probabilities(session, stage, chats, one_token_params(session, top_logprobs))


def evidence_verdict_probabilities(session: ModelSession, pairs: Sequence[tuple[str, str]],
                                   top_logprobs: int = 10, stage: str = "coverage"
                                   ) -> list[tuple[float, float] | None]:
    """``(P(yes), P(no))`` for each ``(evidence, fact)`` pair from the one-token ``nli``
    question (yes: the evidence states the fact; no: it shows the fact false; the rest of the
    mass is "unknown"), normalised over the three words. None, recorded as a parse failure,
    when the answer is none of them. The ``evidence`` judge's model check: ``P(no)`` is the
    model's "contradicts"."""
    if not pairs:
        return []
    p = session.prompt("nli")
    chats = [p.messages(premise=clip_text(session, "response", ev), hypothesis=fact)
             for ev, fact in pairs]
    gens = session.generate(stage, chats, one_token_params(session, top_logprobs))
    session.count(f"{stage}.generated_tokens", len(gens))
    out: list[tuple[float, float] | None] = []
    for n, g in enumerate(gens):
        mass = first_token_mass(g, _word, ("yes", "no", "unknown"))
        if mass is None:
            session.failures.append(ParseFailure(
                stage=stage, item=f"fact {n + 1}", error=f"not yes/no/unknown: {g.text[:40]!r}",
                attempts=1, trace_id=g.trace.id))
            out.append(None)
            continue
        total = sum(mass.values())
        out.append((mass["yes"] / total, mass["no"] / total))
    return out
