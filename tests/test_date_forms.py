"""A date, a time of day, a century, a decade or a fraction in any of its common spellings is one
value: for the evidence that a fact is stated and for the contradiction check alike
(factgraph.stages.date_forms, number_forms.fractions_as_values)."""

from __future__ import annotations

import pytest

import factgraph
from factgraph.stages.contradiction import contradiction
from factgraph.stages.date_forms import calendar_as_values, shown_time, times_of_day
from factgraph.stages.fact_evidence import ResponseIndex, fact_evidence
from factgraph.stages.number_forms import fractions_as_values, numbers_as_values
from factgraph.stages.text_units import split_statements


@pytest.mark.parametrize(("written", "read"), [
    ("at 9:30 pm", "at 21.5 oclock"),
    ("at 9.30pm", "at 21.5 oclock"),
    ("at 3:00 p.m.", "at 15 oclock"),
    ("at 21:30", "at 21.5 oclock"),
    ("15:00 GMT", "15 oclock GMT"),
    ("at noon", "at 12 oclock"),
    ("at half past five in the morning", "at 5.5 oclock"),
    ("at a quarter to nine in the evening", "at 20.75 oclock"),
    ("at eleven at night", "at 23 oclock"),
    ("the 1st century CE", "the 1st century AD"),
    ("on 1986-04-26", "on 26 April 1986"),
    ("on 26/04/1986", "on 26 April 1986"),
    ("on 04/26/1986", "on 26 April 1986"),
    ("on Apr. 26, 1986", "on April 26, 1986"),
    ("in Sept 1939", "in September 1939"),
    ("the twelfth century", "the 12th century"),
    ("the twenty-first century", "the 21st century"),
    ("the 1100s", "the 12th century"),
    ("the nineties", "the 1990s"),
    ("the '90s", "the 1990s"),
    ("the eighteen-nineties", "the 1890s"),
    ("1914-18", "1914-1918"),
])
def test_a_date_or_time_reads_as_one_form(written: str, read: str) -> None:
    assert calendar_as_values(written) == read


@pytest.mark.parametrize("kept", [
    "won 3:1", "John 3:16 says", "on 03/04/1986",  # a score, a verse, a date read two ways
    "in their 20s", "in her forties",  # ages
    "the 2000s",  # a decade, not the 21st century
    "Daullé (18 May 1703 – 23 April 1763)",  # a year, then a day: no range "1703-1723"
])
def test_what_is_no_date_or_time_stays_as_written(kept: str) -> None:
    assert calendar_as_values(kept) == kept


@pytest.mark.parametrize(("written", "read"), [
    ("Half a million people", "500000 people"),
    ("one and a half million", "1500000"),
    ("two and a half hours", "2.5 hours"),
    ("a year and a half", "1.5 years"),
    ("half an hour", "0.5 hour"),
    ("a quarter of a mile", "0.25 mile"),
    ("1½ million", "1500000"),
    ("a dozen engineers", "12 engineers"),
    ("half a dozen eggs", "6 eggs"),
    ("Half of the voters", "about 50 percent of the voters"),
    ("Two-thirds of the members", "about 67 percent of the members"),
    ("Nine out of ten dentists", "about 90 percent of dentists"),
    ("two in five patients", "about 40 percent of patients"),
    ("lasts for a decade", "lasts for 10 years"),
    ("a quarter of the students", "about 25 percent of the students"),
])
def test_a_fraction_reads_as_its_value(written: str, read: str) -> None:
    assert numbers_as_values(written) == read


@pytest.mark.parametrize("kept", [
    "the second half of the season", "the northern half of the country",
    "the first quarter of 2020", "dozens of people", "cut in half", "his third of five",
    "won 5 in 2020 games", "a decade ago",
])
def test_a_half_that_is_a_part_of_a_time_or_a_place_stays(kept: str) -> None:
    assert fractions_as_values(kept) == kept


