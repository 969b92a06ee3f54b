"""A number in any of its common spellings is one value: for the evidence that a fact is
stated and for the contradiction check alike (factgraph.stages.number_forms)."""

from __future__ import annotations

import logging
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from factgraph.stages.context_facts import content_words
from factgraph.stages.contradiction import contradiction
from factgraph.stages.fact_evidence import ResponseIndex, fact_evidence
from factgraph.stages.number_forms import numbers_as_values, other_readings, readable_number
from factgraph.stages.quantities import equal_quantities, stated_quantities


@pytest.mark.parametrize(("written", "value"), [
    ("1,200,000 viewers", "1200000 viewers"),
    ("1.2 million viewers", "1200000 viewers"),
    ("$1.2m", "$1200000"),
    ("£60million", "£60000000"),
    ("# 60million", "# 60000000"),  # CNN/DailyMail's pound sign
    ("60 000 fans", "60000 fans"),
    ("60\u202f000 fans", "60000 fans"),
    ("sixty thousand fans", "60000 fans"),
    ("sixty-five thousand", "65000"),
    ("fifteen hundred", "1500"),
    ("two hundred thousand", "200000"),
    ("a million", "1000000"),
    ("$2,500 million", "$2500000000"),
    ("2.5 thousand million", "2500000000"),
    ("2 to 3 million", "2000000 to 3000000"),
    ("8.3M people", "8300000 people"),
    ("7B parameters", "7000000000 parameters"),
    ("5 mln", "5000000"),
    ("5.0%", "5%"),
    ("1,234.56", "1234.56"),
    ("27 , 000 times", "27000 times"),
    ("a 3.2-million-year-old fossil", "a 3200000-year-old fossil"),
    ("the 175-billion-parameter model", "the 175000000000-parameter model"),
])
def test_a_spelling_reads_as_its_value(written: str, value: str) -> None:
    assert numbers_as_values(written) == value


@pytest.mark.parametrize("kept", [
    "In 2010, 500 people", "In 2016, 2017 and 2018", "May 12 300 people marched",
    "the GPT-3 175 model", "an A4 210 mm sheet",
    "3.10", "1.0.2", "1,2,3", "a 60m sprint", "1.75m tall", "4K video",
])
def test_what_is_no_spelling_of_one_number_stays(kept: str) -> None:
    assert numbers_as_values(kept) == kept


def test_a_marked_magnitude_says_what_kind_of_figure_it_is_and_reads_once() -> None:
    marked = numbers_as_values("a deal worth £49million and 2.1 billion", mark_magnitudes=True)
    assert marked == "a deal worth £49000000 millions and 2100000000 billions"
    assert numbers_as_values(marked, mark_magnitudes=True) == marked
    assert numbers_as_values(marked) == marked


def test_a_spelling_that_reads_two_ways_gives_its_second_reading() -> None:
    assert other_readings("1.2m viewers and 60k fans") == {"1200000", "60000"}
    assert other_readings("60.000 fans") == {"60000"}
    assert other_readings("$1.2m and 60 fans") == set()


def test_a_value_is_shown_as_a_reader_writes_it() -> None:
    assert [readable_number(v) for v in ("2500000000", "1200000", "1234567", "60000", "1986",
                                          "3.5")] == [
        "2.5 billion", "1.2 million", "1,234,567", "60,000", "1986", "3.5"]


_SPELLINGS = [
    lambda n: f"{n:,}",
    lambda n: f"{n:,}".replace(",", " "),
    lambda n: str(n),
    lambda n: f"{n / 10**6:.15g} million" if n % 10**5 == 0 else str(n),
    lambda n: f"{n / 10**3:.15g} thousand" if n % 100 == 0 else str(n),
    lambda n: f"${n / 10**6:.15g}m" if n % 10**5 == 0 else f"${n}",
]


@settings(max_examples=80, deadline=None)
@given(st.integers(min_value=1, max_value=999) .map(lambda k: k * 10**5)
       | st.integers(min_value=1000, max_value=10**9), st.sampled_from(range(len(_SPELLINGS))))
def test_every_spelling_of_a_number_reads_as_the_number(n: int, spelling: int) -> None:
    written = _SPELLINGS[spelling](n)
    read = numbers_as_values(f"It cost {written} in all.")
    got = read.removeprefix("It cost ").removesuffix(" in all.").lstrip("$")
    assert Decimal(got) == n, (written, read)


