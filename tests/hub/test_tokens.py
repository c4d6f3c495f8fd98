"""hub.tokens: made URL-safe and random, kept as a hash, each scope allowing what it names."""

from __future__ import annotations

import re

import pytest

from adr_memory.errors import UsageError
from adr_memory.hub import tokens


def test_a_token_is_url_safe_unique_and_kept_only_as_its_hash():
    made = {tokens.new() for _ in range(50)}
    assert len(made) == 50 and all(re.fullmatch(r"adrh_[A-Za-z0-9_-]{43}", t) for t in made)
    one = next(iter(made))
    assert tokens.digest(one) == tokens.digest(f" {one}\n") and one not in tokens.digest(one)


def test_scopes_read_or_publish_and_what_each_allows():
    assert tokens.scopes(True, []) == ["read"]
    assert tokens.scopes(False, ["payments", "search", "payments"]) == ["publish:payments", "publish:search"]
    for wrong in ((True, ["payments"]), (False, [])):
        with pytest.raises(UsageError):
            tokens.scopes(*wrong)
    assert tokens.allows(["read"], tokens.READ) and not tokens.allows(["read"], "publish", "payments")
    publisher = ["publish:payments"]
    assert tokens.allows(publisher, tokens.READ) and tokens.allows(publisher, "publish", "payments")
    assert not tokens.allows(publisher, "publish", "search")


def test_a_token_name_is_letters_digits_and_a_few_marks():
    assert tokens.checked_name("ci-payments.main_1") == "ci-payments.main_1"
    for bad in ("", "-x", "a b", "x/y", "é" * 3, "a" * 65):
        with pytest.raises(UsageError):
            tokens.checked_name(bad)
