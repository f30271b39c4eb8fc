"""Keep the translations in step with the English source: `python3 dev.py translations [LANG]`.

Every `bot/texts/locales/*.po` (and a new one for each LANG given, e.g. `de` or `pt_BR`) is
rewritten with exactly the keys of en.py: a new key arrives with an empty msgstr, a key whose
English changed keeps its old translation marked fuzzy (shown in English until a translator
checks it), a removed key goes. `problems()` lists what a translator still has to do; the test
command fails on any.
"""

from __future__ import annotations

import string
import sys
from pathlib import Path

from babel import Locale
from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import read_po, write_po

from bot.texts import LOCALES_DIR, catalog_names
from bot.texts.en import PLURALS, STRINGS

MsgId = str | tuple[str, ...]


def english_entries() -> dict[str, MsgId]:
    return {**STRINGS, **PLURALS}


def babel_locale(name: str) -> Locale:
    return Locale.parse(name)


def read(name: str) -> Catalog:
    with (LOCALES_DIR / f"{name}.po").open("rb") as po:
        return read_po(po, locale=babel_locale(name))


def entries(catalog: Catalog) -> dict[str, Message]:
    return {str(m.context): m for m in catalog if m.id and m.context}


def update(name: str) -> Path:
    path = LOCALES_DIR / f"{name}.po"
    old = entries(read(name)) if path.exists() else {}
    locale = babel_locale(name)
    catalog = Catalog(locale=locale, project="cards bot", fuzzy=False)
    for key, english in english_entries().items():
        previous = old.get(key)
        translation: MsgId = "" if isinstance(english, str) else ("",) * catalog.num_plurals
        flags: set[str] = set()
        if previous is not None and previous.string and any(previous.string):
            translation = (
                previous.string if isinstance(previous.string, str) else tuple(previous.string)
            )
            if previous.id != english or previous.fuzzy:
                flags.add("fuzzy")
        catalog.add(english, translation, context=key, flags=flags)
    LOCALES_DIR.mkdir(exist_ok=True)
    with path.open("wb") as po:
        write_po(po, catalog, width=100, omit_header=False, sort_output=False)
    return path


def fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def problems(name: str) -> list[str]:
    """Everything that keeps the catalog from being complete, one line each, naming the key."""
    catalog = read(name)
    found = entries(catalog)
    out: list[str] = []
    for key, english in english_entries().items():
        message = found.get(key)
        if message is None:
            out.append(f"{name}: {key} is missing (run python3 dev.py translations)")
            continue
        if message.id != english:
            out.append(f"{name}: {key} translates an older English text")
        if message.fuzzy:
            out.append(f"{name}: {key} is marked fuzzy: check the translation")
        sources = [english] if isinstance(english, str) else list(english)
        string = message.string or ""
        forms = [string] if isinstance(string, str) else list(string)
        if len(forms) != (1 if isinstance(english, str) else catalog.num_plurals):
            out.append(f"{name}: {key} has {len(forms)} forms")
        want = set().union(*(fields(s) for s in sources))
        for form in forms:
            if not form:
                out.append(f"{name}: {key} is not translated")
            elif fields(form) - want or (isinstance(english, str) and fields(form) != want):
                out.append(f"{name}: {key} changes the placeholders ({sorted(fields(form))})")
    out += [f"{name}: {key} is not in en.py" for key in found.keys() - english_entries().keys()]
    return out


def main(args: list[str]) -> int:
    for name in sorted({*catalog_names(), *args}):
        path = update(name)
        todo = problems(name)
        print(f"{path.relative_to(Path.cwd())}: {len(todo)} to translate or check")
        for line in todo[:20]:
            print("  " + line)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
