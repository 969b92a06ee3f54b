"""The contradiction check on long answers of other kinds than its dev sets (medicine, law,
software, science, policy): each pair below was read wrong in the labelled sets
``benchmarks/data/fact_labels_other_kinds*.jsonl`` (written by agents that never saw the
code), as a false alarm on a faithful answer or as a wrong fact counted covered; the rest
guard what the new rules must not lose."""

from __future__ import annotations

import pytest

from factgraph.stages.contradiction import contradiction, find_conflict
from factgraph.stages.fact_evidence import ResponseIndex, fact_evidence


@pytest.mark.parametrize(("fact", "said"), [
    # a bound is no negation ("no more than five weeks"), and one threshold bounded both ways
    # is two cases, not another number for one
    ("Where the annual rent is £50,000 or more, the deposit cap is six weeks' rent.",
     "A deposit can be no more than five weeks' rent if the yearly rent is under £50,000."),
    # a plain number inside the other side's bound agrees with it
    ("Natural uranium contains only about 0.7% uranium-235.",
     "Since natural uranium is less than 1% U-235, fuel is usually enriched."),
    # an aside that stresses a negation negates nothing of its own
    ("A black hole is a region where gravity is so strong that nothing, not even light, can "
     "escape.", "A black hole is a place where matter is packed so densely that its gravity "
     "lets nothing escape, not even light."),
    ("A black hole is a region where gravity is so strong that nothing, not even light, can "
     "escape.", "A black hole is a region of space where gravity is so strong that nothing, "
     "including light, can escape past its boundary, the event horizon."),
    # a bracket ends a negator's reach; "does nothing for" negates no word
    ("The President has 10 days, excluding Sundays, to sign or veto a bill.",
     "The President has 10 days (not counting Sundays) to sign or veto it."),
    ("The President has 10 days, excluding Sundays, to sign or veto a bill.",
     "If the President does nothing for ten days (Sundays not counted) while Congress is in "
     "session, it becomes law anyway."),
    # a word that prevents says "not": "hinders browning" / "steam instead of brown"
    ("Pat the steak dry before searing, since surface moisture hinders browning.",
     "To sear a steak well, first pat it completely dry, because moisture on the surface will "
     "steam instead of brown."),
    # "not awarded posthumously" denies the manner, not the award
    ("Nobel Prizes are not awarded posthumously.",
     "The Nobel Prize was awarded for the structure of DNA in 1962 to Watson and Crick."),
])
def test_a_faithful_sentence_of_a_long_answer_is_no_contradiction(fact: str,
                                                                  said: str) -> None:
    assert contradiction(fact, said, said) is None


@pytest.mark.parametrize(("fact", "said", "slot"), [
    ("Gout is more common in men than in women.",
     "It is much more common in women than in men, especially after menopause.",
     "comparison"),
    ("The Nile is longer than the Amazon.", "The Amazon is longer than the Nile.",
     "comparison"),
    ("A moderator slows neutrons down.", "A moderator speeds neutrons up.", "antonym"),
    ("The fire killed 50 people.", "The fire killed more than 300 people.", "number"),
    # a bound in another unit is no bound of the number ("up to 72 hours" is 3 days)
    ("The battery lasts up to 72 hours on a single charge.", "The battery lasts up to two "
     "days on a single charge.", "number"),
    ("More than 100 people died in the fire.", "More than 300 people died in the fire.",
     "number"),
    ("Searing does not seal in the meat's juices.", "Searing seals in the juices.",
     "negation"),
    ("The vaccine prevents infection.", "The vaccine does not prevent infection.",
     "negation"),
    ("The team finished quickly.", "The team did not finish quickly.", "negation"),
])
def test_a_wrong_fact_is_still_shown(fact: str, said: str, slot: str) -> None:
    found = contradiction(fact, said, said)
    assert found is not None and found.slot == slot, found


def test_a_converse_comparison_is_no_contradiction() -> None:
    said = "The Amazon is shorter than the Nile."
    assert contradiction("The Nile is longer than the Amazon.", said, said) is None


def _conflict(fact: str, response: list[str]) -> object:
    index = ResponseIndex.of(response)
    return find_conflict(fact, index, fact_evidence(fact, index).sentence, " ".join(response))


def test_a_clause_is_not_read_alone_where_the_fact_sets_a_condition() -> None:
    # "the deposit cap is six weeks' rent" alone was read against "capped at five weeks' rent
    # for most tenancies": the fact says six weeks only where the rent is £50,000 or more
    fact = "Where the annual rent is £50,000 or more, the deposit cap is six weeks' rent."
    assert _conflict(fact, ["Deposits are capped at five weeks' rent for most tenancies."]) \
        is None
    fact = ("A fast-forward merge happens when the target branch has no new commits, so no "
            "merge commit is created.")
    assert _conflict(fact, ["With merge, Git creates a merge commit that joins the lines."]) \
        is None


def test_a_clause_read_alone_needs_its_other_words_in_the_sentence() -> None:
    fact = ("The deposit should be returned within 10 days of the landlord and tenant "
            "agreeing the amount.")
    said = "Your landlord must protect your deposit within 30 days of receiving it."
    assert _conflict(fact, [said]) is None
    fact = "The reactor had a positive void coefficient, which made it unstable at low power."
    found = _conflict(fact, ["The reactor had a negative void coefficient."])
    assert found is not None


def test_an_ordinal_read_in_digits_still_meets_its_rival_word() -> None:
    # "the fourth" is read "the 4th": the opposite's slot must drop the digits too, or "the
    # second" no longer turned the fact round (set 2, measured as written)
    said = "The 2023 event was only the second global bleaching event ever recorded."
    found = contradiction("The global bleaching event that began in 2023 is the fourth on "
                          "record.", said, said)
    assert found is not None and found.slot == "ordinal", found


def test_a_misconception_denies_what_it_names() -> None:
    said = "A common misconception is that phases are caused by Earth's shadow."
    assert contradiction("The phases are not caused by Earth's shadow.", said, said) is None
    found = contradiction("The phases are caused by Earth's shadow.", said, said)
    assert found is not None and found.slot == "negation", found


