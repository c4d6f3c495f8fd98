"""Decision records written in German, French, Spanish, Portuguese, Italian and Dutch
(ADR-0048): the words they use for each status, what they call the Status section and the
`Status:` and `Date:` fields, and how they say "superseded by" and "supersedes".

"Akzeptiert" read as unknown kept a German folder's decisions out of staleness and rules,
which only accepted ones answer to; a Spanish `## Estado` section was no status at all, so
`Propuesto` read as accepted.
"""

from __future__ import annotations

import re

# Per language, the first word of each status is the one an edit writes (the rest are read
# too: both genders, synonyms); "by" is how "superseded by" is said, "replaces" "supersedes".
SAID = {
    "de": {
        "proposed": "Vorgeschlagen vorschlag entwurf",
        "accepted": "Akzeptiert angenommen genehmigt beschlossen entschieden umgesetzt",
        "rejected": "Abgelehnt verworfen",
        "deprecated": "Veraltet obsolet überholt zurückgezogen",
        "superseded": "Ersetzt abgelöst",
        "by": "Ersetzt durch",
        "replaces": "Ersetzt",
    },
    "fr": {
        "proposed": "Proposé proposée proposition brouillon en",
        "accepted": "Accepté acceptée adopté adoptée validé validée approuvé approuvée",
        "rejected": "Rejeté rejetée refusé refusée",
        "deprecated": "Obsolète déprécié dépréciée",
        "superseded": "Remplacé remplacée",
        "by": "Remplacé par",
        "replaces": "Remplace",
    },
    "es": {
        "proposed": "Propuesto propuesta borrador pendiente",
        "accepted": "Aceptado aceptada aprobado aprobada adoptado adoptada",
        "rejected": "Rechazado rechazada",
        "deprecated": "Obsoleto obsoleta deprecado deprecada descontinuado",
        "superseded": "Reemplazado reemplazada sustituido sustituida",
        "by": "Reemplazado por",
        "replaces": "Reemplaza a",
    },
    "pt": {
        "proposed": "Proposto proposta rascunho pendente",
        "accepted": "Aceito aceita aprovado aprovada",
        "rejected": "Rejeitado rejeitada recusado recusada",
        "deprecated": "Obsoleto obsoleta",
        "superseded": "Substituído substituída substituido",
        "by": "Substituído por",
        "replaces": "Substitui",
    },
    "it": {
        "proposed": "Proposto proposta bozza",
        "accepted": "Accettato accettata approvato approvata adottato adottata",
        "rejected": "Respinto respinta rifiutato rifiutata",
        "deprecated": "Deprecato deprecata obsoleto",
        "superseded": "Sostituito sostituita",
        "by": "Sostituito da",
        "replaces": "Sostituisce",
    },
    "nl": {
        "proposed": "Voorgesteld voorstel",
        "accepted": "Geaccepteerd goedgekeurd aangenomen",
        "rejected": "Afgewezen verworpen",
        "deprecated": "Verouderd vervallen",
        "superseded": "Vervangen",
        "by": "Vervangen door",
        "replaces": "Vervangt",
    },
}
# What a record's Status section is called in them (and in English).
STATUS_HEADINGS = frozenset({"status", "statut", "estado", "stato", "situação", "situacao"})
FIELD_NAMES = {
    "statut": "status",
    "estado": "status",
    "stato": "status",
    "datum": "date",
    "fecha": "date",
    "decision status": "status",
}
# "Superseded by ADR-9" as they write it (a pattern's text), and "Supersedes [..](..)".
REPLACED_BY = (
    r"(?:ersetzt|abgelöst)\s+durch|remplacée?\s+par"
    r"|(?:reemplazad|sustituid|substituíd|substituid)[oa]\s+por|sostituit[oa]\s+da|vervangen\s+door"
)
REPLACES = frozenset(said["replaces"].lower() for said in SAID.values())


def _words() -> tuple[dict[str, str], dict[str, str]]:
    """Each word's status, and its language (the first that has it)."""
    status_of: dict[str, str] = {}
    language_of: dict[str, str] = {}
    for language, said in SAID.items():
        for status in (key for key in said if key not in ("by", "replaces")):
            for word in said[status].lower().split():
                status_of.setdefault(word, status)
                if len(word) > 2:  # "en" (En revisión, En cours) says no language
                    language_of.setdefault(word, language)
    return status_of, language_of


STATUS_WORDS, _LANGUAGE_OF = _words()


def written(first_word: str, status: str) -> str | None:
    """`status` (or "by", "replaces") in the language of a status that starts with `first_word`
    (lower case); None when that word is in none of them."""
    language = _LANGUAGE_OF.get(first_word)
    if language is None:
        return None
    said = SAID[language][status]
    return said if status in ("by", "replaces") else said.split()[0]


def is_status_heading(text: str) -> bool:
    """Whether a section title names the record's status (`## Status`, `## Estado`, `**Statut**`),
    however the heading is dressed or numbered (`## 1. Status`, `## 📌 Status`, `## Decision
    status`, `## Status of this decision`)."""
    lower = text.lower()
    if not any(stem in lower for stem in _STATUS_STEMS):  # most headings: asked for every line of every record
        return False
    core = heading_core(lower)
    return core in STATUS_HEADINGS or _QUALIFIED_STATUS.fullmatch(core) is not None


_STATUS_STEMS = ("stat", "estado", "situa")  # a part of every word in STATUS_HEADINGS
_QUALIFIED_STATUS = re.compile(
    r"(?:(?:decision|current|adr|record)[ \t]+)?status"
    r"(?:[ \t]+of[ \t]+(?:the|this)[ \t]+(?:decision|adr|record))?"
)


def heading_core(text: str) -> str:
    """A heading from its first letter to its last: without its number (`1.`, `2)`), emoji,
    bold or colon."""
    start = next((n for n, c in enumerate(text) if c.isalpha()), None)
    if start is None:
        return ""
    end = next(n for n in range(len(text) - 1, start - 1, -1) if text[n].isalpha())
    return " ".join(text[start : end + 1].split())


def field_name(name: str) -> str:
    """A preamble field's name as we read it: `Statut` and `Estado` are `status`."""
    name = name.strip().lower()
    return FIELD_NAMES.get(name, name)


def cased_as(old: str, word: str) -> str:
    """`word` with its first letter in the case of the first letter of `old`, the word it
    replaces (`accepted` -> `deprecated`, `Accepted` -> `Deprecated`, `✅ Accepted` too); a word
    written in capitals stays in capitals (`ACCEPTED` -> `DEPRECATED`)."""
    letters = "".join(c for c in old if c.isalpha())
    if len(letters) > 1 and letters.isupper():
        return word.upper()
    first = letters[:1]
    return (word[:1].lower() if first.islower() else word[:1].upper()) + word[1:]