@pytest.mark.parametrize(("fact", "said"), [
    ("The match drew 1.2 million viewers.", "The match drew 1,200,000 viewers."),
    ("The match drew 1,200,000 viewers.", "The match drew 1.2 million viewers."),
    ("The match drew 1.2 million viewers.", "The match drew 1.2m viewers."),
    ("The stadium holds 60,000 fans.", "The stadium holds 60 000 fans."),
    ("The stadium holds 60,000 fans.", "The stadium holds 60.000 fans."),
    ("The stadium holds 60,000 fans.", "The stadium holds sixty thousand fans."),
    ("The firm earned $2.5 billion.", "The firm earned $2,500 million."),
    ("The population is 8.3 million.", "The population is 8,300,000."),
    ("Inflation was 5% in May.", "Inflation stood at 5.0% in May."),
    ("The town has 1,500 residents.", "The town has fifteen hundred residents."),
])
def test_a_fact_written_with_another_spelling_of_its_number_is_stated(fact: str,
                                                                      said: str) -> None:
    # before: "1.2 million" / "1,200,000", "60 000" and "sixty thousand" were shown as
    # contradicting the fact, "1,500" / "1500" and "8.3 million" / "8,300,000" left it missing
    assert contradiction(fact, said, said) is None
    ev = fact_evidence(fact, ResponseIndex.of([said]))
    assert ev.numbers_missing == 0.0 and ev.sentence_share == 1.0, ev


@pytest.mark.parametrize(("fact", "said", "shown"), [
    ("The match drew 1.2 million viewers.", "The match drew 1,500,000 viewers.",
     ("1.2 million", "1.5 million viewers")),
    ("The firm earned $2.5 billion.", "The firm earned $2.5 million.",
     ("2.5 billion", "2.5 million")),
    ("The stadium holds 60,000 fans.", "The stadium holds seventy thousand fans.",
     ("60,000 fans", "70,000")),  # "seventy thousand": a figure in thousands
    ("Danilo agreed to join for 23 million.", "Danilo will join in a deal worth £49million.",
     ("23 million", "49 million")),
])
def test_another_value_in_any_spelling_is_still_a_contradiction(
        fact: str, said: str, shown: tuple[str, str]) -> None:
    found = contradiction(fact, said, said)
    assert found is not None and found.slot == "number", found
    assert (found.fact_value, found.response_value) == shown


def test_content_words_read_numbers_as_values_or_as_written() -> None:
    assert content_words("It cost £1.2m, up 5.0%.") == ["cost", "1200000", "5", "percent"]
    assert content_words("up 5 per cent") == content_words("up 5%")
    assert content_words("It cost £1.2m, up 5.0%.", values=False) == ["cost", "1.2", "5.0"]


@pytest.mark.parametrize(("fact", "said"), [
    ("The temperature fell to -10 °C.", "The temperature fell to 14 °F."),
    ("The temperature fell to -10 °C.", "The temperature fell to minus 10 degrees Celsius."),
    ("The patient took 500 mg twice a day.", "The patient took 0.5 g twice a day."),
    ("The file is 2 MB.", "The file is 2,048 KB."),
    ("The file is 2 MB.", "The file is 2,000 KB."),
    ("The phone has 8 GB of memory.", "The phone has 8GB of memory."),
    ("Version 2.15.0 added the flag.", "Version 2.15.0 added the flag in 2 MB."),
])
def test_one_quantity_in_other_units_or_spellings_is_no_contradiction(fact: str,
                                                                     said: str) -> None:
    # each was shown contradicted: the minus sign was dropped (10 °C is 50 °F), a unit of
    # one letter was not read ("0.5 g" measured "twice"), a megabyte is 1,000 or 1,024 KB
    assert contradiction(fact, said, said) is None


@pytest.mark.parametrize(("fact", "said", "shown"), [
    ("The temperature fell to -10 °C.", "The temperature fell to 10 °C.", ("-10 °C", "10 °C")),
    ("The phone has 8 GB of memory.", "The phone has 16GB of memory.", ("8 gb", "16 gb")),
    ("The patient took 500 mg twice a day.", "The patient took 5 g twice a day.",
     ("500 mg", "5 g")),
    ("The file is 2 MB.", "The file is 3 MB.", ("2 mb", "3 mb")),
])
def test_another_quantity_is_still_a_contradiction(fact: str, said: str,
                                                   shown: tuple[str, str]) -> None:
    found = contradiction(fact, said, said)
    assert found is not None and (found.fact_value, found.response_value) == shown