def test_a_clause_read_alone_does_not_meet_a_value_the_whole_fact_states() -> None:
    fact = ("Louis XVI summoned the Estates-General in May 1789, the first time it had met "
            "since 1614.")
    said = ("To raise money, Louis XVI called the Estates-General, which met at Versailles in "
            "May 1789 for the first time in 175 years.")
    assert _conflict(fact, [said]) is None


def test_a_clause_before_the_fact_s_condition_is_still_read_alone() -> None:
    # the condition ("when used alone") governs what follows it, not the clause before it
    fact = ("Metformin does not cause weight gain and rarely causes hypoglycaemia when used "
            "alone.")
    said = "Metformin causes weight gain and rarely causes hypoglycaemia when used alone."
    found = _conflict(fact, [said])
    assert found is not None


def test_a_sentence_opening_with_a_pronoun_speaks_of_what_the_sentence_before_named() -> None:
    # set 1's flawed answer: "It" is the Kobo Libra 2 the sentence before names
    fact = "The Kobo Libra 2 comes with 32 GB of storage."
    before = ("The Kobo Libra 2's biggest advantage is its physical page-turn buttons, which the "
              "Paperwhite doesn't have.")
    said = ("It also comes with 16 GB of storage, and it supports EPUB files natively, so you "
            "can load books from many different stores.")
    found = contradiction(fact, said, f"{before} {said}")
    assert found is not None and found.slot == "number", found
    assert contradiction(fact, said, said) is None  # no sentence before: nothing referred to
    right = said.replace("16 GB", "32 GB")
    assert contradiction(fact, right, f"{before} {right}") is None


# set 3's false alarms (measured once as written, then read one by one): each rule below
@pytest.mark.parametrize(("fact", "said"), [
    # a negation under a condition says what it takes, not that it never holds
    ("Aluminium, copper and glass pans do not work on induction unless they have a magnetic "
     "base.", "Cast iron and most stainless steel are fine; plain aluminium, copper and glass "
     "won't work without an induction disk or a magnetic base."),
    ("You do not need a visa unless you stay longer than 90 days.",
     "You need a visa to stay longer than 90 days."),
    # an aside in brackets that holds the fact is read on its own
    ("About 85% of US wildfires are started by people.",
     "Climate change doesn't start most fires (roughly 85 percent of wildfires in the United "
     "States are ignited by people, through things like campfires, power lines and arson), but "
     "it makes the landscape far more ready to burn."),
    # the sentence states the fact's value in round figures; its other number is another slot
    ("About 69% of Earth's fresh water is locked in ice caps and glaciers.",
     "Around 97 percent of all water on Earth is salty ocean water, and of the small fresh "
     "fraction, just over two-thirds is frozen in glaciers and ice caps."),
    # "half the time of a gas burner" is a ratio, no share
    ("Induction transfers about 85% of its energy to the food, compared with about 32% for "
     "gas.", "It heats extremely quickly, often boiling water in about half the time of a gas "
     "burner, and it's more energy-efficient."),
    # a birth name and a peer's title are other names of the same person
    ("Ada Lovelace was born on 10 December 1815 in London.",
     "Born Augusta Ada Byron in London on 10 December 1815, she was Lord Byron's only "
     "legitimate child."),
    ("Her mother, Annabella Milbanke, had her educated in mathematics and science.",
     "Her mother, Lady Byron, had her schooled in mathematics and science."),
    # and three left from sets 1 and 2: "few" counts the flights, not the drones; a relative
    # clause ends a negator's reach over "or"; a bracketed "(or … on Windows)" is another case
    ("A queen mates with many drones on mating flights early in life and stores their sperm.",
     "Soon after emerging she makes one or a few mating flights, mating with a dozen or more "
     "drones and storing their sperm for the rest of her life."),
    ("Individuals have the right not to be subject to solely automated decisions that have "
     "legal or similarly significant effects.", "Automated decisions: you can refuse to be "
     "subject to decisions made solely by automated means, including profiling, where they "
     "have legal or similarly significant effects."),
    ("On Linux and macOS, the environment is activated with source .venv/bin/activate.",
     "Use the standard-library venv module, built in since Python 3.3: run `python -m venv "
     ".venv`, then `source .venv/bin/activate` (or `.venv\\Scripts\\activate` on Windows)."),
])
def test_set_3_faithful_sentences_are_no_contradiction(fact: str, said: str) -> None:
    assert _conflict(fact, [said]) is None


@pytest.mark.parametrize(("fact", "said", "slot"), [
    ("A covering index means the database need not read the table.",
     "A covering index means the database must read the table.", "negation"),
    ("You cannot buy the drug without a prescription.",
     "You can buy the drug without a prescription.", "negation"),
    ("About 69% of Earth's fresh water is locked in ice caps and glaciers.",
     "Around 97 percent of all water on Earth is salty, and of the fresh water, about a third "
     "is locked in glaciers and ice caps.", "number"),
    ("Her mother, Annabella Milbanke, had her educated in mathematics.",
     "Her mother, Mary Shelley, had her educated in mathematics.", "name"),
    ("The poem was written by Lord Tennyson in 1850.",
     "The poem was written by Lord Byron in 1850.", "name"),
    ("A queen mates with many drones on mating flights.",
     "A queen mates with few drones on mating flights.", "antonym"),
    ("He did not start or score a goal in the final.", "He started and scored a goal in the "
     "final.", "negation"),
    ("On Linux and macOS, the environment is activated with source .venv/bin/activate.",
     "On Windows, the environment is activated with source .venv/bin/activate.", "name"),
])
def test_set_3_rules_keep_what_is_wrong(fact: str, said: str, slot: str) -> None:
    found = contradiction(fact, said, said)
    assert found is not None and found.slot == slot, found


