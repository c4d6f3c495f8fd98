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