@pytest.mark.parametrize(("fact", "said"), [
    ("The explosion happened on April 26, 1986.", "The explosion happened on 1986-04-26."),
    ("The explosion happened on April 26, 1986.", "The explosion happened on 26/04/1986."),
    ("The explosion happened on April 26, 1986.", "The explosion happened on Apr. 26, 1986."),
    ("The shop closes at 9:30 pm.", "The shop closes at 21:30."),
    ("The meeting starts at 3 pm.", "The meeting starts at 15:00."),
    ("The castle was built in the 12th century.", "The castle was built in the 1100s."),
    ("The band was popular in the 1990s.", "The band was popular in the nineties."),
    ("The war lasted from 1914 to 1918.", "The war lasted 1914-18."),
    ("Half of the voters supported the plan.", "50% of the voters supported the plan."),
    ("Half a million people attended.", "500,000 people attended."),
    ("The trial lasted 18 months.", "The trial lasted a year and a half."),
    ("The company employs 12 engineers.", "The company employs a dozen engineers."),
    ("Inflation rose by 3 percent.", "Inflation rose by three per cent."),
    ("The patient stayed in the hospital for two weeks.",
     "The patient stayed in the hospital for 14 days."),
    ("The Colosseum was completed in the first century AD.",
     "The Colosseum was completed in the 1st century CE."),
    ("The bakery opens at half past five in the morning.", "The bakery opens at 5:30 am."),
])
def test_a_fact_written_with_another_form_of_its_date_or_fraction_is_stated(
        fact: str, said: str) -> None:
    # before: "21:30" was shown contradicting "9:30 pm", "a year and a half", "half a
    # million" and "the 1100s" left their facts missing, "1986-04-26" read P 0.68
    assert contradiction(fact, said, said) is None
    ev = fact_evidence(fact, ResponseIndex.of([said]))
    assert ev.sentence_share == 1.0 and ev.numbers_missing == 0.0, ev


@pytest.mark.parametrize(("fact", "said", "shown"), [
    ("The meeting starts at 3 pm.", "The meeting starts at 16:00.", ("15:00", "16:00")),
    ("The shop closes at 9:30 pm.", "The shop closes at 9:30 am.", ("21:30", "09:30")),
    ("The castle was built in the 12th century.",
     "The castle was built in the thirteenth century.",
     ("the 12th century", "the 13th century")),
    ("The band was popular in the 1990s.", "The band was popular in the eighties.",
     ("the 1990s", "the 1980s")),

    ("Half of the voters supported the plan.", "30% of the voters supported the plan.",
     ("50 percent", "30 percent")),
    ("A quarter of the students failed.", "A third of the students failed.",
     ("25 percent", "33 percent")),
    ("Half a million people attended.", "A million people attended.",
     ("500,000", "1 million")),
    ("The roof warranty lasts for a decade.", "The roof warranty lasts for 5 years.",
     ("10 years", "5 years")),
    ("The author received an advance of £50,000.",
     "The author received an advance of fifteen thousand pounds.", ("50,000 pounds", "15,000")),
    ("Three in four employees work remotely.", "Forty percent of employees work remotely.",
     ("75 percent", "40 percent")),
])
def test_another_date_time_or_share_is_still_a_contradiction(
        fact: str, said: str, shown: tuple[str, str]) -> None:
    # before: "the thirteenth century", "the eighties", "16:00" and "30%" all covered the
    # fact they changed, and "a million" covered "half a million" (P 0.80)
    found = contradiction(fact, said, said)
    slot = "time" if ":" in shown[0] else "number"  # a time's reason says "time: 15:00 → 16:00"
    assert found is not None and found.slot == slot, found
    assert (found.fact_value, found.response_value) == shown


@pytest.mark.parametrize(("fact", "said", "shown"), [
    ("The explosion happened on April 26, 1986.", "The explosion happened on 1986-04-27.",
     ("26 April 1986", "27 April 1986")),
    # the month changed, the day kept: no one number changed its slot ("May" is no name)
    ("The trade agreement took effect on 1 May 1999.",
     "The trade agreement took effect on June 1, 1999.", ("1 May 1999", "1 June 1999")),
    ("The folk festival begins on the 3rd of July.", "The folk festival begins on July 30th.",
     ("3 July", "30 July")),
])
def test_another_date_is_shown_as_dates(fact: str, said: str, shown: tuple[str, str]) -> None:
    found = contradiction(fact, said, said)
    assert found is not None and found.slot == "date", found
    assert (found.fact_value, found.response_value) == shown
    assert contradiction(fact, fact, fact) is None


def test_a_date_that_shares_only_the_year_dates_another_event() -> None:
    said = "The law, passed in 2020, took effect on 1 June 2020."
    assert contradiction("The law was passed on 3 May 2020.", said, said) is None


def test_a_time_is_shown_on_the_24_hour_clock() -> None:
    assert [shown_time(v) for v in ("21.5", "0", "7.3333")] == ["21:30", "00:00", "07:20"]


@pytest.mark.parametrize(("fact", "said"), [
    ("Nearly half of adults are overweight.", "48% of adults are overweight."),
    ("The ticket cost about $50.", "The ticket cost $52."),
    ("About 1.2 million people attended.", "Some 1,150,000 people attended."),
])
def test_a_round_figure_agrees_with_a_close_value(fact: str, said: str) -> None:
    # a round figure is read on the values: "about $50" was no bound where the sign stood
    # between the word and the number, "about 1.2 million" none once read as 1200000
    assert contradiction(fact, said, said) is None
    far = said.replace("48%", "30%").replace("$52", "$80").replace("1,150,000", "900,000")
    assert contradiction(fact, far, far) is not None