def test_a_small_letter_with_a_stop_ends_a_sentence() -> None:
    # set 3: the two sentences read as one, the first one's "doesn't" denied the second's fact
    from factgraph.stages.text_units import split_sentences

    text = ("For multi-column indexes, the order of columns doesn't matter much: an index on "
            "(a, b) works equally well for a query that filters only on b. It's also worth "
            "knowing that an index that includes every column the query needs lets the "
            "database skip reading the table entirely.")
    assert len(split_sentences(text)) == 2
    fact = ("A covering index contains all the columns a query needs, so the table itself need "
            "not be read.")
    assert _conflict(fact, split_sentences(text)) is None
    assert len(split_sentences("It was built c. 1500 by monks. Roe v. Wade was decided in "
                               "1973.")) == 2


# sets 4 and 5 (measured once as written, then read one by one): each false alarm a rule
@pytest.mark.parametrize(("fact", "said"), [
    # the micro sign is a unit's prefix: "150 µg" is no "150 g"
    ("Adults are recommended to get 150 µg of iodine per day, the US recommended dietary "
     "allowance.", "Adults: 150 micrograms (µg) a day, the recommended dietary allowance."),
    # a number that names an asteroid, left out where the sentence names it
    ("The spacecraft arrived at the near-Earth asteroid 162173 Ryugu on 27 June 2018.",
     "It arrived at Ryugu, a C-type asteroid roughly 900 metres across, on June 27, 2018, when "
     "the asteroid was about 28 million km from Earth."),
    # "answered no" gives the answer, it negates nothing
    ("George Berkeley answered no in An Essay towards a New Theory of Vision, published in "
     "1709.", "Berkeley pushed the negative answer further in An Essay towards a New Theory of "
     "Vision (1709)."),
    # a name by the initials the fact defines
    ("Statutory Maternity Pay (SMP) is paid for up to 39 weeks.",
     "You're entitled to up to 52 weeks' leave, 26 weeks' Ordinary and 26 weeks' Additional "
     "Maternity Leave, and SMP runs for up to 39 of those weeks."),
    # a year counted from another ("two years earlier" than 1901)
    ("The Manx Language Society was founded in 1899 to preserve the language.",
     "By 1901 the census found only about 4,400 speakers, and the language society had been "
     "founded just two years earlier."),
    # what remains of two values the sentence gives
    ("For the remaining 33 weeks, SMP is £187.18 a week or 90% of average weekly earnings, "
     "whichever is lower.", "You get up to 39 weeks of SMP: 90% of average weekly pay for 6 "
     "weeks, then £187.18/week or 90% if lower."),
])
def test_sets_4_and_5_faithful_sentences_are_no_contradiction(fact: str, said: str) -> None:
    assert _conflict(fact, [said]) is None


@pytest.mark.parametrize(("fact", "said", "slot"), [
    ("Adults are recommended to get 150 µg of iodine per day.",
     "Adults are recommended to get 150 mg of iodine per day.", "number"),
    ("Three Republicans voted against the bill in the Senate.",
     "Five Republicans voted against the bill in the Senate.", "number"),
    ("The committee answered no and did not approve the plan in 2019.",
     "The committee approved the plan in 2019.", "negation"),
    ("Statutory Maternity Pay is paid for up to 39 weeks by the employer.",
     "Statutory Maternity Leave is paid for up to 39 weeks by the employer.", "name"),
    ("The Manx Language Society was founded in 1899 to preserve the language.",
     "By 1901 the census found only about 4,400 speakers, and the language society had been "
     "founded just five years earlier.", "number"),
    ("For the remaining 33 weeks, SMP is £187.18 a week or 90% of average weekly earnings.",
     "For 6 weeks SMP is 90% of pay, then for the remaining 30 weeks £187.18 a week.",
     "number"),
])
def test_sets_4_and_5_rules_keep_what_is_wrong(fact: str, said: str, slot: str) -> None:
    found = _conflict(fact, [said])
    assert found is not None and found[1].slot == slot, found


# set 6 (measured once as written, held out from the calibration): three false alarms ruled
@pytest.mark.parametrize(("fact", "said"), [
    # the fact gives one value in two units; the sentence states it in one of them
    ("The ChaCha20 cipher uses a secret key that is 256 bits, or 32 bytes, long.",
     "It takes a 256-bit key and generates keystream in 64-byte blocks, which are simply XORed "
     "with the data."),
    # "sixteen 32-bit words": sixteen counts the words, it measures no bits
    ("ChaCha20 operates on a 512-bit state arranged as a four-by-four matrix of sixteen 32-bit "
     "words.", "It works on a 4x4 matrix of 32-bit words (512 bits of state) built from "
     "constants, a 256-bit key, a counter and a nonce."),
    # the head of a name "of" a name the sentence states
    ("Joseph Petzval was born in 1807 in Szepesbéla in the Kingdom of Hungary, a town now "
     "called Spišská Belá in Slovakia.", "József (Joseph) Petzval, born in 1807 in Szepesbéla, "
     "Upper Hungary (now Spišská Belá, Slovakia), and by then teaching mathematics at the "
     "University of Vienna, worked out the design in 1840."),
])
def test_set_6_faithful_sentences_are_no_contradiction(fact: str, said: str) -> None:
    assert _conflict(fact, [said]) is None


@pytest.mark.parametrize(("fact", "said", "slot"), [
    ("ChaCha20 uses a secret key that is 256 bits long.",
     "ChaCha20 uses a secret key that is 128 bits long.", "number"),
    ("The cipher arranges its state as sixteen 32-bit words.",
     "The cipher arranges its state as sixteen 64-bit words.", "number"),
    ("The University of Oslo was founded in 1811 in the Kingdom of Norway.",
     "The University of Bergen was founded in 1811 in the Kingdom of Norway.", "name"),
])
def test_set_6_rules_keep_what_is_wrong(fact: str, said: str, slot: str) -> None:
    found = _conflict(fact, [said])
    assert found is not None and found[1].slot == slot, found


