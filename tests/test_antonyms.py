"""Opposites in every form a sentence writes them (``factgraph.stages.conflicts.antonyms``), and the
contradiction check that reads them: a fact turned round in any inflection is contradicted;
the same word in another form, or a fact that holds both sides, is not."""

from __future__ import annotations

import pytest

from factgraph.stages.conflicts.antonyms import (
    ANTONYMS,
    PAIRS,
    SAME_WORD,
    latin_opposites,
    word_forms,
)
from factgraph.stages.contradiction import contradiction


def test_word_forms_spell_the_regular_inflections() -> None:
    assert {"reduces", "reduced", "reducing"} <= word_forms("reduce")
    assert {"drops", "dropped", "dropping"} <= word_forms("drop")
    assert {"earlier", "earliest", "denied"} <= word_forms("early") | word_forms("deny")
    assert {"bigger", "biggest", "winner", "won"} <= word_forms("big") | word_forms("win")
    # a word whose regular forms mean something else keeps only its listed ones
    assert "closer" not in word_forms("close") and "lasted" not in word_forms("last")


def test_every_form_of_one_side_opposes_every_form_of_the_other() -> None:
    for a, b in PAIRS:
        for x in word_forms(a) - word_forms(b):
            assert word_forms(b) - word_forms(a) <= ANTONYMS[x], (a, b, x)
    assert "increases" in ANTONYMS["reduces"] and "fell" in ANTONYMS["increased"]
    assert not any(w in ANTONYMS[w] for w in ANTONYMS)  # nothing opposes itself
    assert {"end", "ends", "ending"} <= SAME_WORD["ended"]


@pytest.mark.parametrize(("fact", "sentence"), [
    ("Aspirin reduces the risk of heart attack.", "Aspirin increases the risk of heart attack."),
    ("The Amazon is the largest rainforest in the world.",
     "The Amazon is the smallest rainforest in the world."),
    ("Everest is the highest mountain on Earth.", "Everest is the lowest mountain on Earth."),
    ("The bill passed the Senate.", "The bill failed in the Senate."),
    ("The defendant was acquitted of all charges.",
     "The defendant was convicted of all charges."),
    ("Smoking is allowed in the park.", "Smoking is prohibited in the park."),
    ("The patient survived the surgery.", "The patient died during the surgery."),
    ("Revenue increased by 5% in 2023.", "Revenue fell by 5% in 2023."),
    ("The vaccine is effective against the Delta variant.",
     "The vaccine is ineffective against the Delta variant."),
    ("The claim is relevant to the case.", "The claim is irrelevant to the case."),
    ("Most patients recovered within a week.", "Few patients recovered within a week."),
    ("The country ran a trade surplus in 2020.", "The country ran a trade deficit in 2020."),
    ("The party gained 12 seats in the election.", "The party lost 12 seats in the election."),
    ("The Nile is longer than the Amazon.", "The Nile is shorter than the Amazon."),
    ("The vaccine is approved for children.", "The vaccine is approved for adults."),
    ("The central bank kept interest rates unchanged in March.",
     "The central bank raised interest rates in March."),
    # one side of a fact that holds both turned: the opposite said more often than the fact
    ("Net income fell to $610 million as the company increased spending.",
     "Net income rose to $610 million as the company increased spending."),
    ("Arsenal beat Manchester United 3-1 on Saturday.",
     "Arsenal lost to Manchester United 3-1 on Saturday."),
    ("The Senate rejected the treaty in 1920.", "The Senate ratified the treaty in 1920."),
    ("City finished five points ahead of Arsenal.", "City finished five points behind Arsenal."),
    ("Sales grew more slowly than costs last year.",
     "Sales grew more quickly than costs last year."),
    ("The price is $24,000, up from $22,500.", "The price is $24,000, down from $22,500."),
    # a short alternative after "or" belongs to the clause
    ("The discount applies to people aged 65 or older.",
     "The discount applies to people aged 65 or younger."),
    ("The volcano is dormant.", "The volcano is active."),
    # "up" / "down" before a number give a change's direction
    ("Shares closed down 2% on Friday.", "Shares closed up 2% on Friday."),
])
def test_a_fact_turned_round_in_any_form_is_contradicted(fact: str, sentence: str) -> None:
    found = contradiction(fact, sentence, sentence)
    assert found is not None and found.slot == "antonym", found


@pytest.mark.parametrize(("fact", "sentence", "slot"), [
    ("The museum is closed on Mondays.", "The museum is closed on Sundays.", "weekday"),
    ("The river flows north into the lake.", "The river flows east into the lake.",
     "direction"),
    ("Patients take the drug twice a day.", "Patients take the drug once a day.", "frequency"),
    ("The treaty was signed in June 2001 in Rome.",
     "The treaty was signed in July 2001 in Rome.", "month"),  # with its day: a date
    ("The treaty was signed on 3 June 2001 in Rome.",
     "The treaty was signed on 3 July 2001 in Rome.", "date"),
    ("The team won the title for the first time.", "The team won the title for the second time.",
     "ordinal"),
    # a share of a whole is a number ("half of" is about 50 percent: test_number_forms); a
    # part of a time is a member of the set
    ("Sales rose in the first half of the year.",
     "Sales rose in the first quarter of the year.", "fraction"),
    # one of two "first"s turned: the sentence says the word less often than the fact
    ("She was the first woman to win the prize and the first person to win it twice.",
     "She was the second woman to win the prize and the first person to win it twice.",
     "ordinal"),
])
def test_one_member_of_a_closed_set_for_another_is_contradicted(fact: str, sentence: str,
                                                                slot: str) -> None:
    """The reason names the set ("weekday: mondays → sundays"), not "antonym"."""
    found = contradiction(fact, sentence, sentence)
    assert found is not None and found.slot == slot, found


