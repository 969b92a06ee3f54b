"""ARGUE judgements: walk the Figure 2 decision flow (Mayfield et al. 2024) for every report
sentence, taking each answer from a manual judgements file when it has one and asking a model
otherwise.

Only the questions a sentence's path reaches are asked, stage by stage, each stage one batch:

1. cited sentences — does each cited document support the sentence? (NLI: document ⇒ sentence)
2. fully supported cited sentences — which nugget answers does the sentence give? Only answers
   attested by a supporting cited document count (the citation binds the answer, §4.3); a
   manual match to an unattested answer is rejected and recorded.
3. uncited sentences — is the sentence a negative claim (an absence)?
4. negative sentences — does a nugget state that absence? Candidates: nuggets having an answer
   attested by no document (the paper's "nugget for information … not attested").
5. other uncited sentences — does the sentence need a citation?
6. those needing one — is this the claim's first occurrence in the report?

A model reply that never parses leaves that sentence unjudged (recorded; no outcome, never a
guessed one). A question with neither a manual answer nor a model raises ValueError.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from pydantic import BaseModel, ConfigDict, Field

from factgraph.datasets.argue_io import Nugget, Report, ReportSentence, SentenceJudgements
from factgraph.errors import UserInputError
from factgraph.inputs import Document
from factgraph.stages.prompting import numbered
from factgraph.stages.session import ModelSession

MANUAL = "manual"
MODEL = "model"


class _Reply(BaseModel):
    model_config = ConfigDict(extra="ignore")


class AnswerReply(_Reply):
    answer: int = Field(ge=0)


class NegativeReply(_Reply):
    negative: bool


class NeedsCitationReply(_Reply):
    needs_citation: bool


class RepeatReply(_Reply):
    repeats: int = Field(ge=0)


@dataclass
class ArgueJudgements:
    """Everything the flow asked, per sentence id, with where each answer came from."""

    support: dict[str, dict[str, bool]] = field(default_factory=dict)
    matches: dict[str, list[tuple[str, str]]] = field(default_factory=dict)  # (nugget, answer)
    negative: dict[str, bool] = field(default_factory=dict)
    needs_citation: dict[str, bool] = field(default_factory=dict)
    first_occurrence: dict[str, bool] = field(default_factory=dict)
    source: dict[str, dict[str, str]] = field(default_factory=dict)  # sentence -> question -> src
    trace: dict[str, dict[str, str]] = field(default_factory=dict)  # sentence -> question -> id
    rejected: list[dict[str, str]] = field(default_factory=list)
    unjudged: dict[str, str] = field(default_factory=dict)  # sentence -> why

    def note(self, sid: str, question: str, src: str, trace_id: str | None = None) -> None:
        self.source.setdefault(sid, {})[question] = src
        if trace_id:
            self.trace.setdefault(sid, {})[question] = trace_id


def _no_model(sid: str, question: str, what: str) -> ValueError:
    return ValueError(f"sentence {sid}: no manual {question!r} judgement and no {what} to ask "
                      "(give --judgements with it, or a model)")


class ArgueJudge:
    """Fills ArgueJudgements for one report (see the module docstring for the order)."""

    def __init__(self, session: ModelSession, request: str, report: Report,
                 nuggets: Sequence[Nugget], documents: Sequence[Document],
                 manual: dict[str, SentenceJudgements] | None = None) -> None:
        self.session = session
        self.request = request
        self.report = report
        self.nuggets = {n.id: n for n in nuggets}
        self.docs = {d.id: d for d in documents}
        self.manual = manual or {}
        unknown = sorted(set(self.manual) - {s.id for s in report.sentences})
        if unknown:
            raise UserInputError(f"judgements name unknown sentences {unknown}")
        self.out = ArgueJudgements()

    def _m(self, sid: str) -> SentenceJudgements | None:
        return self.manual.get(sid)

    # -- 1. support --------------------------------------------------------------------------
    def _support(self, cited: list[ReportSentence]) -> None:
        pairs: list[tuple[str, str, str]] = []  # (sentence, doc, premise)
        for s in cited:
            got = dict((self._m(s.id) or SentenceJudgements(sentence=s.id)).support or {})
            extra = sorted(set(got) - set(s.citations))
            if extra:
                raise UserInputError(
                    f"sentence {s.id}: support judged for uncited documents {extra}")
            self.out.support[s.id] = {}
            for doc in s.citations:
                if doc in got:
                    self.out.support[s.id][doc] = got[doc]
                    self.out.note(s.id, f"support:{doc}", MANUAL)
                elif doc not in self.docs:
                    # A citation the evaluation cannot read cannot verify the sentence.
                    self.out.support[s.id][doc] = False
                    self.out.note(s.id, f"support:{doc}", "missing document")
                    self.session.count("argue.support.missing_document")
                else:
                    pairs.append((s.id, doc, self.docs[doc].text))
        if not pairs:
            return
        if self.session.nli is None:
            raise _no_model(pairs[0][0], f"support:{pairs[0][1]}", "NLI judge")
        sentence_text = {s.id: s.text for s in cited}
        results = self.session.judge("argue.support",
                                     [(p, sentence_text[sid]) for sid, _, p in pairs])
        for (sid, doc, _), r in zip(pairs, results, strict=True):
            if r.source == "failed":
                self.out.unjudged[sid] = f"no support judgement for {doc}"
                continue
            self.out.support[sid][doc] = r.label == "entails"
            self.out.note(sid, f"support:{doc}", MODEL, r.trace.id if r.trace else None)

    # -- 2./4. nugget matches ----------------------------------------------------------------
    def _candidates(self, s: ReportSentence, negative: bool) -> dict[str, list[str]]:
        """nugget id -> answer ids the sentence may validly give."""
        out: dict[str, list[str]] = {}
        supporting = {d for d, ok in self.out.support.get(s.id, {}).items() if ok}
        for n in self.nuggets.values():
            ids = [a.id for a in n.answers
                   if (not a.docs if negative else bool(supporting & set(a.docs)))]
            if ids:
                out[n.id] = ids
        return out

    def _matches(self, sentences: list[ReportSentence], negative: bool) -> None:
        asks: list[tuple[str, str, list[str]]] = []
        for s in sentences:
            cands = self._candidates(s, negative)
            m = self._m(s.id)
            if m is not None and m.nuggets is not None:
                self.out.matches[s.id] = []
                for match in m.nuggets:
                    nug = self.nuggets.get(match.nugget)
                    ans = nug.answer(match.answer) if nug else None
                    if nug is None or ans is None:
                        raise UserInputError(f"sentence {s.id}: unknown nugget answer "
                                         f"{match.nugget!r}/{match.answer!r}")
                    if ans.id in cands.get(nug.id, []):
                        self.out.matches[s.id].append((nug.id, ans.id))
                    else:
                        self.out.rejected.append({
                            "sentence": s.id, "nugget": nug.id, "answer": ans.id,
                            "why": "no supporting cited document attests this answer"
                            if not negative else "the answer is attested by a document"})
                self.out.note(s.id, "nuggets", MANUAL)
                continue
            self.out.matches[s.id] = []
            for nid, aids in cands.items():
                asks.append((s.id, nid, aids))
            if not cands:
                self.out.note(s.id, "nuggets", "no candidate")
        if not asks:
            return
        if self.session.text is None:
            raise _no_model(asks[0][0], "nuggets", "text model")
        p = self.session.prompt("argue_nugget")
        texts = {s.id: s.text for s in sentences}
        chats = []
        for sid, nid, aids in asks:
            nug = self.nuggets[nid]
            answers = [a.text for a in nug.answers if a.id in aids]
            chats.append(p.messages(question=nug.question, answers=numbered(answers),
                                    sentence=texts[sid]))
        items = [f"{sid}|{nid}" for sid, nid, _ in asks]
        replies = self.session.structured("argue.nugget", chats, AnswerReply, items=items)
        for (sid, nid, aids), item, reply in zip(asks, items, replies, strict=True):
            if reply is None:
                self.out.unjudged[sid] = f"no nugget judgement for nugget {nid}"
                continue
            if reply.answer > len(aids):
                self.session.count("argue.nugget.out_of_range")
                self.out.unjudged[sid] = f"nugget {nid}: answer number {reply.answer} unknown"
                continue
            if reply.answer:
                self.out.matches[sid].append((nid, aids[reply.answer - 1]))
            self.out.note(sid, f"nugget:{nid}", MODEL,
                          self.session.trace_for("argue.nugget", item))

    # -- 3./5./6. yes-no questions of uncited sentences -------------------------------------
    def _flag(self, sentences: list[ReportSentence], question: str, prompt: str,
              reply_cls: type[_Reply], attr: str, fields: dict[str, dict[str, str]]) -> None:
        target: dict[str, bool] = getattr(self.out, question)
        asks: list[ReportSentence] = []
        for s in sentences:
            value = getattr(self._m(s.id) or SentenceJudgements(sentence=s.id), question)
            if value is not None:
                target[s.id] = value
                self.out.note(s.id, question, MANUAL)
            else:
                asks.append(s)
        if not asks:
            return
        if self.session.text is None:
            raise _no_model(asks[0].id, question, "text model")
        p = self.session.prompt(prompt)
        stage = f"argue.{question}"
        replies = self.session.structured(stage, [p.messages(**fields[s.id]) for s in asks],
                                          reply_cls, items=[s.id for s in asks])
        for s, reply in zip(asks, replies, strict=True):
            if reply is None:
                self.out.unjudged[s.id] = f"no {question} judgement"
                continue
            target[s.id] = bool(getattr(reply, attr))
            self.out.note(s.id, question, MODEL, self.session.trace_for(stage, s.id))

    def _first_occurrence(self, sentences: list[ReportSentence]) -> None:
        order = [s.id for s in self.report.sentences]
        texts = {s.id: s.text for s in self.report.sentences}
        asks: list[ReportSentence] = []
        for s in sentences:
            m = self._m(s.id)
            if m is not None and m.first_occurrence is not None:
                self.out.first_occurrence[s.id] = m.first_occurrence
                self.out.note(s.id, "first_occurrence", MANUAL)
            elif order.index(s.id) == 0:
                self.out.first_occurrence[s.id] = True  # nothing came before it
                self.out.note(s.id, "first_occurrence", "first sentence")
            else:
                asks.append(s)
        if not asks:
            return
        if self.session.text is None:
            raise _no_model(asks[0].id, "first_occurrence", "text model")
        p = self.session.prompt("argue_first")
        chats = [p.messages(earlier=numbered([texts[i] for i in order[:order.index(s.id)]]),
                            sentence=s.text) for s in asks]
        replies = self.session.structured("argue.first_occurrence", chats, RepeatReply,
                                          items=[s.id for s in asks])
        for s, reply in zip(asks, replies, strict=True):
            if reply is None:
                self.out.unjudged[s.id] = "no first-occurrence judgement"
                continue
            self.out.first_occurrence[s.id] = reply.repeats == 0
            self.out.note(s.id, "first_occurrence", MODEL,
                          self.session.trace_for("argue.first_occurrence", s.id))

    # -- the flow ----------------------------------------------------------------------------
    def run(self) -> ArgueJudgements:
        sents = self.report.sentences
        cited = [s for s in sents if s.citations]
        uncited = [s for s in sents if not s.citations]
        self._support(cited)
        supported = [s for s in cited if s.id not in self.out.unjudged
                     and all(self.out.support[s.id].values())]
        self._matches(supported, negative=False)
        self._flag(uncited, "negative", "argue_negative", NegativeReply, "negative",
                   {s.id: {"sentence": s.text} for s in uncited})
        neg = [s for s in uncited if self.out.negative.get(s.id) is True]
        self._matches(neg, negative=True)
        plain = [s for s in uncited if self.out.negative.get(s.id) is False]
        self._flag(plain, "needs_citation", "argue_needs_citation", NeedsCitationReply,
                   "needs_citation",
                   {s.id: {"request": self.request, "sentence": s.text} for s in plain})
        needing = [s for s in plain if self.out.needs_citation.get(s.id) is True]
        self._first_occurrence(needing)
        return self.out