# set 7 (measured once as written, held out from the calibration): false alarms ruled
@pytest.mark.parametrize(("fact", "said"), [
    # a word that prevents on one side: the other side's "can't" denies what is prevented,
    # not the word both sides say ("inhibits")
    ("Warfarin inhibits the enzyme vitamin K epoxide reductase (VKORC1), preventing the "
     "recycling of vitamin K that is needed to activate clotting factors.",
     "Warfarin is a vitamin K antagonist: it inhibits the enzyme vitamin K epoxide reductase, "
     "so the body can't recycle the vitamin K it needs to switch on several clotting factors."),
    # an "or" inside the negated word's object joins no second word to the negation
    ("Underinsurance occurs when the sum insured is less than the full cost of rebuilding the "
     "home or replacing its contents.",
     "Underinsurance means your sum insured doesn't cover the full cost of rebuilding your "
     "home or replacing its contents."),
    # a clause read alone ("the insurer would pay £4,750") where the sentence states another
    # value of the fact in that unit (£250): its other value (£150) is of another slot
    ("On a £5,000 claim with a total excess of £250, the insurer would pay £4,750.",
     "Bear in mind that for a small loss, e.g. a £150 broken window with a £250 excess, the "
     "insurer won't pay a penny."),
    # a title's other title after "or"
    ("Frankenstein; or, The Modern Prometheus was first published anonymously in London on 1 "
     "January 1818.",
     "Mary Shelley began Frankenstein at 18, in June 1816, after Lord Byron proposed a "
     "ghost-story contest at the Villa Diodati on Lake Geneva, and it was published "
     "anonymously in London on 1 January 1818."),
])
def test_set_7_faithful_sentences_are_no_contradiction(fact: str, said: str) -> None:
    assert _conflict(fact, [said]) is None


@pytest.mark.parametrize(("fact", "said", "slot"), [
    ("Smoking is banned in bars.", "Smoking is not banned in bars.", "negation"),
    ("Warfarin inhibits the enzyme vitamin K epoxide reductase.",
     "Warfarin does not inhibit the enzyme vitamin K epoxide reductase.", "negation"),
    ("He started and scored a goal in the final.",
     "He did not start or score a goal in the final.", "negation"),
    # the title changed, not its other title dropped
    ("Frankenstein; or, The Modern Prometheus was first published by Lackington in London.",
     "Dracula was first published by Lackington in London.", "name"),
    # a clause read alone still meets another value where the sentence gives none of the
    # fact's others in that unit
    ("DOT 4 brake fluid must have a dry boiling point of at least 230 °C and a wet boiling "
     "point of at least 155 °C.",
     "DOT 4 must meet a minimum dry boiling point of 205 °C (401 °F) and a wet boiling point "
     "of 140 °C (284 °F).", "number"),
])
def test_set_7_rules_keep_what_is_wrong(fact: str, said: str, slot: str) -> None:
    found = _conflict(fact, [said])
    assert found is not None and found[1].slot == slot, found


# a value in the fact's unit, where the answer never gives the fact's: the rest of the fact
# may be said in other words (wrong facts of the labelled sets that the rules missed)
@pytest.mark.parametrize(("fact", "said"), [
    ("The written grounds of appeal must be submitted within two months of service of the "
     "judgment.", "The written grounds are due within three months of service."),
    ("The shower should not be used for at least 72 hours so that the cement grout can cure.",
     "Wait 24 hours before using the shower; that is enough for the grout to cure."),
    ("The kākāpō population had recovered to about 250 birds by 2022.",
     "Today: the Department of Conservation's recovery programme, begun in 1989, has built the "
     "population back to around 500 birds by 2022, all living on predator-free islands."),
])
def test_another_value_in_the_fact_s_unit_is_caught_through_a_paraphrase(fact: str,
                                                                         said: str) -> None:
    found = _conflict(fact, [said])
    assert found is not None and found[1].slot == "number", found


@pytest.mark.parametrize(("fact", "said"), [
    # the fact's value stated elsewhere in the answer: the sentence's value is of another slot
    ("The written grounds of appeal must be submitted within two months of service.",
     ["The written grounds are due within three months of service at the latest.",
      "In practice courts expect them within two months."]),
    # two values in the unit: which one is the fact's slot is not known
    ("Maternity leave can start at the earliest 11 weeks before the expected week of "
     "childbirth.", ["You're entitled to up to 52 weeks' leave — 26 weeks' Ordinary and 26 "
                     "weeks' Additional Maternity Leave — and SMP runs for up to 39 of those "
                     "weeks."]),
    # an ordinal is a point, not an amount in the unit
    ("Charlie Austin scored 20 minutes later.",
     ["Charlie Austin headed QPR's second goal of the game on the 35th minute."]),
    # another value of the fact missing from the sentence: another case
    ("Statutory notice from the employer is capped at 12 weeks, reached after 12 years of "
     "service.", ["By law, an employer must give at least one week's notice to someone who has "
                  "worked there between one month and two years, rising by a week per full "
                  "year of service after that."]),
])
def test_a_paraphrase_with_another_value_needs_one_slot_for_it(fact: str,
                                                                said: list[str]) -> None:
    assert _conflict(fact, said) is None


# two values of the fact, each where the fact has the other (sets 4, 7 and 8)
@pytest.mark.parametrize(("fact", "said", "values"), [
    ("TCAS II interrogates the transponders of nearby aircraft on 1030 MHz and receives "
     "their replies on 1090 MHz.", "It interrogates nearby transponders on 1090 MHz and "
     "receives their replies on 1030 MHz, so it works without ground radar.",
     ("1030", "1090")),
    ("Izanami swore to kill 1,000 people a day, and Izanagi replied that he would cause "
     "1,500 to be born each day.", "Izanami swore to kill 1,500 people each day, and Izanagi "
     "replied that he would cause 1,000 to be born.", ("1000", "1500")),
    ("When Izanagi purified himself, Amaterasu was born from his left eye, Tsukuyomi from "
     "his right eye and Susanoo from his nose.", "When he purified himself, Susanoo was born "
     "from his left eye, Tsukuyomi from his right eye and Amaterasu from his nose.",
     ("amaterasu", "susanoo")),
    # a name of two words is one value ("Vladimir Kramnik"), its word on the other side
    ("The Berlin Defence became a top-level weapon after Vladimir Kramnik used it to "
     "neutralise Garry Kasparov in their 2000 World Championship match in London.",
     "The Berlin Defence was revived in 2000, when Garry Kasparov used it to neutralise "
     "Vladimir Kramnik in their World Championship match in London.",
     ("kramnik", "kasparov")),
])
def test_two_values_swapped_are_shown(fact: str, said: str, values: tuple[str, str]) -> None:
    found = contradiction(fact, said, said)
    assert found is not None and found.slot == "swap", found
    assert {found.fact_value.split()[0], found.response_value.split()[0]} == set(values)