def test_a_unit_written_onto_its_number_stands_apart() -> None:
    assert content_words("8GB of memory and a 10km run, 500mg twice") == [
        "8", "memory", "10", "run", "500", "twice"]
    assert content_words("the 1990s and 4K video") == ["1990s", "video"]


@pytest.mark.parametrize(("fact", "said"), [
    ("The bridge is 1,280 metres long.", "The bridge is 1.28 km long."),
    ("The bridge is 1,280 metres long.", "The bridge is 4,200 feet long."),
    ("The project took 2 weeks.", "The project took 14 days."),
    ("The film runs 2 hours.", "The film runs 120 minutes."),
    ("The car weighs 1.5 tonnes.", "The car weighs 1,500 kg."),
    ("The river is 100 miles long.", "The river is about 161 km long."),
])
def test_a_quantity_in_another_unit_states_the_fact_s_number(fact: str, said: str) -> None:
    # each read "numbers missing 1.00" and P about 0.3: missing, though no conflict was shown
    ev = fact_evidence(fact, ResponseIndex.of([said]))
    assert ev.numbers_missing == 0.0 and ev.sentence_share == 1.0, ev
    assert contradiction(fact, said, said) is None
    other = said.replace("1.28", "1.5").replace("14", "20").replace("120", "90").replace(
        "1,500", "2,500").replace("161", "250").replace("4,200", "5,000")
    assert fact_evidence(fact, ResponseIndex.of([other])).numbers_missing == 1.0
    found = contradiction(fact, other, other)
    assert found is not None and found.slot == "number", (other, found)


def test_only_units_of_one_measure_are_compared() -> None:
    assert stated_quantities("It is 5 km long, took 2 hours, reached -10 °C, in 2020.") == [
        ("5", 5.0, "km"), ("2", 2.0, "hours"), ("10", -10.0, "degc")]
    assert equal_quantities(2.0, "weeks", 14.0, "days") is True
    assert equal_quantities(2.0, "weeks", 15.0, "days") is False
    assert equal_quantities(5.0, "km", 5.0, "kg") is None


@pytest.mark.parametrize(("written", "value"), [
    ("three thousand four hundred seats", "3400 seats"),
    ("two million five hundred thousand", "2500000"),
    ("a thousand and one nights", "1001 nights"),
    ("two thousand and twenty-six", "2026"),
    ("one point five billion dollars", "1500000000 dollars"),
    ("in nine point five eight seconds", "in 9.58 seconds"),
    ("costs four dollars and fifty cents", "costs $4.50"),
    ("about 3 × 10^8 metres", "about 300000000 metres"),
    ("1.5 x 10⁸ km", "150000000 km"),
    ("cut by 50 basis points", "cut by 0.5 percentage points"),
    ("lasts a fortnight", "lasts 2 weeks"),
    ("a baker's dozen of rolls", "13 rolls"),
    ("the Eighteenth Amendment", "the 18th Amendment"),
    ("Toyota's fifth-generation Prius", "Toyota's 5th-generation Prius"),
    ("profits in Q4 2022", "profits in 4th quarter 2022"),
])
def test_numbers_written_out_in_several_words_read_as_their_value(written: str,
                                                                  value: str) -> None:
    # each read as separate words before, so "3,400" / "three thousand four hundred" was a
    # contradiction (3 and 400 against 3400)
    assert numbers_as_values(written) == value


@pytest.mark.parametrize("text", [
    "two and three", "at one point two men left", "one fifth", "the Audi Q3 is",
    "two hundred thousand", "the second half", "a third of voters", "the twenty-fifth year",
])
def test_words_that_are_no_spelled_number_stay_as_they_are(text: str) -> None:
    assert numbers_as_values(text) == numbers_as_values(text, mark_magnitudes=False)
    assert "point" not in text or numbers_as_values(text) == text
    if text in ("two and three", "one fifth", "the Audi Q3 is", "the second half",
                "the twenty-fifth year"):
        assert numbers_as_values(text) == text


