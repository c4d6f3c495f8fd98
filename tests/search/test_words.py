"""search.words: the words of a question and of a record, in any script, as the index reads them."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from adr_memory.search import words


def test_words_of_any_script_are_whole():
    assert words.words_of("Übertragung über café-Netz") == ["Übertragung", "über", "café", "Netz"]
    assert words.words_of("snake_case and _lead") == ["snake_case", "and", "lead"]


def test_a_decomposed_letter_is_one_letter():
    decomposed = unicodedata.normalize("NFD", "café")
    assert words.words_of(decomposed) == ["café"]


def test_terms_drop_stopwords_single_letters_and_repeats():
    assert words.terms("Where do we keep the session tokens, the tokens?") == ["keep", "session", "tokens"]
    assert words.terms("a b c") == []


def test_titles_compare_without_case_punctuation_or_underscores():
    assert words.norm_title("Use  PostgreSQL_for-Storage!") == words.norm_title("use postgresql for storage")


def test_a_question_without_the_words_the_folder_lacks_keeps_the_rest_as_written():
    assert words.without("Where do our containers ACTUALLY run?", {"actually"}) == "Where do our containers run?"
    assert words.without("which CDN serves the images", {"cdn", "serves", "images"}) == "which the"
    assert words.without("café-Netz über alles", {"café"}) == "-Netz über alles"
    assert words.without("nothing to drop", set()) == "nothing to drop"


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("привет мир базы данных", ["привет", "мир", "базы", "данных"]),  # Cyrillic, whole
        ("数据库 选择", ["数据库", "选择"]),  # CJK runs are words of their own
        ("١٢٣ arabic digits", ["١٢٣", "arabic", "digits"]),  # digits of any script
        ("e.g. k8s/helm-3", ["e", "g", "k8s", "helm", "3"]),  # punctuation cuts, digits stay in words
        ("C++ and C#", ["C", "and", "C"]),  # symbols are no letters
        ("don't", ["don", "t"]),  # the apostrophe cuts a contraction
        ("tab\there\nnew line", ["tab", "here", "new", "line"]),
        ("", []),
        ("--- *** ///", []),
        ("ADR-0007", ["ADR", "0007"]),
    ],
)
def test_words_are_runs_of_letters_and_digits_of_any_script(text, found):
    assert words.words_of(text) == found


def test_a_word_never_starts_with_an_underscore_but_keeps_one_inside():
    assert words.words_of("_private __dunder pg_trgm") == ["private", "dunder", "pg_trgm"]
    assert words.words_of("___") == []


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        # Every word of it is a stopword: nothing distinctive to look up.
        ("Why did we decide to use this?", []),
        ("What should we do about it?", []),
        # The verbs of motion and the practice's own words carry no subject.
        ("why didn't we go with Adyen", ["adyen"]),
        ("which ADR decided we use Kafka via Connect", ["kafka", "connect"]),
        # Case folds, order of first use is kept, repeats go.
        ("Kafka KAFKA kafka Streams", ["kafka", "streams"]),
        ("PostgreSQL vs MySQL, e.g. for orders", ["postgresql", "mysql", "orders"]),
        # A single letter or digit is no term; two are.
        ("a b c 1 2 k8s go2", ["k8s", "go2"]),
        ("Übertragung über das Netz", ["übertragung", "über", "das", "netz"]),
    ],
)
def test_terms_are_the_distinctive_words_in_the_order_first_asked(query, expected):
    assert words.terms(query) == expected


def test_every_contraction_the_apostrophe_leaves_is_a_stopword():
    """`didn't` is cut into `didn` and `t`: neither may become a term, or "why didn't we" would
    look up `didn` in the index."""
    for contraction in ("didn't", "doesn't", "isn't", "aren't", "wasn't", "weren't", "wouldn't", "shouldn't"):
        assert words.terms(f"why {contraction} we") == [], contraction
    assert words.terms("couldn't hasn't haven't hadn't") == []


def test_a_decomposed_question_finds_the_composed_term():
    assert words.terms(unicodedata.normalize("NFD", "Café Übertragung")) == ["café", "übertragung"]


@pytest.mark.parametrize(
    ("left", "right"),
    [
        ("Use PostgreSQL", "use postgresql"),
        ("use_postgresql", "use postgresql"),
        ("Use: PostgreSQL!!", "use postgresql"),
        ("  Use\tPostgreSQL \n", "use postgresql"),
        (unicodedata.normalize("NFD", "Café au lait"), "café au lait"),
    ],
)
def test_a_normalised_title_is_its_lower_case_words_one_space_apart(left, right):
    assert words.norm_title(left) == right


def test_norm_title_keeps_stopwords_and_single_letters():
    """A title is matched whole: "Use A for B" is not "Use B"."""
    assert words.norm_title("Use A for B") == "use a for b"
    assert words.norm_title("") == ""
    assert words.norm_title("!!!") == ""


@pytest.mark.parametrize(
    ("text", "drop", "kept"),
    [
        ("Which CDN do we use", {"cdn"}, "Which do we use"),  # dropped whatever its case
        ("cdn CDN Cdn", {"cdn"}, ""),
        ("keep, the commas, here", {"the"}, "keep, commas, here"),
        ("  spaced   out\ttext\n", set(), "spaced out text"),  # whitespace collapses to one space
        ("Kafkaesque Kafka", {"kafka"}, "Kafkaesque"),  # whole words only
        (unicodedata.normalize("NFD", "über café"), {"über"}, "café"),  # composed before comparing
    ],
)
def test_without_drops_whole_words_in_any_case_and_keeps_the_rest(text, drop, kept):
    assert words.without(text, drop) == kept


@given(st.text(max_size=80))
def test_terms_are_lower_case_unique_and_never_stopwords(text):
    found = words.terms(text)
    assert len(found) == len(set(found))
    for term in found:
        assert term not in words.STOPWORDS and len(term) > 1
        assert term == term.lower()
        assert words.words_of(term) == [term]  # each is a word as the index reads it


@given(st.text(max_size=80))
def test_without_nothing_only_tidies_the_spacing(text):
    composed = unicodedata.normalize("NFC", text)
    assert words.without(text, set()) == " ".join(composed.split())


@given(st.text(max_size=80))
def test_without_every_term_leaves_no_term(text):
    assert words.terms(words.without(text, set(words.terms(text)))) == []


def test_a_word_whose_lower_case_is_longer_stays_one_term():
    (term,) = words.terms("İstanbul")
    assert term.endswith("stanbul") and term != "stanbul"  # the whole word, however its `İ` is folded