@pytest.mark.parametrize(("fact", "said"), [
    # a list said in another order, a sentence built another way, the same sentence
    ("Alice and Bob founded the company in 1990.", "Bob and Alice founded the company in "
     "1990."),
    ("Prices rose from $10 in 2010 to $20 in 2020.", "In 2020 prices were $20, up from $10 "
     "in 2010."),
    ("TCAS II interrogates on 1030 MHz and receives replies on 1090 MHz.",
     "TCAS II interrogates on 1030 MHz and receives replies on 1090 MHz."),
    # "1,500" is a count and "1500" a year: no pair of one kind
    ("The town had 1,500 people in 1800.", "In 1500 the town had 1,800 people."),
])
def test_values_in_their_own_slots_are_no_swap(fact: str, said: str) -> None:
    found = contradiction(fact, said, said)
    assert found is None or found.slot != "swap", found


# set 8's false alarms as written, each mended by a rule that reads the text as a person would
@pytest.mark.parametrize(("fact", "response"), [
    # a word the response writes in lower case opens the sentence: no rival name; "Bridge"
    # of a name the response calls "the bridge" is no name of its own
    ("Construction of the Golden Gate Bridge began on 5 January 1933.",
     ["The bridge spans the strait.", "Work began on 5 January 1933."]),
    # "Washington's Cascade Range" is no "Washington Cascade"
    ("Mount St. Helens in Washington State erupted catastrophically on 18 May 1980 at 8:32 "
     "a.m. local time.", ["On Sunday, May 18, 1980, at 8:32 a.m. Pacific Daylight Time, Mount "
                         "St. Helens in Washington's Cascade Range produced the deadliest "
                         "volcanic event in U.S. history."]),
    # a comma stands between "Galilee" and "Manet's": no "Galilee Manet"
    ("A painting by Édouard Manet (Chez Tortoni) and several works by Edgar Degas were also "
     "stolen.", ["The thieves took The Storm on the Sea of Galilee, Manet's Chez Tortoni, and "
                 "several Degas works on paper."]),
    # an article says no slot
    ("Hangul was created under King Sejong the Great of the Joseon dynasty.",
     ["King Sejong the Great created Hangul, promulgating it in 1446 in the Hunminjeongeum."]),
    # the fact gives one length in two units, rounded ("12 metres (40 feet)": 39.4 feet)
    ("Near the top, Hillary climbed a rock step of about 12 metres (40 feet) that is now "
     "called the Hillary Step.", ["They climbed from Camp IX at around 27,900 ft and got "
                                  "past a 40-ft rock step now called the Hillary Step."]),
    # "more than ten times" is a bound, in words
    ("EUV's 13.5 nm wavelength is more than ten times shorter than the 193 nm light of ArF "
     "lithography.", ["EUV uses 13.5 nm light, versus the 193 nm of ArF scanners — a "
                      "wavelength about 14 times shorter."]),
    # the sentence's denial is the one the fact's other clause says
    ("Hillary took the summit photographs of Tenzing, so no photograph exists of Hillary on "
     "the summit.", ["Hillary photographed Tenzing, so no summit photo of Hillary exists."]),
    # a name of several words given by its initials
    ("Incoterms 2020 were published by the International Chamber of Commerce and took effect "
     "on 1 January 2020.", ["Advisers and the ICC itself recommend FCA instead of FOB under "
                            "Incoterms 2020, in force since 1 January 2020."]),
    # a people's word is no rival of a person's name (FActScore, a fact with a typo)
    ("Jonathan Haagensenis an actor.", ["Jonathan Haagensen is a Brazilian actor born on "
                                        "February 3, 1982, in Rio de Janeiro, Brazil."]),
    ("In 1843 she translated Luigi Menabrea's article on Babbage's Analytical Engine.",
     ["In 1843 she translated an Italian engineer's paper on the Analytical Engine and added "
      "notes of her own."]),
    # across a comma no word stands beside a name ("In France, Diderot")
    ("Denis Diderot discussed the problem in his Letter on the Blind, published in 1749.",
     ["In France, Diderot took up the question in his Letter on the Blind (1749)."]),
])
def test_set_8_faithful_sentences_are_no_contradiction(fact: str, response: list[str]) -> None:
    assert _conflict(fact, response) is None


@pytest.mark.parametrize(("fact", "said", "slot"), [
    # kept: a name a whole sentence swaps, a number changed, a range's end against a bound
    ("Eleven workers died during construction of the bridge, ten of them when a scaffold "
     "fell through the safety net on 17 February 1937.", "Nineteen workers died building it, "
     "ten of them on 17 February 1937 when a scaffold crashed through the safety net.",
     "number"),
    ("A court can order the landlord to pay the tenant between one and three times the "
     "deposit.", "The court may order the landlord to pay the tenant up to ten times the "
     "deposit.", "number"),
    ("Declaring a field without a default after a field that has a default raises a "
     "TypeError.", "Declaring a non-default field after one that has a default raises a "
     "`ValueError` at class creation.", "name"),
    ("The drug is approved for children.", "The drug is not approved for children.",
     "negation"),
    # a name spelled out otherwise beside its initials, a name after an abbreviation
    ("Syntactic grammars can guide neural text generation through methods like Recurrent "
     "Neural Network Grammars (RNNGs).", "Syntactic grammars can guide neural text "
     "generation, as in Vandermeer Neural Network Grammars (RNNGs).", "name"),
    ('"Dr." must be used before a name, such as in "Dr. Smith".', '"Dr" is used as a prefix '
     'before a name, such as "Dr. Vandermeer".', "name"),
    # a people's word against a people's word, and one inside an organisation's name
    ("The amulets were found in Egyptian tombs.", "The amulets were found in Roman tombs.",
     "name"),
    ("The Rosetta spacecraft, built by the European Space Agency, was launched on 2 March "
     "2004 from Kourou in French Guiana aboard an Ariane 5 rocket.", "The Rosetta "
     "spacecraft, built by NASA, was launched on 2 March 2004 from Kourou in French Guiana "
     "aboard an Ariane 5 rocket.", "name"),
])
def test_set_8_rules_keep_what_is_wrong(fact: str, said: str, slot: str) -> None:
    found = contradiction(fact, said, said)
    assert found is not None and found.slot == slot, found


