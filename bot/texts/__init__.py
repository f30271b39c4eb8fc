"""The one catalog of user-facing text. `t("key", locale, **values)` renders a sentence.

English is the source (`bot/texts/en.py`: STRINGS, and PLURALS for counted words). Every other
language is one gettext catalog, `bot/texts/locales/<lang>.po`: each entry's msgctxt is the key,
its msgid the English text, its msgstr the translation. The .po files are read and compiled in
memory by Babel on first use (no .mo in the tree). `python3 dev.py translations [LANG]` brings
every .po (or a new one) up to date with en.py. Plural forms come from the catalog's own
Plural-Forms rule: `n("plural.points", locale, 3)` -> "3 points" / "3 pontos".

Discord locales map to catalogs by language: "pt-BR" -> pt_BR, "es-ES"/"es-419" -> es,
"en-US"/"en-GB" -> English. A locale without a catalog, or a key not translated yet, falls back
to English.
"""

from __future__ import annotations

import gettext
import io
from functools import cache
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from bot.texts.en import PLURALS
from bot.texts.en import STRINGS as ENGLISH

LOCALES_DIR = Path(__file__).resolve().parent / "locales"
PLURAL_ZERO = frozenset({"pt_BR"})  # catalogs whose zero takes the plural form


def catalog_names() -> list[str]:
    """The languages with a catalog, as gettext names ("pt_BR", "fr", ...)."""
    return sorted(path.stem for path in LOCALES_DIR.glob("*.po"))


@cache
def translations(name: str) -> gettext.GNUTranslations:
    with (LOCALES_DIR / f"{name}.po").open("rb") as po:
        catalog = read_po(po, locale=name)
    compiled = io.BytesIO()
    write_mo(compiled, catalog)
    compiled.seek(0)
    return gettext.GNUTranslations(compiled)


@cache
def catalog_for(locale: str | None) -> str | None:
    """The catalog name for a Discord locale, or None for English."""
    if not locale:
        return None
    names = catalog_names()
    exact = locale.replace("-", "_")
    if exact in names:
        return exact
    language = exact.split("_")[0]
    return language if language in names else None


def t(key: str, locale: str | None = None, /, **values: object) -> str:
    english = ENGLISH[key]
    name = catalog_for(locale)
    template = translations(name).pgettext(key, english) if name else english
    return template.format(**values) if values else template


def n(key: str, locale: str | None, count: int, /, **values: object) -> str:
    """A counted phrase ("1 point", "2 points") in the locale's plural forms."""
    singular, plural = PLURALS[key]
    name = catalog_for(locale)
    if name:
        # Brazilian usage counts zero in the plural ("0 pontos", issue 21 item 9); the
        # catalog's rule, from CLDR's Portuguese, would say "0 ponto".
        rule_count = 2 if count == 0 and name in PLURAL_ZERO else count
        template = translations(name).npgettext(key, singular, plural, rule_count)
    else:
        template = singular if count == 1 else plural
    return template.format(count=count, **values)
