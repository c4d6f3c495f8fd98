"""search.words: the words of a question and of a record, in any script, as the index reads them."""

from __future__ import annotations

import unicodedata

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