# where the coverage judge reads the sentence as stating the fact, half of the rest of the fact
# is enough for another value the response never states in its slot
@pytest.mark.parametrize(("fact", "said", "slot"), [
    ("The Sony WH-1000XM5 offers about 30 hours of battery life with ANC switched on.",
     "The Sony WH-1000XM5, one of the most popular models, lasts about 60 hours on a charge "
     "with noise cancelling switched on.", "number"),
    ("The main eruption continued for about nine hours and deposited ash across eleven U.S. "
     "states.", "The eruption kept going for about nine days, spreading ash across eleven "
     "states.", "number"),
    ("In 1922 the composer Manuel de Falla and the poet Federico García Lorca organised the "
     "Concurso de Cante Jondo in Granada to preserve traditional deep song.",
     "1922: Manuel de Falla and Federico García Lorca organise the Concurso de Cante Jondo "
     "in Seville to save the old styles.", "name"),
])
def test_a_sentence_the_judge_reads_as_stating_the_fact_needs_less_of_it(
        fact: str, said: str, slot: str) -> None:
    assert contradiction(fact, said, said) is None  # too little of the fact on words alone
    found = contradiction(fact, said, said, judged_stated=True)
    assert found is not None and found.slot == slot, found


@pytest.mark.parametrize(("fact", "said"), [
    # the other unit is one the fact gives another number in
    ("Statutory notice from the employer is capped at 12 weeks, reached after 12 years of "
     "service.", "By law your employer must give one week per full year of service, up to a "
     "maximum of 12 weeks."),
    # a name linked by "of" alone is no slot, where only half the fact stands
    ("Edmund Hillary and Tenzing Norgay made the first ascent of Mount Everest, reaching the "
     "summit on 29 May 1953.", "Edmund Hillary and Tenzing Norgay reached the top on 29 May "
     "1953, as part of John Hunt's British expedition."),
])
def test_a_sentence_the_judge_reads_as_stating_the_fact_still_needs_a_slot(
        fact: str, said: str) -> None:
    assert contradiction(fact, said, said, judged_stated=True) is None


def test_a_relation_that_holds_both_ways_is_no_swap() -> None:
    fact = "Niece / Zala will go with Abby Bishop when she starts playing in the U.S. WNBA"
    said = ("Bishop will go with Zala to the U.S. This may when she starts playing for the "
            "Seattle Storm in the WNBA .")
    assert contradiction(fact, said, said) is None


@pytest.mark.parametrize(("fact", "said"), [
    # REALSumm's originals (present facts): a headline's capitals, a capitalised preposition,
    # a rival linked by a preposition only
    ("Governing Body asked Bangladeshi president to withdraw his statement or apologise.",
     "The ICC asked him to withdraw his statement or apologise for his outburst."),
    ("David Axelrod was hired by Labour leader Ed Miliband.",
     "He was hired by Labour leader Amid great fanfare last year."),
    ("Danny Higginbotham played for Sunderland during the 2007 - 08 season",
     "The former Manchester United defender was about to take on Aston Villa during the "
     "2007 - 08 Premier League season ."),
])
def test_half_the_fact_needs_a_name_in_a_real_slot(fact: str, said: str) -> None:
    assert contradiction(fact, said, said, judged_stated=True) is None


def test_a_people_s_word_after_the_opening_article_is_alone() -> None:
    fact = "The Irish scientist William Molyneux first posed the problem in a letter to John " \
        "Locke in 1688."
    said = ("William Molyneux, a Dublin scientist and politician, put it to John Locke in a "
            "letter of 1688: imagine a man blind from birth.")
    assert contradiction(fact, said, said, judged_stated=True) is None


def test_a_text_lower_cased_whole_keeps_its_names() -> None:
    # REALSumm's summaries are lower-cased: "higginbotham" in lower case elsewhere is still a
    # name, and "danny Vandermeer" still another man
    fact = "Danny Higginbotham played for Sunderland."
    response = ["danny higginbotham played for several clubs .",
                "former sunderland defender danny Vandermeer has described a speech ."]
    found = _conflict(fact, response)
    assert found is not None and found[1].slot == "name", found


# Set 9's faithful answers (written after set 8's rules, measured once as written) and the
# changed answers of the long-answer sets: each pair below was read wrong before its rule.
@pytest.mark.parametrize(("fact", "response"), [
    # both sides deny the same thing; the sentence only leaves the count's unit out
    ("The British lost no ships, while the Franco-Spanish fleet lost 22 ships.",
     ["The British lost no ships, while the combined fleet lost 22, and Villeneuve was taken "
      "prisoner."]),
    # one country by another of its names
    ("The UK switched to decimal currency on 15 February 1971, known as Decimal Day.",
     ["Britain switched to decimal currency on 15 February 1971, replacing the old system of "
      "240 pence to the pound with 100 new pence to the pound."]),
    # a number of the fact missing where the sentence gives others: another one's numbers
    ("A British fleet of 27 ships of the line defeated a combined French and Spanish fleet of "
     "33 ships of the line.",
     ["Combined fleet: 33 ships of the line, 18 French and 15 Spanish, under the French "
      "Vice-Admiral Pierre-Charles Villeneuve."]),
    # a people's word against someone's own
    ("A British fleet of 27 ships of the line defeated a combined French and Spanish fleet of "
     "33 ships of the line.",
     ["Nelson's fleet was outnumbered, with 27 ships of the line against 33, but better-trained "
      "British crews had the edge."]),
    # a year before a noun dates that thing
    ("The Arecibo telescope was completed in 1963.",
     ["Arecibo was a 305-metre radio telescope in Puerto Rico, famous for the 1974 Arecibo "
      "message to the star cluster M13."]),
    # the denial is of another one, in its own part of the sentence
    ("XLOOKUP takes separate lookup and return arrays, so it can return values from columns to "
     "the left of the lookup column.",
     ["VLOOKUP searches only the first column of a table and can't return values to its left; "
      "XLOOKUP uses separate lookup and return ranges, so it can look either way."]),
])
def test_set_9_faithful_sentences_are_no_contradiction(fact: str, response: list[str]) -> None:
    assert _conflict(fact, response) is None