@pytest.mark.parametrize(("fact", "sentence"), [
    # the same word in another form: "ended" is said by "ends"
    ("Boseman ended his career being an African American icon.",
     "Boseman began his career playing icons; he ends it as one himself."),
    # a fact that holds both sides turns nothing round
    ("SmoothGrad removes noise by adding noise.",
     "SmoothGrad adds noise to inputs many times and averages the maps."),
    # a regular form that means another word: "lasted" is no "last"
    ("The trial lasted two weeks.", "The first trial took two weeks."),
    ("Aspirin reduces the risk of heart attack.", "Aspirin lowers the risk of heart attack."),
    # a Latin prefix that makes no opposite
    ("The painting is valuable to the museum.", "The painting is invaluable to the museum."),
    ("Migrant workers built the stadium.", "Immigrant workers built the stadium."),
    # a sentence that holds the fact's member too, or a fact that holds both
    ("The museum is closed on Mondays.", "The museum is closed on Mondays and Sundays."),
    ("The shop is open from Monday to Friday.", "The shop is open Monday to Friday."),
    # "may" and "march" are verbs as often as months
    ("Prices may rise in 2024 across Europe.", "Prices rise in June 2024 across Europe."),
    ("It was the first time the team won the title.",
     "For the first time, the team won the title in the second half."),
    # the fact's word said too, or "up" / "down" as a particle
    ("Sales were down 5% in May.", "Sales were down 5% in May but up 2% in June."),
    ("He lost weight over the summer.", "He lost weight over the summer but gained muscle."),
    ("A third of voters backed the plan.",
     "A third of voters backed the plan, and half opposed it."),
    ("The firm set up a new office in 2020.",
     "The firm set up a new office in 2020 and shut down 2 plants."),
    # a converse: the sentence tells the fact from the other side
    ("The Nile is longer than the Amazon.", "The Amazon is shorter than the Nile."),
    ("Labour gained 12 seats from the Conservatives.",
     "The Conservatives lost 12 seats to Labour."),
    ("Bayern Munich won the final.", "They reached the final but lost to Bayern Munich."),
    ("Arsenal beat Manchester United 3-1 on Saturday.",
     "Manchester United lost 3-1 to Arsenal on Saturday."),
    # a passive of winning is a loss ("was beaten" = "lost"), and its converse
    ("Fischer lost the first game.", "In the first game Fischer was beaten by Spassky."),
    ("Fischer was beaten in the first game.", "Fischer lost the first game of the match."),
    ("Fischer was beaten by Spassky in the first game.",
     "Spassky beat Fischer in the first game."),
])
def test_the_same_word_or_both_sides_are_no_conflict(fact: str, sentence: str) -> None:
    assert contradiction(fact, sentence, sentence) is None


@pytest.mark.parametrize(("fact", "sentence", "expected"), [
    # a fact of two content words turns on its opposite where its other word is there
    ("The soup was hot.", "The soup was cold.", "antonym"),
    ("The kiss was hot.", "She shared a cold kiss with him.", "antonym"),
    ("The bill passed.", "The bill failed.", "antonym"),
    # its other word missing: another subject, nothing turned round
    ("The soup was hot.", "The tea was cold.", None),
    # a closed set's member needs more of the fact: a day can date another event
    ("The performance was on Wednesday.",
     "Tragedy struck on Thursday night at the school's performance.", None),
])
def test_a_fact_of_two_content_words_turns_on_its_opposite(fact: str, sentence: str,
                                                           expected: str | None) -> None:
    found = contradiction(fact, sentence, sentence)
    assert (found.slot if found else None) == expected, found


def test_the_latin_prefix_turns_adjectives_as_english_spells_it() -> None:
    assert latin_opposites("possible") == {"impossible"}
    assert latin_opposites("logical") == {"illogical"} and "logical" in latin_opposites(
        "illogical")
    assert latin_opposites("relevant") == {"irrelevant"}
    assert latin_opposites("effective") == {"ineffective"}
    # no adjective ending, too short, or a word the prefix makes no opposite of
    assert not latin_opposites("come") | latin_opposites("income") | latin_opposites("form")
    assert not latin_opposites("invaluable") | latin_opposites("valuable")
    assert "possible" not in latin_opposites("inpossible")  # "im" before p, not "in"


@pytest.mark.parametrize(("fact", "sentence", "said"), [
    # the passive of winning read as a loss finds the opposite of a loss, quoted as written
    ("Fischer was beaten in the first game.", "Fischer won the first game.", "won"),
    ("Fischer was beaten in the first game.", "Fischer beat Spassky in the first game.",
     "beat"),
    ("Fischer lost the first game.", "In the first game, Fischer beat Spassky.", "beat"),
])
def test_a_passive_loss_against_a_win_is_contradicted(fact: str, sentence: str,
                                                      said: str) -> None:
    found = contradiction(fact, sentence, sentence)
    assert found is not None and found.slot == "antonym" and found.response_value == said, found
