"""hub.wording: what a question's word matches in the hub's passages, one way for every store."""

from __future__ import annotations

from adr_memory.hub import wording


def test_a_word_is_used_as_itself_its_stem_or_the_start_of_a_longer_one():
    vocabulary = set(wording.words_in("Orders live in PostgreSQL; payments settle nightly."))
    assert wording.uses(vocabulary, "payment")  # the stem
    assert wording.uses(vocabulary, "lives")
    assert wording.uses(vocabulary, "postgres")  # the start of a longer word
    assert not wording.uses(vocabulary, "pay")  # too short to stand for "payments"
    assert not wording.uses(vocabulary, "kafka")


def test_the_share_of_the_question_a_passage_speaks_to():
    assert wording.share(["orders", "kafka"], "Orders live in PostgreSQL.") == 0.5
    assert wording.share([], "anything") == 0.0


def test_a_passage_s_words_are_its_lowercase_letters_and_digits():
    assert wording.words_in("PostgreSQL 16, e-mail & S3!") == ["postgresql", "16", "e", "mail", "s3"]
    assert wording.words_in("") == []


def test_a_word_s_stems_are_itself_and_itself_without_an_ending_that_leaves_three_letters():
    assert wording._stems("lives") == {"lives", "live", "liv"}
    assert wording._stems("queued") == {"queued", "queu"}
    assert wording._stems("uses") == {"uses", "use"}  # "us" would be too short
    assert wording._stems("bus") == {"bus"}
    assert wording._stems("caching") == {"caching", "cach"}


def test_forms_match_both_ways_and_case_does_not_matter():
    vocabulary = set(wording.words_in("The service caches queued events."))
    assert wording.uses(vocabulary, "Caching")  # cach: caches and caching share it
    assert wording.uses(vocabulary, "QUEUE")  # the start of "queued"
    assert not wording.uses(vocabulary, "queen")
    assert wording.uses(vocabulary, "queues")  # queu
    assert wording.uses(vocabulary, "event")
    assert wording.uses(vocabulary, "serv")  # four letters starting a longer word
    assert not wording.uses(vocabulary, "ser")  # three do not
    assert not wording.uses(set(), "anything")


def test_a_share_is_of_the_question_s_words_as_given():
    assert wording.share(["orders", "orders", "kafka", "x"], "Orders and more orders") == 0.5
    assert wording.share(["kafka"], "") == 0.0