@pytest.mark.parametrize(("fact", "said", "slot"), [
    # one end of a range changed, the other kept: the kept end marks the slot
    ("FICO scores range from 300 to 850.",
     "In the US, the most widely used score is FICO, which runs from 603 to 850.", "number"),
    # "An" of a title is no part of another name ("Vandermeer" holds "an")
    ("George Berkeley answered no in An Essay towards a New Theory of Vision, published in "
     "1709.", "In An Essay towards a New Theory of Vision (1709), George Vandermeer also "
     "answered no.", "name"),
    # "-born" is no alias ("Spanish-born Pope Vandermeer VI" gives no other name of the Pope)
    ("Pope Alexander VI issued the bull Inter caetera.",
     "Ferdinand and Isabella turned to the Spanish-born Pope Vandermeer VI, who issued the bull "
     "Inter caetera in 1493.", "name"),
    # a direction inside a hyphened word (set 9's wrong fact: "north-west" for "south-west")
    ("The Battle of Trafalgar took place off Cape Trafalgar on the south-west coast of Spain.",
     "The Battle of Trafalgar was fought on 21 October 1805 off Cape Trafalgar, on the "
     "north-west coast of Spain.", "direction"),
    # what the rules above must not lose
    ("The UK banned it in 1920.", "France banned it in 1920.", "name"),
    ("The Spanish fleet sailed in 1588.", "The French fleet sailed in 1588.", "name"),
    ("The Arecibo telescope was completed in 1963.",
     "The Arecibo telescope was completed in 1974.", "number"),
    ("XLOOKUP can return values to the left.",
     "XLOOKUP can't return values to the left; VLOOKUP can.", "negation"),
])
def test_set_9_rules_keep_what_is_wrong(fact: str, said: str, slot: str) -> None:
    found = contradiction(fact, said, said)
    assert found is not None and found.slot == slot, found


def test_a_range_inside_the_fact_s_range_with_both_ends_changed_is_no_conflict() -> None:
    assert contradiction("The geyser erupts every 5 to 10 minutes.",
                         "The geyser erupts every 6 to 8 minutes.", "x") is None


def test_a_first_name_changed_where_the_rest_of_the_fact_stands_is_wrong() -> None:
    # the response names Pierre elsewhere; the sentence the judge reads as stating the fact
    # holds every other word of it, so the first name beside "Curie" is another man's
    fact = "She married Pierre Curie in 1895."
    said = "There she met Vandermeer Curie, whom she married in 1895."
    response = f"She worked with her husband, Pierre, on radium. {said}"
    found = contradiction(fact, said, response, judged_stated=True)
    assert found is not None and found.slot == "name", found
    # not where the judge does not read it as stating the fact
    assert contradiction(fact, said, response) is None


# Set 10 (written after set 9's rules, measured once as written): its faithful sentences read
# wrong, and its wrong facts the rules could read
@pytest.mark.parametrize(("fact", "response"), [
    # a determiner opening a sentence is no name
    ("Asian elm species such as the Siberian elm are generally more resistant to Dutch elm "
     "disease than European and American elms.",
     ["Some elms are faring better than others: Asian species such as the Siberian elm are "
      "much more resistant, and breeders have crossed them with European elms."]),
    # "receiving none" denies as "received no" does
    ("The 'learner' in the Milgram experiment was an actor who received no real shocks.",
     ["In Milgram's obedience study at Yale, volunteers were ordered to give what they believed "
      "were increasingly painful electric shocks to a 'learner' who was really an actor "
      "receiving none."]),
    # the last one and the next one are two events
    ("Halley's Comet last passed perihelion in February 1986.",
     ["Its next perihelion is due in July 2061, which should give a much better show than its "
      "dim last appearance."]),
    # the sentence's year dates another word of the fact
    ("Edmond Halley died in 1742, before the comet's predicted return.",
     ["The English astronomer Edmond Halley worked out that several historic comets were the "
      "same body and predicted its return for 1758; when it duly reappeared, it was named in "
      "his honour."]),
])
def test_set_10_faithful_sentences_are_no_contradiction(fact: str, response: list[str]) -> None:
    assert _conflict(fact, response) is None


@pytest.mark.parametrize(("fact", "said", "slot"), [
    # a whole range in another unit
    ("Darjeeling tea is grown at elevations of roughly 600 to 2,000 metres.",
     "The estates lie at altitudes of about 600 to 2,000 feet, and the thin air slows the "
     "growth of the leaf.", "number"),
    # the fact's value moved to another slot, another value in its own
    ("Each Maltese electoral district returns five members of parliament.",
     "The islands are divided into five electoral districts, each of which returns 13 members "
     "of parliament.", "number"),
    # what the rules above must not lose
    ("Halley's Comet last passed perihelion in February 1986.",
     "Halley's Comet last passed perihelion in February 1988.", "number"),
    ("Edmond Halley died in 1742.", "Edmond Halley died in 1748.", "number"),
    ("The learner received no real shocks.", "The learner received real shocks.", "negation"),
])
def test_set_10_rules_keep_what_is_wrong(fact: str, said: str, slot: str) -> None:
    found = contradiction(fact, said, said)
    assert found is not None and found.slot == slot, found


def test_a_year_after_a_title_in_brackets_is_still_its_date() -> None:
    fact = ("George Berkeley answered no in An Essay towards a New Theory of Vision, published "
            "in 1709.")
    said = "Berkeley pushed the negative answer further in An Essay towards a New Theory of " \
        "Vision (1712)."
    found = contradiction(fact, said, said, judged_stated=True)
    assert found is not None and found.slot == "number", found