@pytest.mark.parametrize(("fact", "said"), [
    ("The stand added 3,400 seats in 2015.", "In 2015 the stand added three thousand four "
     "hundred seats."),
    ("Revenue was $1.5 billion in 2022.", "Revenue was one point five billion dollars in 2022."),
    ("A flat white costs $4.50.", "A flat white costs four dollars and fifty cents."),
    ("The laptop comes with a 2 TB drive.", "The laptop comes with a 2,000 GB drive."),
    ("The farm covers 100 hectares of land.", "The farm covers 1 square kilometre of land."),
    ("The motor produces 150 kilowatts of power.", "The motor produces about 201 horsepower "
     "of power."),
    ("The network runs at 2.4 GHz.", "The network runs at 2,400 MHz."),
    ("The tyres take 2.2 bar.", "The tyres take 220 kPa."),
    ("The patient received 250 micrograms of digoxin.", "The patient received 0.25 mg of "
     "digoxin."),
    ("The patrol assembled at 0600 hours.", "The patrol assembled at 6 a.m."),
    ("The count was 11 × 10^9 per litre.", "The count was 11,000 per microlitre."),
])
def test_one_value_in_other_forms_is_stated_and_not_contradicted(fact: str, said: str) -> None:
    # each was shown contradicted or counted missing by the judge as written by a helper
    # that never saw the code (benchmarks/data/form_probe.json, set blind-forms-4)
    assert contradiction(fact, said, said) is None
    if "per litre" not in fact:  # a rate per another unit: no conflict, not read as stated
        ev = fact_evidence(fact, ResponseIndex.of([said]))
        assert ev.numbers_missing == 0.0, ev


@pytest.mark.parametrize(("fact", "said", "slot"), [
    ("The laptop comes with a 2 TB drive.", "The laptop comes with a 200 GB drive.", "number"),
    ("The fibre delivers 100 megabits per second.", "The fibre delivers 100 megabytes per "
     "second.", "number"),
    ("The bank cut its rate by 50 basis points.", "The bank cut its rate by a quarter of a "
     "percentage point.", "number"),
    ("The contract was signed on 4 July 2021.", "The contract was signed on 2021-04-07.",
     "date"),
    ("Caesar crossed the Rubicon with his legion in 49 BC.", "Caesar crossed the Rubicon "
     "with his legion in AD 49.", "date"),
    ("The retailer posted record profits in the third quarter of 2022.", "The retailer "
     "posted record profits in Q4 2022.", "number"),
    ("The 19th Amendment gave women the vote.", "The Eighteenth Amendment gave women the "
     "vote.", "number"),
    ("The festival lasts a fortnight each year.", "The festival lasts ten days each year.",
     "number"),
    ("The bakery sells a baker's dozen of rolls for five dollars.", "The bakery sells 12 "
     "rolls for five dollars.", "number"),
    ("The chip runs at 3.2 GHz.", "The chip runs at 320 MHz.", "number"),
])
def test_another_value_in_another_form_is_a_contradiction(fact: str, said: str,
                                                         slot: str) -> None:
    found = contradiction(fact, said, said)
    assert found is not None and found.slot == slot, found


def test_a_date_sharing_only_its_year_dates_another_event_unless_the_fact_is_all_there(
        ) -> None:
    assert contradiction("The law passed on 3 May 2020.", "The law took effect on 1 June "
                         "2020.", "The law took effect on 1 June 2020.") is None
    found = contradiction("The law passed on 3 May 2020.", "The law passed on 1 June 2020.",
                          "The law passed on 1 June 2020.")
    assert found is not None and found.slot == "date"


def test_a_year_in_its_own_era_written_otherwise_is_no_conflict() -> None:
    assert contradiction("Caesar crossed the Rubicon in 49 BC.", "Caesar crossed the "
                         "Rubicon in 49 BCE.", "Caesar crossed the Rubicon in 49 BCE.") is None


def test_a_word_pint_reads_as_several_units_is_read_quietly(
        caplog: pytest.LogCaptureFixture) -> None:
    # "amps" is attometres per second or amperes to pint, which warned on every such word of
    # running text (a long answer on induction hobs printed it to the user)
    with caplog.at_level(logging.WARNING):
        assert equal_quantities(40.0, "amps", 50.0, "amps") is False
    assert not [r for r in caplog.records if "multiple results" in r.getMessage()]
