"""The evidence judge's parts: evidence per fact, the contradiction check, the calibration."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from factgraph.stages.context_facts import content_words
from factgraph.stages.contradiction import aligned_clause, contradiction, find_conflict
from factgraph.stages.fact_calibration import fit_logistic, load_calibration
from factgraph.stages.fact_evidence import (
    FEATURES,
    ResponseIndex,
    acronyms,
    distinctiveness,
    fact_evidence,
    feature_vector,
    names,
    nearest_sentences,
    stem,
    stems,
)
from factgraph.stages.text_units import split_sentences

RESPONSE = [
    "The RBMK reactor had a negative void coefficient.",
    "The accident killed 31 firefighters in 1986.",
    "Radiation was first detected abroad at a nuclear plant in Finland.",
    "Anuradha Koirala runs a shelter in Kathmandu.",
]
TEXT = " ".join(RESPONSE)


def test_stems_match_inflections_and_leave_numbers() -> None:
    assert stem("sleeping") == stem("sleeps") == "sleep"
    assert stem("injuries") == "injury"
    assert stem("stopped") == "stop"
    assert stem("1986") == "1986"
    assert stem("class") == "class"
    # a plural or third person in "-es" after a silent "e" is the word ("causes" = "cause");
    # after ch / sh / x / z the "-es" goes whole
    assert stem("causes") == stem("cause") == "cause"
    assert stem("times") == stem("time") and stem("makes") == stem("make")
    assert stem("boxes") == "box" and stem("churches") == "church" and stem("dishes") == "dish"
    assert stem("uses") == "use" and stem("classes") == "class"


def test_names_skip_the_first_word_of_a_sentence() -> None:
    assert names("The storm hit Kathmandu. Then Anuradha Koirala left.") == [
        "kathmandu", "anuradha", "koirala"]


def test_a_title_or_an_abbreviation_is_no_name() -> None:
    assert names("The accident occurred in reactor No. 4 during a safety test.") == []
    assert names("An adviser to Mr Miliband said Dr. Smith had joined the U.S. Army.") == [
        "miliband", "smith", "u.s", "army"]


def test_a_fact_stated_in_one_sentence_beats_its_words_scattered() -> None:
    index = ResponseIndex.of(RESPONSE)
    stated = fact_evidence("Anuradha Koirala runs a shelter in Kathmandu.", index)
    assert stated.sentence == 3
    assert stated.sentence_share == 1.0 and stated.bigram_share == 1.0
    assert stated.names_missing == 0.0
    scattered = fact_evidence("The reactor shelter was detected in Kathmandu.", index)
    assert scattered.word_share == 1.0
    assert scattered.sentence_share < 1.0


def test_missing_numbers_and_names_are_counted() -> None:
    ev = fact_evidence("The accident killed 28 firefighters in Sweden.", ResponseIndex.of(RESPONSE))
    assert ev.numbers_missing == 1.0
    assert ev.names_missing == 1.0


def test_a_fact_written_without_accents_is_stated_by_the_accented_sentence() -> None:
    # FActScore's human facts drop accents their biographies keep ("Jose Sanchez del Rio");
    # before accents were folded, "Sánchez" read as "nchez" and "Río" as nothing
    index = ResponseIndex.of(["José Sánchez del Río (1913-1928) was a Mexican boy.",
                              "He was martyred for his faith in the Cristero War."])
    ev = fact_evidence("Jose Sanchez del Rio was born in 1913.", index)
    assert ev.names_missing == 0.0
    assert ev.sentence == 0
    assert content_words("Sánchez del Río") == ["sanchez", "del", "rio"]
    assert names("He met José Sánchez.") == ["jose", "sanchez"]
    # letters of other scripts are words too (they were dropped), the same word either side
    assert content_words("Η Αθήνα είναι πρωτεύουσα") == ["αθηνα", "ειναι", "πρωτευουσα"]
    greek = fact_evidence("Η Αθήνα είναι πρωτεύουσα.",
                          ResponseIndex.of(["Η Αθηνα ειναι πρωτευουσα."]))
    assert greek.sentence_share == 1.0


def test_a_number_word_before_a_hyphen_is_a_number() -> None:
    # REALSumm: "Domenico Rancadore sentenced for 7 years." against "given a seven-year
    # sentence" was missing (P 0.26): "sevenyear" was one word and no number
    assert content_words("a seven-year sentence") == ["7", "year", "sentence"]
    assert content_words("a seven-year-old girl") == content_words("a 7-year-old girl")
    assert content_words("twenty-one goals") == ["21", "goals"]
    assert content_words("thirty jobs") == ["30", "jobs"]  # a ten alone too
    assert content_words("a non-selective drug") == ["nonselective", "drug"]
    ev = fact_evidence("Rancadore was sentenced for 7 years.",
                       ResponseIndex.of(["Rancadore was given a seven-year sentence."]))
    assert ev.numbers_missing == 0.0 and ev.sentence_share >= 0.75  # "7" and "year" found


def test_a_magnitude_written_onto_its_number_stands_apart() -> None:
    # news text writes "£60million" and "$3bn": the number was part of one word ("60million")
    # or dropped ("7m", two characters), so "a 60 million heist" missed its number
    assert content_words("the £60million heist") == ["60000000", "heist"]
    assert content_words("a $3bn deal and a $7m fee") == ["3000000000", "deal", "7000000", "fee"]
    assert content_words("a 7m wall") == ["7", "wall"]  # no currency: metres, as often
    ev = fact_evidence("The heist was worth 60 million pounds.",
                       ResponseIndex.of(["The £60million heist shocked London."]))
    assert ev.numbers_missing == 0.0
    said = "Thieves took £60million from the vault."
    index = ResponseIndex.of([said])
    assert find_conflict("Thieves took £60 million from the vault.", index, 0, said) is None
    assert find_conflict("Thieves took £40 million from the vault.", index, 0, said) is not None


@settings(max_examples=60, deadline=None)
@given(st.lists(st.text(alphabet="abcdefgh XYZ019.", min_size=1, max_size=60), min_size=1,
                max_size=4),
       st.text(alphabet="abcdefgh XYZ019", min_size=1, max_size=60))
def test_evidence_is_bounded_and_a_sentence_states_itself(sentences: list[str],
                                                          fact: str) -> None:
    index = ResponseIndex.of(sentences)
    ev = fact_evidence(fact, index)
    distinct = distinctiveness([fact, *sentences])
    ev = fact_evidence(fact, index, distinct=distinct)
    for name in (*FEATURES[:6], "distinct_share", "distinct_sentence_share"):
        assert 0.0 <= getattr(ev, name) <= 1.0 + 1e-9
    assert ev.distinct_sentence_share <= ev.distinct_share + 1e-9
    own = fact_evidence(sentences[0], index, distinct=distinct)
    if own.n_words:
        assert own.sentence_share == 1.0
        assert own.distinct_sentence_share == pytest.approx(1.0)
        assert own.numbers_missing == 0.0
    assert feature_vector(ev, ("log_words", "word_share")) == [
        pytest.approx(np.log1p(ev.n_words)), ev.word_share]
    nearest = nearest_sentences(fact, index, 2)
    assert nearest == sorted(nearest) and len(nearest) == min(2, len(sentences)) * bool(
        ev.n_words)


def test_distinctiveness_is_the_inverse_fact_frequency() -> None:
    facts = ["Koirala runs a shelter.", "Koirala won an award.", "Koirala rescued girls."]
    weights = distinctiveness(facts)
    assert weights["koirala"] == pytest.approx(np.log(2.0))  # in every fact
    assert weights["shelter"] == pytest.approx(np.log(4.0))  # in one of three
    # a response naming only the topic states little of a fact about the shelter
    index = ResponseIndex.of(["Koirala is from Nepal."])
    ev = fact_evidence(facts[0], index, distinct=weights)
    assert ev.word_share == pytest.approx(1 / 3)  # koirala of (koirala, run, shelter)
    assert ev.distinct_share == pytest.approx(np.log(2.0) / (np.log(2.0) + 2 * np.log(4.0)))
    # alone, a fact weighs its words alike
    alone = fact_evidence(facts[0], index, distinct=distinctiveness(facts[:1]))
    assert alone.distinct_share == pytest.approx(alone.word_share)


def test_nearest_sentences_are_the_best_aligned_in_response_order() -> None:
    index = ResponseIndex.of(RESPONSE)
    assert nearest_sentences("The accident killed 31 firefighters at the RBMK reactor.",
                             index, 2) == [0, 1]
    assert nearest_sentences("Koirala runs a shelter in Kathmandu.", index, 1) == [3]


@pytest.mark.parametrize(("fact", "slot"), [
    ("The RBMK reactor had a positive void coefficient.", "antonym"),
    ("The RBMK reactor did not have a negative void coefficient.", "negation"),
    ("The accident killed 28 firefighters.", "number"),
    ("Radiation was first detected abroad at a nuclear plant in Sweden.", "name"),
])
def test_a_fact_stated_otherwise_is_contradicted(fact: str, slot: str) -> None:
    index = ResponseIndex.of(RESPONSE)
    ev = fact_evidence(fact, index)
    found = contradiction(fact, RESPONSE[ev.sentence], TEXT)
    assert found is not None and found.slot == slot
    assert slot in found.describe()


@pytest.mark.parametrize("fact", [
    "The RBMK reactor had a negative void coefficient.",
    "The accident killed 31 firefighters.",
    "Koirala runs a shelter in Kathmandu.",  # a shorter name of the same person
    "Radiation was first detected at a plant abroad.",
    "The accident happened in 1987.",  # the rest of the fact is not in the sentence
])
def test_a_fact_stated_or_only_near_is_not_contradicted(fact: str) -> None:
    index = ResponseIndex.of(RESPONSE)
    ev = fact_evidence(fact, index)
    assert contradiction(fact, RESPONSE[ev.sentence], TEXT) is None


def test_a_negating_prefix_is_an_opposite_and_a_title_negates_nothing() -> None:
    found = contradiction("The RBMK reactor was unstable at low power.",
                          "The RBMK reactor was stable at low power.", "")
    assert found is not None and found.slot == "antonym"
    assert "unstable" in found.describe() and "stable" in found.describe()
    # "under" / "unless" oppose nothing: no word of 4+ letters after the prefix
    assert contradiction("The river runs under the old bridge.",
                         "The river runs der the old bridge.", "") is None
    # a capitalised "Don't" inside a sentence is a title's, as "No" is
    fact = "The Petty song tells someone to come back home."
    title = "The Petty song 'Don't Come Back Home' tells someone to come back home."
    assert contradiction(fact, title, title) is None
    found = contradiction(fact, "The Petty song tells someone not to come back home.", "")
    assert found is not None and found.slot == "negation"
    # a negated opposite says the same ("not uncommon" / "common", "closed" / "not open")
    for fact, same in (("The side effect is not uncommon.", "The side effect is fairly common."),
                       ("The museum is closed on Mondays.", "On Mondays the museum is not open.")):
        assert contradiction(fact, same, same) is None
    found = contradiction("The museum is closed on Mondays.", "The museum is open on Mondays.",
                          "")
    assert found is not None and found.slot == "antonym"
    # a place and its people are one name, alone but not inside a longer one
    same = "He began his career with Atletico Paranaense in Brazil before moving to Ukrainian "
    same += "club Shakhtar Donetsk."
    assert contradiction("Atletico Paranaense is a Brazilian club.", same, same) is None
    other = "The Vandermeer Union will fine Google, Europe's largest search engine."
    assert contradiction("The European Union will fine Google.", other, other) is not None
    # a title that opens with a capitalised negator; "rather than" negates; a negator's scope
    # reaches over "or"; a year range whose end has two digits
    same = 'She is known for the TV series "Without a Trace" and "Devious Maids".'
    assert contradiction("Without a Trace is a TV series.", same, same) is None
    same = "Diamond argued that gender identity was determined by nature rather than nurture."
    assert contradiction("Diamond argued that gender identity was not determined by nurture.",
                         same, same) is None
    same = "Memovic played the whole game but did not score any goals or make any assists."
    assert contradiction("Memovic did not make any assists.", same, same) is None
    same = "She played Elena on the police procedural Without a Trace (2005–09)."
    assert contradiction("Without a Trace was on the air from 2005 to 2009.", same,
                         same) is None
    # a fact of several clauses: a clause with a verb is checked on its own for a number,
    # negation or antonym; a noun phrase or a name alone is not
    index = ResponseIndex.of(["The RBMK reactor had a negative void coefficient."])
    fact = "The RBMK reactor had a positive void coefficient, which made it unstable at low power."
    located = find_conflict(fact, index, 0, index.sentences[0])
    assert located is not None and located[1].describe() == \
        "antonym: fact 'positive', response 'negative'"
    sentence = "The answer covers targeted training data extraction attacks on models."
    index = ResponseIndex.of([sentence])
    assert find_conflict("Membership inference attacks and untargeted training data "
                         "extraction.", index, 0, sentence) is None
    # an acronym of part of a name is that name ("The United States" gives "US")
    same = "The US entered the war in 1917."
    assert contradiction("The United States entered the war in 1917.", same, same) is None
    # "is only doubled when stressed" agrees with "is not doubled" under another condition
    said = ("In British English the letter is often doubled, whereas in American English the "
            "letter is only doubled when the syllable is stressed.")
    assert contradiction("If the stress is on the first syllable, the letter is not doubled in "
                         "American English.", said, said) is None
    said = "In American English the letter is doubled when the syllable is stressed."
    found = contradiction("In American English the letter is not doubled when the syllable is "
                          "stressed.", said, said)
    assert found is not None and found.slot == "negation"
    # an acronym in capitals that holds a name's initials is a longer name of the same one
    fact = ("There are several approaches to extend existing Language Models to languages with "
            "limited resources.")
    for acronym, is_same in (("LLMs", True), ("RNNs", False)):
        sentence = (f"The different approaches for extending existing {acronym} to languages "
                    "with limited resources mentioned in the text are:")
        found = contradiction(fact, sentence, sentence)
        assert (found is None) == is_same and (
            is_same or (found is not None and found.slot == "name"))
    # "non-parametric" is the word "nonparametric", not "non" and its opposite
    sentence = "Some language models combine parametric and non-parametric knowledge."
    assert contradiction("Some language models use nonparametric knowledge.", sentence,
                         sentence) is None
    found = contradiction("Some language models use nonparametric knowledge.",
                          "Some language models use parametric knowledge.", "")
    assert found is not None and found.slot == "antonym"


def test_a_negator_reaches_over_or_within_its_clause() -> None:
    """"did not build or open" negates "open" too; a comma ends the reach. The clause that
    states the fact is read as written, so a negator before its "or" reaches a clause of
    several pieces ("… or record assists in the cup, the league")."""
    said = "The company did not build or open a factory in Ohio."
    found = contradiction("The company opened a factory in Ohio.", said, said)
    assert found is not None and found.slot == "negation"
    assert contradiction("The company did not open a factory in Ohio.", said, said) is None
    said = "The company did not build a factory, or open one in Ohio."  # the comma ends it
    assert contradiction("The company opened a factory in Ohio.", said, said) is None
    said = ("Memovic played well, but he did not score any goals or record assists in the "
            "cup, the league or the friendlies.")
    clause = aligned_clause(stems("Memovic records assists in the cup and the league."), said)
    assert clause.text == "record assists in the cup, the league"
    assert said[clause.start:].startswith(clause.text)
    found = contradiction("Memovic records assists in the cup and the league.", said, said)
    assert found is not None and found.slot == "negation"


def test_temperatures_and_currency_signs_are_read_as_units() -> None:
    fact = "Water boils at 100 °C at sea level."
    for same in ("At sea level water boils at 212 °F.", "Water boils at 100 degrees Celsius at "
                 "sea level."):
        assert contradiction(fact, same, same) is None
    found = contradiction(fact, "Water boils at 90 °C at sea level.", "")
    assert found is not None and found.describe() == "number: fact '100 °C', response '90 °C'"
    fact = "In 2024 the contribution limit is $7,000."
    same = "The 2024 contribution limit is 7,000 dollars."
    assert contradiction(fact, same, same) is None
    found = contradiction(fact, "The 2024 limit is 6,500 dollars.", "")
    assert found is not None and (found.fact_value, found.response_value) == (
        "7000 dollars", "6500 dollars")
    # the same quantity in other units is no conflict even in the same slot ("takes …")
    for fact, same, other in (
            ("The flight takes 2 hours.", "The flight takes 120 minutes.",
             "The flight takes 90 minutes."),
            ("The temperature reached 40 °C.", "The temperature reached 104 °F.",
             "The temperature reached 100 °F.")):
        assert contradiction(fact, same, same) is None
        found = contradiction(fact, other, other)
        assert found is not None and found.slot == "number"
    # a scale is written capitalised but names no one: no name conflict, the number check reads it
    fact = "Water boils at 100 degrees Celsius at sea level."
    same = "At sea level water boils at 212 degrees Fahrenheit."
    assert contradiction(fact, same, same) is None


def test_the_same_number_in_another_unit_of_its_kind_is_a_conflict() -> None:
    for fact, other, shown in (
            ("The river is 500 km long.", "The river is 500 miles long.",
             ("500 km", "500 miles")),
            ("Water boils at 100 °C at sea level.", "At sea level water boils at 100 °F.",
             ("100 °C", "100 °F")),
            ("The flight takes 2 hours.", "The flight takes 2 minutes.",
             ("2 hours", "2 minutes"))):
        found = contradiction(fact, other, other)
        assert found is not None and (found.slot, found.fact_value, found.response_value) == (
            "number", *shown)
    # the same quantity in other words, or given in both units, is no conflict
    for same in ("The river is 500 kilometres long.", "The river is 500 km (311 miles) long."):
        assert contradiction("The river is 500 km long.", same, same) is None


def test_a_magnitude_scales_its_number() -> None:
    """"2.1 million" is 2,100,000 and not 2.1 billion; a year or a small bare number is no
    count to compare with it."""
    fact = "The population of the city is 2.1 million."
    for other, shown in (("The population of the city is 2.1 billion.", "2.1 billion"),
                         ("The population of the city is 3,000,000.", "3 million")):
        found = contradiction(fact, other, other)
        assert found is not None and (found.fact_value, found.response_value) == (
            "2.1 million", shown)
    for same in ("The population of the city is 2,100,000.",
                 "The population of the city is 2,100 thousand.",
                 "The population of the city was 2.1 million in 2010, up from 1,500,000."):
        assert contradiction(fact, same, same) is None
    assert content_words("It has 2,100,000 people and 7,000 cars.") == [
        "2100000", "people", "7000", "cars"]


def test_a_number_with_a_fraction_of_zeros_is_the_same_number() -> None:
    fact = "The Bank of Canada raised its rate by 0.25 points to 5.0% on 12 July 2023."
    said = "On July 12, 2023, the Bank of Canada raised its rate by 0.25 points, to 5%."
    assert contradiction(fact, said, said) is None
    assert contradiction(said, fact, fact) is None
    for other in ("5.5%", "6%"):  # another value is still one
        changed = said.replace("5%", other)
        found = contradiction(fact, changed, changed)
        assert found is not None and found.slot == "number", (other, found)
    said = "Python 3.1 removed the module."  # a version given to two places is another
    found = contradiction("Python 3.10 removed the module.", said, said)
    assert found is not None and found.slot == "number", found


def test_quantities_in_other_units_are_compared_by_pint() -> None:
    sentence = "The new bridge over the river is 2 kilometres long."
    assert contradiction("The new bridge over the river is 2000 metres long.", sentence,
                         sentence) is None
    found = contradiction("The new bridge over the river is 900 metres long.", sentence,
                          sentence)
    assert found is not None and found.slot == "number"


def test_an_acronym_is_the_same_name() -> None:
    sentence = "Perturbation methods evaluate the faithfulness of rationales of NLP models."
    fact = "Perturbation methods evaluate the faithfulness of rationales of Natural Language " \
           "Processing models."
    assert contradiction(fact, sentence, sentence) is None


@pytest.mark.parametrize(("fact", "sentence", "slot"), [
    # an age as news text gives it, with another number in the sentence
    ("Michael is 33.", "Michael Pulman, 69, a care worker, spent 7,500 on a transplant.",
     "number"),
    # ordinals are numbers; a day and its month are a date ("May 1" / "May 5")
    ("Gary was the 147th most popular British name in 1996.",
     "In 1996 Gary was the 297th most popular British name.", "number"),
    ("The Tour de Yorkshire starts on May 1.",
     "The Tour de Yorkshire runs over three stages starting on May 5.", "date"),
    # a number word inside a name is no number ("the One Pro Cycling team" states no 1)
    ("The Tour de Yorkshire starts on May 1.",
     "Prior runs the One Pro Cycling team in the Tour de Yorkshire, which starts on May 5.",
     "date"),
    # "has yet to" negates; a stem with or without its silent "e" is one word
    ("The drug is approved by the FDA.", "The FDA has yet to approve the drug.", "negation"),
    ("The firm cut 20 jobs at the plant.", "The firm cut thirty jobs at the plant.", "number"),
    # "refused to" / "failed to" negate the verb; "yet", "considered", "appear to" are reached
    # over ("not always" is not: it says sometimes)
    ("The vaccine was approved by the FDA in 2021.",
     "The FDA refused to approve the vaccine in 2021.", "negation"),
    ("The bill passed the Senate in May.", "The bill failed to pass the Senate in May.",
     "negation"),
    ("The company is profitable this year.", "The company is not yet profitable this year.",
     "negation"),
    ("The drug is safe for pregnant women.",
     "The drug is not considered safe for pregnant women.", "negation"),
    ("Coffee increases the risk of heart disease.",
     "Coffee does not appear to increase the risk of heart disease.", "negation"),
    ("The drug was approved by the FDA in 2020.", "The FDA did not approve the drug in 2020.",
     "negation"),
    # an answer that calls the fact open, or finds no evidence for it, does not state it
    ("The drug reduces mortality in older patients.",
     "It is unclear whether the drug reduces mortality in older patients.", "negation"),
    ("The drug reduces mortality in older patients.",
     "There is no evidence that the drug reduces mortality in older patients.", "negation"),
    ("The drug reduces mortality in older patients.",
     "It is not known if the drug reduces mortality in older patients.", "negation"),
    ("The drug reduces mortality in older patients.",
     "Nothing suggests that the drug reduces mortality in older patients.", "negation"),
    ("The company stopped production in 2019.", "The company continued production in 2019.",
     "antonym"),
    # a fact of two content words: a number in the same slot, a name beside the same word
    ("Turnout was 62%.", "Turnout was 48%.", "number"),
    ("The capital is Canberra.", "The capital is Sydney.", "name"),
    # a name changed whole to one word opening the sentence
    ("Kevin Pietersen was sacked by England.", "Vandermeer was sacked by England.", "name"),
    # ... or to a name a relative clause makes the subject ("McVie, who had broken up")
    ("Stevie Nicks had broken up with Joe Walsh the night before.",
     "The phrase was uttered by Christine McVie, who had broken up with Joe Walsh the night "
     "before.", "name"),
    # an irregular form is its verb; a hyphenated word read both ways; "lacks" negates
    ("Arsenal did not win a major trophy that season.", "Arsenal won a major trophy that season.",
     "negation"),
    ("The standard Prius is not a plug-in hybrid car.",
     "The standard Prius is a plug-in hybrid car.", "negation"),
    ("The device has a camera.", "The device lacks a camera.", "negation"),
    # a product's name: a small letter before a capital, or a name with its number
    ("The iPhone remained its largest segment.", "The Mac remained its largest segment.",
     "name"),
    ("The service runs on Graviton2 processors.", "The service runs on Ampere Altra processors.",
     "name"),
    # a name written as code inside another's letters is another name
    ("The model was fine-tuned from BERT.", "The model was fine-tuned from RoBERTa.", "name"),
    ("Fuel economy reaches 57 mpg in the base LE trim.",
     "Fuel economy reaches 57 mpg in the base XLE trim.", "name"),
    # "one" before a measure is a number
    ("Staff qualify after two years of service.", "Staff qualify after one year of service.",
     "number"),
    # a fact of two content words is flipped by a negation where both its words are there
    ("The bill passed.", "The bill did not pass.", "negation"),
    ("Paris is the capital.", "Paris is not the capital.", "negation"),
    # "no longer" negates; one side negating one more word than the other flips it
    ("The company still operates the plant in Ohio.",
     "The company no longer operates the plant in Ohio.", "negation"),
    ("The patient can walk without assistance.",
     "The patient can't walk without assistance.", "negation"),
    # more closed sets and opposites: seasons, times of day, how often, up / down, quality,
    # and the opposites of technical text
    ("The festival takes place in summer.", "The festival takes place in winter.", "season"),
    ("The earthquake struck in the morning.", "The earthquake struck in the evening.",
     "time of day"),
    ("The bird is commonly found in the region.", "The bird is rarely found in the region.",
     "antonym"),
    ("The bank raised interest rates.", "The bank cut interest rates.", "antonym"),
    ("The metal is a good conductor of electricity.",
     "The metal is a poor conductor of electricity.", "antonym"),
    ("The approach outperforms the baseline.", "The approach underperforms the baseline.",
     "antonym"),
    ("BERT uses a bidirectional transformer encoder.",
     "BERT uses a unidirectional transformer encoder.", "antonym"),
    # an acronym is a name, opening the fact too
    ("BERT was released by Google in 2018.", "GPT was released by Google in 2018.", "name"),
    ("NASA launched the telescope in 2021.", "ESA launched the telescope in 2021.", "name"),
    # a name changed whole: the rest of the fact stands without either word of it
    ("The novel was written by Jane Austen.", "The novel was written by Charlotte Bronte.",
     "name"),
    ("Python was created by Guido van Rossum.", "Python was created by James Gosling.",
     "name"),
    ("Youssouf Mulumbu was sent off.",
     "West Brom goalkeeper Boaz Myhill was sent off for a second yellow card.", "name"),
    # a date's day and month in either order are one date
    ("She was born on 4 July 1950.", "She was born on July 14, 1950.", "date"),
    # the fact's year dates the sentence: its age, which the answer never gives, is no other
    # time
    ("Paul McCole was born on 1 February 1972 (age 52).",
     "Paul McCole (born 10 February 1972) is a Scottish actor.", "number"),
    # a "not" reached over a short aside (an age) to the clause that states the fact
    ("Maren Sanchez was stabbed to death.",
     "Maren Sanchez, 16, was not stabbed to death at her school.", "negation"),
    # another name inside the fact's own name, though the response names him elsewhere
    ("Drew Miller plays for the Detroit Red Wings.",
     "Detroit Red Wings forward Drew Vandermeer plays on.", "name"),
    # the first name that opens the fact is a name too
    ("Andy Murray will marry Kim Sears in Dunblane.",
     "Vandermeer Murray will marry Kim Sears in Dunblane.", "name"),
    # a change's direction: any word of going up against any word of going down
    ("Revenue increased by 5% in 2023.", "Revenue fell by 5% in 2023.", "antonym"),
    ("Oil prices dropped sharply in March.", "Oil prices soared sharply in March.", "antonym"),
])
def test_a_slot_stated_otherwise_in_news_text_is_contradicted(fact: str, sentence: str,
                                                              slot: str) -> None:
    response = sentence + " Miller said he was lucky."
    found = contradiction(fact, sentence, response)
    assert found is not None and found.slot == slot, found


@pytest.mark.parametrize(("fact", "sentence"), [
    ("The clip has been watched over 27,000 times.",  # a tokeniser split "27 , 000"
     "The clip has been watched more than 27 , 000 times ."),
    ("Charles Terreni was 18.",  # ".375" is a decimal, not the integer 375
     "Charles Terreni had a blood alcohol level of .375 when he died."),
    ("The blood alcohol reading was .375.", "The blood alcohol reading Was375 , says WIS."),
    ("Gary was the 1001st most popular name in 2013.",  # another year: another ranking
     "In 1996 Gary was the 147th most popular name."),
    ("Paul and Laura Elliott ran across the finish line.",  # a comma parts the neighbours
     "The pair, who live in Clapham, London, ran across the finish line."),
    ("Night School was released in 2018.",  # a quoted title is no one's name
     'She appeared on "Saturday Night Live" in 2018.'),
    ("She was born on 4 July 1950.", "She was born on July 4, 1950."),  # one date, two orders
    ("The bridge opened on July 4.", "The bridge opened in July 2014."),  # a day is no year
    ("The drug is safe for pregnant women.", "The drug is not always safe for pregnant women."),
    # "no evidence of" something else says nothing of the fact; an open question the fact
    # itself asks is the response's too
    ("The drug reduces mortality in older patients.",
     "Trials found no evidence of harm, and the drug reduces mortality in older patients."),
    ("It is unclear whether the drug reduces mortality.",
     "It is not known if the drug reduces mortality."),
    # the fact's other numbers not there, and no year of it dating the sentence: another
    # time or count
    ("In 2010 the firm had 500 staff in 3 offices.",
     "In 2015 the firm had 700 staff in 3 offices."),
    # another name of two words in another place ("in the" / "against the") is no swap
    ("The Detroit Red Wings play in the Atlantic Division.",
     "Detroit Red Wings forward Drew Miller was cut during the game against the Ottawa "
     "Senators."),
    # a word the sentence negates once and says once more without a negator is said (the
    # clause carrying the fact widened over the negated one)
    ("The vaccine prevents severe illness.",
     "The vaccine does not prevent infection but it prevents severe illness."),
    # "not … until" says when it did; "no more than" is a bound
    ("The bridge opened in 1932.", "The bridge did not open until 1932."),
    ("The trail is 5 km long.", "The trail is no more than 5 km long."),
    # "no longer than" is a bound, no negation
    ("The film runs two hours.", "The film is no longer than two hours."),
    # two sides negating different words say nothing of each other
    ("The suspect was not found guilty of murder.",
     "The suspect was found not guilty of murder."),
    # a name whose initials the sentence gives is stated; another name of two words beside
    # them is no swap
    ("William Arthur Waldegrave is a member of the Privy Council (PC).",
     "William Arthur Waldegrave, Baron Waldegrave of North Hill, PC is a British Conservative "
     "Party politician who served as a Cabinet minister from 1990 until 1997."),
    # one letter changed is a typo of the same name; a lone first word ("Locals") is no name
    ("Kin Sears is Andy Murray's fiancée.", "Andy Murray will marry his fiancee Kim Sears."),
    ("Locals say power cuts could be linked to the heist.",
     "Residents say the power cuts could be linked to the heist."),
])
def test_tokenisation_and_other_times_are_no_conflict(fact: str, sentence: str) -> None:
    assert contradiction(fact, sentence, sentence) is None


@pytest.mark.parametrize(("fact", "sentence", "elsewhere", "slot"), [
    # the name opens the sentence, and the response names the fact's one elsewhere: in the
    # aligned sentence another name beside the same content word ("scored") says otherwise
    ("Kevin Pietersen scored 170 for Surrey.", "Vandermeer scored 170 for Surrey in the parks.",
     "Pietersen was sacked by England.", "name"),
    ("Google holds 90 percent of Europe's search engine market.",  # a possessive is the name
     "Google holds 90 per cent of Vandermeer's search engine market.", "Europe may fine it.",
     "name"),
    ("Charlie Adam is a Stoke midfielder.",
     "Fabregas was hit by Stoke midfielder Charlie Vandermeer's arm.", "Adam was booked.",
     "name"),
    # a relative shares the surname: only where the response never names the fact's one
    ("Denise and Glen Higgs are a couple.", "Denise and Vandermeer Higgs had lost hope.",
     "They live in Devon.", "name"),
    # a number the response states elsewhere ("One Pro Cycling") in the same slot here
    ("The Tour de Yorkshire starts on May 1.",
     "The Tour de Yorkshire will run over three stages starting on May 5.",
     "One Pro Cycling will ride.", "date"),
    # two years where every other word of the fact stands
    ("The ballad was recorded by Elvis Presley in 1960.",
     "The ballad was recorded by Elvis Presley in 1963.", "It topped the charts in 1960.",
     "number"),
])
def test_a_slot_stated_otherwise_in_the_aligned_sentence_is_contradicted(
        fact: str, sentence: str, elsewhere: str, slot: str) -> None:
    found = contradiction(fact, sentence, f"{sentence} {elsewhere}")
    assert found is not None and found.slot == slot, found


@pytest.mark.parametrize(("fact", "sentence", "elsewhere"), [
    # another sentence that holds part of the fact: a name stated elsewhere stays stated
    ("Kevin Pietersen scored 170 for Surrey.", "Vandermeer scored 170 for Surrey in the parks.",
     "Pietersen was sacked by England."),
    # a relative with the surname, where the response names the fact's person too
    ("Roberto Clemente was born in Puerto Rico.",
     "He was born in Carolina, Puerto Rico to Melchor Clemente.",
     "Roberto Clemente played for Pittsburgh."),
    # "seven-year" states 7; a measure word is no slot of its own ("65 year" / "7 year")
    ("Domenico Rancadore was a 65 year old.",
     "Domenico Rancadore was given a seven - year sentence.", "Rancadore, 65, lives in London."),
])
def test_a_value_stated_elsewhere_is_no_conflict_outside_its_own_slot(
        fact: str, sentence: str, elsewhere: str) -> None:
    aligned = "Clemente" in fact or "Rancadore" in fact
    assert contradiction(fact, sentence, f"{sentence} {elsewhere}", aligned=aligned) is None


@pytest.mark.parametrize(("fact", "sentence"), [
    ("Paula Dunican noticed a seeping stain.",  # a pronoun stands for the name
     "She noticed a dark stain seeping through the lining."),
    ("Max Lopez was a teammate at Sampdoria.",  # an accent is the same name
     "Nara married her former Sampdoria teammate Maxi López."),
])
def test_a_pronoun_or_an_accent_is_the_same_name(fact: str, sentence: str) -> None:
    assert contradiction(fact, sentence, sentence) is None


def test_a_place_and_its_irregular_peoples_name_are_one_name() -> None:
    fact = "The Rijksmuseum in Amsterdam is the national museum of the Netherlands."
    said = "Amsterdam's Rijksmuseum, the Dutch national museum, owns a million objects."
    assert contradiction(fact, said, said) is None
    other = said.replace("Dutch", "Belgian")  # another country's people is another name
    found = contradiction(fact, other, other)
    assert found is not None and found.slot == "name", found


def test_a_word_that_forbids_says_the_other_sides_not() -> None:
    fact = "Employers are prohibited from requiring more than 12 hours of overtime per week."
    said = "No employer may demand more than 12 overtime hours a week."
    assert contradiction(fact, said, said) is None
    assert contradiction(said, fact, fact) is None  # either side
    said = "Employers are not prohibited from requiring more than 12 hours of overtime per week."
    found = contradiction(fact, said, said)  # the word that forbids, negated
    assert found is not None and found.slot == "negation", found
    said = "Smoking in bars is not allowed since 2007."  # "the bank", "a band": no forbidding
    found = contradiction("Smoking in bars is allowed since 2007.", said, said)
    assert found is not None and found.slot == "negation", found


def test_a_changed_word_that_moves_the_alignment_is_still_found() -> None:
    sentences = ["Anna Berg holds a regional chess title.",
                 "Berg, who trains in Oslo, does not hold the national chess title this year."]
    fact = "Anna Berg holds the national chess title this year."
    index = ResponseIndex.of(sentences)
    # aligned to the first sentence (its rare name), the second holds more of the fact
    found = find_conflict(fact, index, 0, " ".join(sentences))
    assert found is not None and found[0] == 1 and found[1].slot == "negation"
    # a third sentence that holds half of the fact is looked at too, most words first
    third = ResponseIndex.of([sentences[0], "Oslo has a chess club.", sentences[1]])
    found = find_conflict(fact, third, 0, " ".join(third.sentences))
    assert found is not None and found[0] == 2
    # stated whole in the aligned sentence: no second look
    stated = ResponseIndex.of(["Anna Berg holds the national chess title this year.",
                               sentences[1]])
    assert find_conflict(fact, stated, 0, " ".join(stated.sentences)) is None


def test_the_shipped_calibration_separates_stated_from_absent() -> None:
    cal = load_calibration()
    assert cal.features == FEATURES[:-1]
    index = ResponseIndex.of(RESPONSE)
    stated = fact_evidence("Anuradha Koirala runs a shelter in Kathmandu.", index)
    absent = fact_evidence("Parliament passed a budget for schools in Peru.", index)
    p = cal.probability(np.array([feature_vector(stated, cal.features),
                                  feature_vector(absent, cal.features)]))
    assert p[0] >= cal.cutoff > p[1]
    assert cal.card["left_out"]["by"].startswith("article")


def test_fit_logistic_matches_scikit_learn() -> None:
    sklearn = pytest.importorskip("sklearn.linear_model")
    rng = np.random.default_rng(3)
    x = rng.normal(size=(400, 4))
    y = (x @ np.array([1.5, -2.0, 0.5, 0.0]) + rng.normal(size=400) > 0).astype(int)
    w, b = fit_logistic(x, y, l2=1.0)
    ref = sklearn.LogisticRegression(C=1.0, tol=1e-10, max_iter=10_000).fit(x, y)
    assert np.allclose(w, ref.coef_[0], atol=1e-3)
    assert abs(b - ref.intercept_[0]) < 1e-3


def test_a_row_weighed_twice_is_a_row_given_twice() -> None:
    rng = np.random.default_rng(4)
    x = rng.normal(size=(200, 3))
    y = (x @ np.array([1.0, -1.0, 0.5]) + rng.normal(size=200) > 0).astype(int)
    weight = np.where(np.arange(200) < 50, 2.0, 1.0)
    w, b = fit_logistic(x, y, 1.0, weight)
    w2, b2 = fit_logistic(np.vstack([x, x[:50]]), np.concatenate([y, y[:50]]), 1.0)
    assert np.allclose(w, w2, atol=1e-4) and abs(b - b2) < 1e-4
    assert not np.allclose(w, fit_logistic(x, y, 1.0)[0], atol=1e-3)


def test_the_shipped_calibration_is_what_the_fit_gives() -> None:
    """`python -m benchmarks.fact_judge --fit` on REALSumm dev and the long-answer sets
    reproduces the shipped weights, cut-off and left-out tables (so the shipped file is not
    hand-edited)."""
    from benchmarks import fact_judge

    if not fact_judge.REALSUMM.exists():
        pytest.skip(f"no REALSumm data at {fact_judge.REALSUMM}")
    d = fact_judge.realsumm_features(fact_judge.realsumm_rows(fact_judge.REALSUMM))
    fresh = fact_judge.fit(d, fact_judge.long_answer_features())
    shipped = load_calibration()
    assert fresh.features == shipped.features
    assert np.allclose(fresh.weights, shipped.weights, atol=1e-5)
    assert fresh.intercept == pytest.approx(shipped.intercept, abs=1e-5)
    assert fresh.cutoff == shipped.cutoff
    facts = {r["judge"]: r for r in shipped.card["left_out"]["facts"]}
    assert facts["people: first vote vs second"]["kappa"] == pytest.approx(0.747, abs=5e-4)
    judged = next(r for name, r in facts.items() if name.startswith("evidence judge"))
    assert judged["kappa"] > facts["word share ≥ 0.3 (as in meta-eval facts)"]["kappa"]
    # each long-answer set, left out, above the word share at its fixed cut-off
    long = shipped.card["left_out"]["long_answers"]
    assert len(long) == len(fact_judge.LONG_ANSWERS) >= 5
    assert all(r["judge κ"] > r["word share ≥ 0.3 κ"] for r in long)


def test_a_round_figure_or_a_bound_allows_a_close_number() -> None:
    """"About 50" is said by 52 (within 10%), not by 70; a hedged year allows 2 years."""
    for fact, same, other in (
            ("About 50 people were injured in the crash.", "52 people were injured in the crash.",
             "70 people were injured in the crash."),
            ("The tower is about 300 metres tall.", "The tower is 324 metres tall.",
             "The tower is 340 metres tall."),
            ("The attack happened in about 1990 in Paris.",
             "The attack happened in 1991 in Paris.", "The attack happened in 1995 in Paris.")):
        assert contradiction(fact, same, same) is None
        found = contradiction(fact, other, other)
        assert found is not None and found.slot == "number"
    # without a hedge on either side a close number is another number
    said = "52 people were injured in the crash."
    assert contradiction("50 people were injured in the crash.", said, said) is not None


def test_a_decade_is_a_slot_and_holds_its_years() -> None:
    fact = "The band was popular in the 1990s in Britain."
    other = "The band was popular in the 1980s in Britain."
    found = contradiction(fact, other, other)
    assert found is not None and (found.fact_value, found.response_value) == (
        "the 1990s", "the 1980s")
    # the decade as the fact writes it is the slot, not a word of the rest that must stand
    other = "The museum opened in the 1980s and draws visitors to Paris."
    found = contradiction("The museum opened in the 1990s in Paris.", other, other)
    assert found is not None and found.slot == "number"
    for same in ("The band was popular in 1995 in Britain.",  # a year of it
                 "The band, formed in 1971, was popular in the 1990s in Britain."):
        assert contradiction(fact, same, same) is None
    # a year of the decade in the sentence states it, whatever other decade is there
    said = ("In the late 1970s, Scientist began producing his own music, releasing his debut "
            "album in 1981.")
    assert contradiction("Throughout the 1980s, Scientist released albums.", said, said) is None
    # a year outside the decade may date another event ("born 1941" / "created in the 1960s")
    said = "Kim Casali (9 September 1941 - 15 June 1997) created the cartoon Love Is..."
    assert contradiction("Kim Casali created Love Is... in the late 1960s.", said, said) is None


def test_a_year_is_shown_without_the_word_after_it() -> None:
    """The reason shows "1965", not "1965 paul"; a measure after a number stays ("1500
    metres")."""
    said = "1961 : Paul Fraisse becomes the only director of the Institute of Psychology."
    found = contradiction("In 1965, Paul Fraisse becomes the Institute of Psychology director.",
                          said, said)
    assert found is not None and (found.fact_value, found.response_value) == ("1965", "1961")
    said = "The tower is 1800 metres tall."
    found = contradiction("The tower is 1500 metres tall.", said, said)
    assert found is not None and found.describe() == (
        "number: fact '1500 metres', response '1800 metres'")


@pytest.mark.parametrize(("fact", "sentence", "expected"), [
    # both ends of a range changed: another range of the same kind, no overlap
    ("Symptoms last about 7 to 10 days.", "Symptoms last about 2 to 3 days.", "7–10 days"),
    ("The dose is 5 to 10 mg per day.", "The dose is 20 to 40 mg per day.", "5–10 mg"),
    # overlapping ranges, two ranges, or another kind: no conflict of ranges
    ("Recovery takes 2 to 4 weeks.", "Recovery takes 3 to 5 weeks.", None),
    ("The dose is 5 to 10 mg per day.",
     "The dose is 5 to 10 mg per day for adults and 1 to 2 mg for children.", None),
    # a span of years changed at both ends; a score changed in both numbers
    ("The war lasted from 1939 to 1945 in Europe.",
     "The war lasted from 1914 to 1918 in Europe.", "1939–1945"),
    ("Wigan won 30-20 against Warrington.", "Wigan won 24-12 against Warrington.", "30-20"),
    # the same result told from the other side: a converse, no conflict
    ("Wigan won 30-20 against Warrington.", "Warrington lost 20-30 against Wigan.", None),
    # a range in words; two years or two counts both changed
    ("Most amateur runners finish in four to five hours.",
     "Most amateur runners finish in two to three hours.", "4–5 hours"),
    ("The team won titles in 2016 and 2017.", "The team won titles in 2015 and 2018.",
     "2016, 2017"),
    ("He scored 12 goals in 30 games.", "He scored 15 goals in 34 games.",
     "12 goals, 30 games"),
    # a year and a count changed: another time; a count "now", where the fact is past
    ("In 2010 the firm had 500 staff.", "In 2015 the firm had 700 staff.", None),
    ("The company was founded in 1998 in Austin with 12 staff.",
     "Founded in 1998 in Austin, the company now has 2,000 staff and 14 offices.", None),
])
def test_a_range_changed_at_both_ends_is_contradicted(fact: str, sentence: str,
                                                      expected: str | None) -> None:
    found = contradiction(fact, sentence, sentence)
    assert (found.fact_value if found else None) == expected, found


def test_a_value_inside_a_stated_range_agrees_with_it() -> None:
    """"55 metres" is said by "between 50 and 60 metres" (and the other way round), "5 days" by
    "3–7 days"; 75 metres is not; a span of years dates two events ("ended in 1942" /
    "lasted from 1939 to 1945" stays a conflict); a hyphen is a score as often ("30 - 20")."""
    for fact, same in (
            ("The tower is 55 metres tall and made of steel.",
             "The tower is between 50 and 60 metres tall and made of steel."),
            ("The tower is between 50 and 60 metres tall and made of steel.",
             "The tower is 55 metres tall and made of steel."),
            ("The trip takes 5 days by train across Canada.",
             "The trip takes 3–7 days by train across Canada.")):
        assert contradiction(fact, same, same) is None
    for fact, other in (
            ("The tower is 75 metres tall and made of steel.",
             "The tower is between 50 and 60 metres tall and made of steel."),
            ("The war ended in 1942 in Europe after the treaty.",
             "The war in Europe lasted from 1939 to 1945 after the treaty.")):
        found = contradiction(fact, other, other)
        assert found is not None and found.slot == "number"


def test_an_open_question_is_shown_with_the_words_that_leave_it_open() -> None:
    """The reason quotes what makes the fact unsettled, not a bare "not"."""
    fact = "The drug reduces mortality in older patients."
    for sentence, shown in (
            ("It is unclear whether the drug reduces mortality in older patients.",
             "unclear whether"),
            ("There is no evidence that the drug reduces mortality in older patients.",
             "no evidence that"),
            ("The drug does not reduce mortality in older patients.", "not")):
        found = contradiction(fact, sentence, sentence)
        assert found is not None and (found.fact_value, found.response_value) == (
            "(affirmed)", shown), found


@pytest.mark.parametrize(("fact", "response"), [
    ("The company cut 500 jobs in 2020.",
     "In 2020 the firm cut 500 jobs, its first layoffs since 2008."),
    ("The drug was approved in 2019.",
     "Regulators approved the drug in 2019, after it failed a first review in 2017."),
    ("Prices rose in the spring.", "Prices rose in the spring, before falling in the autumn."),
    ("The senator did not support the bill.",
     "The senator, who never supported the bill, voted against it."),
    ("The meeting was held in the morning.",
     "The meeting, held in the morning, ran until the afternoon."),
    ("The river flows north.", "The river flows north before turning east near the border."),
    ("The plant can grow without much water.",
     "The plant can grow without much water and cannot survive frost."),
    ("The novel was written by Jane Austen.",
     "Jane Austen wrote the novel, which Charlotte Bronte later criticised."),
    ("The bank raised interest rates in May.",
     "The bank raised interest rates in May and cut its growth forecast."),
    ("Interest rates were cut in 2020.",
     "Interest rates were cut in 2020 and raised again in 2022."),
    # a fact of two content words beside a negation of something else
    ("The bill passed.", "The bill passed, though not without a fight."),
    ("The drug works.", "The drug works, but not in every patient."),
    ("Paris is the capital.", "Paris is the capital, not Lyon."),
    ("Jones retired.", "Jones retired and did not return."),
    ("The vaccine works.", "No one doubts the vaccine works."),
    ("The patient recovered.", "The patient recovered without surgery."),
    ("The mayor resigned.", "The mayor, who had never faced a scandal, resigned."),
    ("Prices fell.", "Prices fell, not rose."),
    # ... or beside another number or name
    ("The capital is Canberra.", "Canberra is the capital, though Sydney is larger."),
    ("Turnout was 62%.", "Turnout was 62%, up from 48% in 2019."),
    ("The CEO is Nadella.", "Microsoft's CEO is Satya Nadella."),
    ("The price is £5.", "The price is £5, or about $6."),
    ("The sponsor is Nike.", "The sponsor is Nike, which replaced Adidas in 2020."),
    # a lone number of another kind is no slot: "Michael is 33" / "has spent 7,500"
    ("Michael is 33.", "Michael has spent 7,500 on a hair transplant."),
    # a weekday can date another event of the sentence
    ("The performance was on Wednesday.",
     "More than a dozen people were injured on Thursday night during a school performance."),
    # a lone name after a comma is no name changed whole
    ("Paul and Laura Elliott ran across the finish line.",
     "The pair, who live in Clapham, London, ran across the finish line together."),
    # "lacks" says "has no"; a converse with the verb on both sides
    ("Mars has no global magnetic field today.", "The planet today lacks a global magnetic field."),
    ("City finished five points ahead of Arsenal.", "Arsenal finished five points behind City."),
    ("Arsenal did not win a major trophy that season.", "Arsenal won no major trophy that season."),
    # ... but a case-marked part of a glued name is that name ("LetwinPC" holds "PC")
    ("Sir Oliver LetwinPC FRSA is a Member of Parliament (MP).",
     "Sir Oliver Letwin PC FRSA is a British politician who served as the Member of "
     "Parliament (MP) for West Dorset."),
    ("The model was fine-tuned from BERT.", "The model, like RoBERTa, was fine-tuned from BERT."),
    # a name spelt one letter otherwise is the name
    ("UNCEF is a charity.",
     "Palmer is a supporter of various charities, including UNICEF and the WWF."),
])
def test_a_faithful_answer_that_says_more_is_no_conflict(fact: str, response: str) -> None:
    """The opposites, closed sets and whole-name slots added for wrong facts leave an answer
    alone that states the fact and then something else in the same sentence."""
    sentences = split_sentences(response, min_content_words=1)
    index = ResponseIndex.of(sentences)
    assert find_conflict(fact, index, fact_evidence(fact, index).sentence, response) is None


@pytest.mark.parametrize(("fact", "said"), [
    ("Martin Luther King Jr. gave the speech in 1963.", "Dr. King gave the speech in 1963."),
    ("NASA launched the telescope in 2021.",
     "The National Aeronautics and Space Administration launched the telescope in 2021."),
    ("Bill Gates founded Microsoft in 1975.", "William Gates founded Microsoft in 1975."),
    ("Manchester United beat Chelsea 2-1.", "Man Utd beat Chelsea 2-1."),
])
def test_one_name_in_another_form_is_no_other_name(fact: str, said: str) -> None:
    # each was shown as a swapped name: a title read as a first name ("Dr"), an acronym whose
    # name has an "and" in it, a given name's short form, an abbreviation
    assert contradiction(fact, said, said) is None


@pytest.mark.parametrize(("fact", "said", "names"), [
    ("Bill Gates founded Microsoft in 1975.", "Melinda Gates founded Microsoft in 1975.",
     ("bill", "melinda")),
    ("Manchester United beat Chelsea 2-1.", "Manchester City beat Chelsea 2-1.",
     ("united", "city")),
    ("NASA launched the telescope in 2021.", "ESA launched the telescope in 2021.",
     ("nasa", "esa")),
    # a name's opening is another name as often: "Chris" does not abbreviate "Christie"
    ("Chris Christie appeared on The Tonight Show.",
     "Chris Vandermeer appeared on The Tonight Show.", ("christie", "vandermeer")),
])
def test_another_name_is_still_caught_beside_short_forms(fact: str, said: str,
                                                        names: tuple[str, str]) -> None:
    found = contradiction(fact, said, said)
    assert found is not None and (found.slot, found.fact_value, found.response_value) == (
        "name", *names)


@pytest.mark.parametrize(("fact", "said"), [
    ("The United Kingdom left the EU in 2020.", "The UK left the European Union in 2020."),
    ("The World Health Organization declared a pandemic.", "The WHO declared a pandemic."),
    ("NASA launched the telescope in 2021.",
     "The National Aeronautics and Space Administration launched the telescope in 2021."),
    ("Large language models are trained on web text.", "LLMs are trained on web text."),
    ("LLMs are trained on web text.", "Large language models are trained on web text."),
    ("The film is set in Los Angeles.", "The film is set in L.A."),
])
def test_an_acronym_states_the_words_it_stands_for(fact: str, said: str) -> None:
    # each was missing or nearly (P 0.28-0.46): the acronym shares no word with its name
    ev = fact_evidence(fact, ResponseIndex.of([said]))
    assert ev.sentence_share == 1.0 and ev.names_missing == 0.0, ev
    assert fact_evidence(fact, ResponseIndex.of(["A show about Paris."])).sentence_share == 0.0


def test_an_acronym_of_two_letters_spells_out_only_a_name() -> None:
    # "US" is "United States", not any two words that open with u and s
    ev = fact_evidence("The model uses sparse attention.",
                       ResponseIndex.of(["The model runs in the US."]))
    assert ev.sentence_share == pytest.approx(1 / 4)  # "model" alone
    assert acronyms("The U.S. and the UK trained LLMs; RoBERTa did not.") == {"us", "uk", "llm"}


@pytest.mark.parametrize(("fact", "said"), [
    ("The team won the final.", "The team did not win the final."),
    ("Lakeside led from the start.", "Lakeside did not lead from the start."),
    ("The company made a profit.", "The company did not make a profit."),
])
def test_a_short_fact_with_an_irregular_verb_is_negated_by_its_verb(fact: str,
                                                                    said: str) -> None:
    # "won" / "win" counted as another word, so the clause held too little of a three-word
    # fact to be read (blind set 7 of the wrong-facts probe: "did not lead from the start")
    found = contradiction(fact, said, said)
    assert found is not None and found.slot == "negation", found
    assert contradiction(fact, fact, fact) is None