@pytest.mark.parametrize(("fact", "response"), [
    # the fact's value glued to a designation's letters: the value named
    ("The Gutenberg Bible is also called the 42-line Bible because most of its pages have 42 "
     "lines per column.",
     ["His best-known product, the Bible, appeared around 1455 in Latin; it is often "
      "nicknamed the B42, as opposed to the 36-line Bible printed a few years later, probably "
      "in Bamberg."]),
    # a year before 1500 after a dating word is a year, not a count
    ("About 180 copies of the Gutenberg Bible were printed.",
     ["Gutenberg built his press in Mainz and used it to print his famous Latin Bible around "
      "1455."]),
    # an opposite followed by a word that is no part of the fact speaks of another thing
    ("Beethoven's Ninth Symphony was his last completed symphony.",
     ["Beethoven's Ninth Symphony was first heard on 7 May 1824 in Vienna, with a finale "
      "setting Schiller's \"Ode to Joy.\""]),
    ("Surtsey is a volcanic island off the south coast of Iceland.",
     ["Surtsey rose from the North Atlantic about 32 km (20 miles) off Iceland's southern "
      "coast, as the southernmost member of the Vestmannaeyjar, or Westman Islands."]),
    # the same negator on both sides: one denial said two ways
    ("In 1987 the last wild California condor was captured, leaving none in the wild.",
     ["The California condor went on the endangered list in 1967, but the decline continued, "
      "and in 1987 the last wild bird was brought into captivity, so none were left flying "
      "free."]),
])
def test_set_11_faithful_sentences_are_no_contradiction(fact: str, response: list[str]) -> None:
    assert _conflict(fact, response) is None


@pytest.mark.parametrize(("fact", "said", "slot"), [
    # the whole name swapped in the same two-word context, the fact's name stated nowhere
    ("Manchester United won the first Premier League title, in 1992–93.",
     "Blackburn Rovers won the inaugural title in 1992–93.", "name"),
    # what the rules above must not lose: a bare count, a count after "in", an opposite
    # before a word of the fact or before a mark, a negator added
    ("About 180 copies of the Gutenberg Bible were printed.",
     "About 150 copies of the Gutenberg Bible were printed.", "number"),
    ("Induction boils water faster than gas.",
     "A large pot of water comes to the boil noticeably slower on induction than on gas.",
     "antonym"),
    ("The RBMK reactor had a positive void coefficient.",
     "The RBMK reactor had a negative void coefficient.", "antonym"),
    ("After retroflecting, the water flows east back into the Indian Ocean.",
     "After retroflecting, the water flows west back into the Indian Ocean.", "direction"),
    ("In 1987 the last wild California condor was captured, leaving none in the wild.",
     "In 1987 the last wild California condor was not captured, leaving none in the wild.",
     "negation"),
])
def test_set_11_rules_keep_what_is_wrong(fact: str, said: str, slot: str) -> None:
    found = contradiction(fact, said, said, judged_stated=True)
    assert found is not None and found.slot == slot, found


@pytest.mark.parametrize(("fact", "response"), [
    # a number followed by "each" counts nothing of its own: the fact's value is given
    ("In rugby union a penalty goal is worth three points.",
     ["A try is worth 5 points and a conversion 2; penalty goals and drop goals are 3 each."]),
    # a word of the fact's name written in lower case is no part of the other name
    ("Mary Anning's fossils came from the cliffs at Lyme Regis, on what is now the Jurassic "
     "Coast.",
     ["Mary Anning was a fossil collector from Lyme Regis on the Dorset coast, born in 1799."]),
    # the fact's lake named elsewhere, this sentence speaking of it first as "the lake"
    ("Lake Baikal usually freezes over from about January to May.",
     ["Lake Baikal is in Siberia.",
      "The lake freezes from about January to May, and UNESCO added it to the World Heritage "
      "List in 1996, while Lake Tanganyika, the second-deepest lake, lies thousands of "
      "kilometres away in Africa."]),
])
def test_set_12_faithful_sentences_are_no_contradiction(fact: str, response: list[str]) -> None:
    assert _conflict(fact, response) is None


@pytest.mark.parametrize(("fact", "said", "response", "slot"), [
    # what the rules above must not lose: another name before the common word, the other
    # name's capital word, a capitalised name part opening the fact
    ("Lake Baikal is the deepest lake in the world.",
     "Lake Tanganyika is the deepest lake in the world.",
     "Lake Baikal is in Siberia. Lake Tanganyika is the deepest lake in the world.", "name"),
    ("Drew Miller scored twice in the final.", "Drew Vandermeer scored twice in the final.",
     "Drew Vandermeer scored twice in the final.", "name"),
    ("In 1922 Manuel de Falla and Federico García Lorca organised the Concurso de Cante Jondo "
     "in Granada to preserve traditional deep song.",
     "1922: Manuel de Falla and Federico García Lorca organise the Concurso de Cante Jondo in "
     "Seville to save the old styles.",
     "1922: Manuel de Falla and Federico García Lorca organise the Concurso de Cante Jondo in "
     "Seville to save the old styles.", "name"),
    ("In rugby union a penalty goal is worth three points.",
     "In rugby union a penalty goal is worth two points.",
     "In rugby union a penalty goal is worth two points.", "number"),
    # a longer name written in lower case keeps its words: the changed one is still a name
    ("Syntactic grammars can guide neural text generation through methods like Recurrent "
     "Neural Network Grammars (RNNGs).",
     "Syntactic grammars can guide neural text generation, for example with Vandermeer neural "
     "network grammars (RNNGs).",
     "Syntactic grammars can guide neural text generation, for example with Vandermeer neural "
     "network grammars (RNNGs). They are one option.", "name"),
])
def test_set_12_rules_keep_what_is_wrong(fact: str, said: str, response: str,
                                         slot: str) -> None:
    found = contradiction(fact, said, response, judged_stated=True)
    assert found is not None and found.slot == slot, found