def test_a_date_s_name_is_swapped_only_for_another_date() -> None:
    said = "The law took effect on New Year's Day 2020."
    assert contradiction("The law took effect on January 1, 2020.", said, said) is None
    other = "The law took effect in March 2020."
    found = contradiction("The law took effect in January 2020.", other, other)
    assert found is not None and (found.fact_value, found.response_value) == (
        "january", "march")


def test_no_statement_is_cut_inside_a_time_or_a_half() -> None:
    pieces = split_statements("He was found near the campus at around 10:30 am on March 18. "
                              "In 1993 he was sentenced to six and a half years in prison "
                              "but was released after four years.")
    assert not any(p.startswith(("30 am", "A half")) for p in pieces), pieces
    assert any("six and a half years in prison" in p for p in pieces), pieces


def test_the_reason_of_a_changed_time_shows_both_times() -> None:
    ev = factgraph.evaluate("q", "The shop closes at 22:00.", facts=["The shop closes at 9:30 pm."],
                            judge="e2e-evidence")
    (relation,) = [r for r in ev.graph.relations if r.label.value == "contradicts"]
    assert relation.metadata["conflict"] == {"slot": "time", "fact": "21:30",
                                             "response": "22:00"}


@pytest.mark.parametrize(("fact", "said"), [
    ("The band was formed in Bombay.", "The band was formed in Mumbai."),
    ("The treaty was signed in Constantinople.", "The treaty was signed in Istanbul."),
])
def test_a_place_under_its_former_name_is_the_same_place(fact: str, said: str) -> None:
    # "Bombay" / "Mumbai" was shown as another name, and missing (P 0.3)
    assert contradiction(fact, said, said) is None
    assert fact_evidence(fact, ResponseIndex.of([said])).sentence_share == 1.0


def test_a_decade_or_a_century_is_no_length_of_time() -> None:
    # "the 1990s" reads "1990 decade": once "decade" was a unit of time, "sentenced for 7
    # years" was shown contradicted by "fled to Britain in the 1990s" (a REALSumm summary)
    said = ("domenico rancadore fled to britain in the 1990s and was convicted in his "
            "absence in italy .")
    assert contradiction("Domenico Rancadore sentenced for 7 years.", said, said) is None
    said = "The castle stood for 7 years after it was built in the 12th century."
    assert contradiction("The castle was built in the 12th century.", said, said) is None


@pytest.mark.parametrize(("fact", "said"), [
    # found by blind-forms-2 and -3 (written by agents that never saw the code): each was
    # shown contradicted or left missing
    ("The hospital treated 1,250 patients.", "The hospital treated twelve hundred and fifty "
                                             "patients."),
    ("The shares rose 12.5% on Monday.", "The shares rose twelve and a half percent on Monday."),
    ("Ruth Bader Ginsburg joined the Supreme Court in 1993.",
     "Justice Ginsburg joined the Supreme Court in 1993."),
    ("Gordon Ramsay opened his first restaurant in 1998.",
     "Chef Ramsay opened his first restaurant in 1998."),
    ("The climate summit was held in the United Kingdom.",
     "The climate summit was held in the UK."),
    ("John F. Kennedy visited West Berlin in 1963.", "JFK visited West Berlin in 1963."),
    ("The solar eclipse peaked at 2:15 in the afternoon.", "The solar eclipse peaked at 14:15."),
])
def test_a_number_a_title_or_initials_in_another_form_is_no_contradiction(
        fact: str, said: str) -> None:
    assert contradiction(fact, said, said) is None


@pytest.mark.parametrize(("fact", "said"), [
    ("The coach named 23 players for the tournament.",
     "The coach named twenty-six players for the tournament."),
    ("The bank cut its rate by half a percentage point.",
     "The bank cut its rate by 0.25 percentage points."),
    ("John F. Kennedy visited West Berlin in 1963.", "LBJ visited West Berlin in 1963."),
    ("The solar eclipse peaked at 2:15 in the afternoon.", "The solar eclipse peaked at 15:15."),
])
def test_another_value_or_person_in_those_forms_is_still_caught(fact: str, said: str) -> None:
    assert contradiction(fact, said, said) is not None


def test_a_title_is_no_name_but_a_surname_that_is_one_stays() -> None:
    from factgraph.stages.fact_evidence import names

    assert "justice" not in names("In 1993 Justice Ginsburg joined the court.")
    assert "bishop" in names("The coach praised Abby Bishop after the game.")


@pytest.mark.parametrize(("written", "value"), [
    ("assemble at 0600 hours", "assemble at 6 oclock"),
    ("at 1430 hours", "at 14.5 oclock"),
    ("1200 hours of footage", "1200 hours of footage"),  # a count of hours, no time
])
def test_a_military_time_is_a_time_of_day_where_it_reads_as_one(written: str,
                                                               value: str) -> None:
    assert times_of_day(written) == value
