"""The one catalog of user-facing text. `t("key", locale, **values)` renders a sentence.

English is the only language yet; a translation is another module with the same keys, added to
CATALOGS under its Discord locale ("pt-BR", "fr", ...). Missing keys fall back to English.
"""

from __future__ import annotations

from bot.texts.en import STRINGS as ENGLISH

CATALOGS: dict[str, dict[str, str]] = {"en": ENGLISH}


def t(key: str, locale: str | None = None, /, **values: object) -> str:
    catalog = CATALOGS.get(locale or "en") or CATALOGS.get((locale or "en").split("-")[0], ENGLISH)
    template = catalog.get(key) or ENGLISH[key]
    return template.format(**values) if values else template
