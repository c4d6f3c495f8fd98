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
