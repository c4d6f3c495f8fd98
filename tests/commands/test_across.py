"""commands.across: `adr hub search`, the local search's fusion and refusal on the hub's passages."""

from __future__ import annotations

from adr_memory.commands import across, hub
from adr_memory.history import Workspace
from tests.helpers import adr_text, service


def test_the_answer_names_its_repository_and_a_question_about_nothing_is_refused(tmp_path, model_cache):
    root = service(
        tmp_path / "search",
        "search",
        {
            "docs/adr/0001-kafka.md": adr_text(
                "Publish catalogue changes on Kafka",
                body="Every product change is an event on the shared Kafka cluster.",
            ),
            "docs/adr/0002-es.md": adr_text(
                "Index the catalogue in OpenSearch", body="Shoppers search the catalogue through OpenSearch."
            ),
        },
    )
    url = str(tmp_path / "hub")
    hub.init(url)
    hub.publish(Workspace.discover(root), url)
    store = hub.open_hub(url)
    answer = across.search(store, "how are product changes announced", cache=hub.model_cache())
    assert (answer["results"][0]["repository"], answer["results"][0]["id"]) == ("search", "ADR-0001")
    refused = across.search(store, "how long should I boil an egg", cache=hub.model_cache())
    assert refused["no_strong_match"] and refused["results"] == [] and refused["confidence"] == "none"


def test_a_repository_the_hub_does_not_hold_is_named_with_the_nearest(tmp_path, capsys, model_cache, monkeypatch):
    """`hub search --repository NAME` for a name the hub does not hold said "No strong match"."""
    from tests.helpers import run

    root = service(tmp_path / "payments", "payments", {"docs/adr/0001-pg.md": adr_text("Keep orders in PostgreSQL")})
    url = str(tmp_path / "hub")
    hub.init(url)
    hub.publish(Workspace.discover(root), url)
    monkeypatch.chdir(root)
    told = run(capsys, "hub", "search", "where do orders live", "--from", url, "--repository", "paymnets", code=2)
    assert told.err == "error: no repository 'paymnets' in the hub\nhint: the nearest: payments\n"


def test_ranked_by_what_a_record_says_and_an_exact_title_first_as_locally(tmp_path, model_cache):
    """The hub ranked by every passage, a title alone included, and had no exact-title match:
    it answered below each repository alone (ADR-0093's rule and `_exact`, now the hub's too)."""
    root = service(
        tmp_path / "platform",
        "platform",
        {
            "docs/adr/0001-mtls.md": adr_text(
                "Services authenticate each other with mTLS",
                body="Every service presents a certificate from the internal CA; calls without one are refused.",
            ),
            "docs/adr/0002-keys.md": adr_text(
                "Engineers reach production with hardware keys",
                body="People log in to production with a hardware security key, or one-time codes from an "
                "authenticator app on their phone as a fallback.",
            ),
            "docs/adr/0003-notify.md": adr_text(
                "GovUK Notify staging service made live", body="We moved out of trial mode in March."
            ),
            "docs/adr/0004-notify-local.md": adr_text(
                "GovUK Notify staging configuration",
                body="The GovUK Notify staging service is made live: it sends real emails from staging, "
                "as the live service does.",
            ),
            "docs/adr/0025-commit.md": "# ADR 025: Commit\n\n## Status\n\nAccepted\n\n## Context\n\n"
            "The Commit structure carries every validator's signature.\n",
        },
    )
    url = str(tmp_path / "hub")
    hub.init(url)
    hub.publish(Workspace.discover(root), url)
    store = hub.open_hub(url)
    said = across.search(store, "can I use Google Authenticator to get into prod", cache=hub.model_cache())
    assert said["results"][0]["id"] == "ADR-0002", said["results"]
    for asked in ("GovUK Notify staging service made live", "3. GovUK Notify Staging Service made Live"):
        exact = across.search(store, asked, cache=hub.model_cache())
        assert exact["results"][0]["id"] == "ADR-0003" and exact["confidence"] == "high", (asked, exact)
    # as its heading writes it (cometbft's `# ADR 025: Commit`): the local search answers it first too
    headed = across.search(store, "ADR 025 Commit", cache=hub.model_cache())
    assert headed["results"][0]["id"] == "ADR-0025" and headed["confidence"] == "high", headed


class _Passages:
    """A store answering `nearest` with set passages (a unit of the ranking's logic: the real
    stores' `nearest` is tested on both in tests/hub/test_store.py)."""

    url = "unit:passages"

    def __init__(self, rows):
        self.rows = rows

    def nearest(self, vector, limit, repository=None, status="", tag=""):
        return self.rows[:limit]

    def docs(self, keys):
        return {key: {"id": key[1], "title": key[1], "status": "accepted"} for key in keys}

    def unused(self, words, repository=None):
        return []


def test_a_passage_deep_in_a_long_record_ranks_as_the_local_search_ranks_it(tmp_path, model_cache):
    """The hub ranked a record by its best passage's plain cosine, where the local search takes
    off a penalty for where the passage starts (a long record's appendix): cometbft's long
    specifications answered below their own repository alone."""
    import numpy as np

    from adr_memory.search import fusion

    rows = [
        ("specs", "ADR-0001", "Appendix B", "we keep logs for thirty days", 0.80, 900),
        ("specs", "ADR-0002", "Decision", "logs are kept for thirty days", 0.78, 0),
    ]
    said = across.search(_Passages(rows), "how long do we keep logs", cache=hub.model_cache(), vector=np.ones(384))
    assert [r["id"] for r in said["results"]] == ["ADR-0002", "ADR-0001"]
    assert fusion.placed(0.80, 900) == 0.80 - fusion.POSITION_PENALTY and fusion.placed(0.80, 200) == 0.775


def test_the_decision_in_force_ranks_above_the_one_it_replaced_as_locally(tmp_path, capsys, model_cache):
    """ "Use MongoDB" matches "which database do we use" best, but an accepted decision replaced
    it: the hub answered with it first, as `superseded` alone, where the repository's own search
    puts its successor first (one rule: search/rows.py)."""
    from tests.helpers import run

    root = service(
        tmp_path / "orders",
        "orders",
        {
            "docs/adr/0001-mongo.md": adr_text(
                "Use MongoDB",
                status="superseded",
                extra="superseded-by: [ADR-0002]",
                body="We use MongoDB as the primary database for every service.",
            ),
            "docs/adr/0002-pg.md": adr_text(
                "Move the primary store to PostgreSQL",
                extra="supersedes: [ADR-0001]",
                body="The primary store moves to PostgreSQL.",
            ),
        },
    )
    url = str(tmp_path / "hub")
    hub.init(url)
    hub.publish(Workspace.discover(root), url)
    answer = across.search(hub.open_hub(url), "which database do we use", cache=hub.model_cache())
    ids = [r["id"] for r in answer["results"]]
    assert ids[:2] == ["ADR-0002", "ADR-0001"], ids
    assert answer["results"][1]["standing"]["label"] == "superseded by ADR-0002"
    said = run(capsys, "hub", "search", "which", "database", "do", "we", "use", "--from", url, code=0).out
    assert "orders ADR-0001 Use MongoDB  [superseded by ADR-0002]" in said
    assert said.index("ADR-0002") < said.index("ADR-0001")
    listed = run(capsys, "hub", "list", "--from", url, code=0).out
    assert "ADR-0001   superseded by ADR-0002 Use MongoDB" in listed  # the text says what holds, as the JSON does
    shown = run(capsys, "hub", "show", "orders", "ADR-0001", "--from", url, code=0).out
    assert "status superseded by ADR-0002;" in shown
