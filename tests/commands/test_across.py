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
