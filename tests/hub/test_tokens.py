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


def test_scopes_are_made_from_names_as_typed_and_a_bad_name_is_named():
    assert tokens.scopes(False, [" payments ", "", "acme/search"]) == ["publish:acme/search", "publish:payments"]
    for bad in ("../etc", "-x", "a b", "é"):
        with pytest.raises(UsageError, match=f"^{re.escape(repr(bad))} is no repository name the hub takes$") as said:
            tokens.scopes(False, [bad])
        assert said.value.hint == "a name adr hub publish uses, e.g. payments or acme/payments"
    with pytest.raises(UsageError, match=r"^a token reads or publishes$") as both:
        tokens.scopes(True, ["payments"])
    assert both.value.hint == "adr hub token add NAME --read, or --publish REPOSITORY (once for each)"


def test_a_scope_allows_only_what_it_names():
    assert not tokens.allows([], tokens.READ)
    assert not tokens.allows(["publish:payments"], "publish")  # no repository named: nothing to publish
    assert not tokens.allows(["publish:payments"], "publish", "payments/extra")
    assert not tokens.allows(["publish:pay"], "publish", "payments")  # a prefix is not the name
    assert not tokens.allows(["read"], "admin")
    assert tokens.allows(["read", "publish:a", "publish:b"], "publish", "b")


def test_the_digest_is_the_token_s_sha256_and_never_the_same_for_two():
    import hashlib

    assert tokens.digest("adrh_abc") == hashlib.sha256(b"adrh_abc").hexdigest()
    assert tokens.digest("adrh_abc") != tokens.digest("adrh_abd")
    assert tokens.new().startswith(tokens.PREFIX)
    with pytest.raises(UsageError, match=r"^'a b' is not a token name$") as said:
        tokens.checked_name("a b")
    assert said.value.hint == "letters, digits, '.', '_' and '-', e.g. ci-payments"
