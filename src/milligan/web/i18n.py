"""Translations of the browser game: gettext catalogs in, JSON catalogs out.

The gettext catalogs in ``locales/<lang>/LC_MESSAGES/milligan.po`` are the
source of truth. The messages are the English texts the front end passes to
``t("…")``, ``nt("…", "…", n)`` and ``N_("…")`` (in ``static/js``) and puts in
``data-i18n`` attributes (in ``static/index.html``). The browser reads one JSON
catalog per language, ``static/i18n/<lang>.json``, compiled from the ``.po``
files by Babel::

    python -m milligan.web.i18n update    # messages.pot from the sources, merged into each .po
    python -m milligan.web.i18n compile   # the .po files to static/i18n/*.json (the default)
    python -m milligan.web.i18n check     # list missing, empty or fuzzy translations

>>> extract_strings('t("Undo") + nt("{n} row", "{n} rows", n) + N_("a" + "b")')
[('Undo', None), ('{n} row', '{n} rows'), ('ab', None)]
"""

from __future__ import annotations

import io
import json
import re
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import read_po, write_po

from milligan import __version__
from milligan.errors import REASONS

HERE = Path(__file__).parent
STATIC = HERE / "static"
LOCALES = HERE / "locales"
OUTPUT = STATIC / "i18n"
DOMAIN = "milligan"
LANGUAGES = ("en", "pt", "it", "nl", "fr")
SOURCE_LANGUAGE = "en"
#: Two gettext forms everywhere: 0 is CLDR "one", 1 is "other" (the browser picks by Intl).
PLURALS = {"en": "(n != 1)", "pt": "(n != 1)", "it": "(n != 1)", "nl": "(n != 1)", "fr": "(n > 1)"}
HEADER = "# {name} translations of Milligan, the Miss Milligan browser game.\n#"

_CALL = re.compile(r"(?<![\w.$])(t|nt|N_)\(\s*")
_STRING = re.compile(r'"((?:[^"\\\n]|\\.)*)"')
_JOIN = re.compile(r"\s*\+\s*")
_ATTRIBUTE = re.compile(r'data-i18n(?:-label)?="([^"]+)"')
_PLACEHOLDER = re.compile(r"\{(\w+)\}")


def _literal(source: str, at: int) -> tuple[str, int] | None:
    """A string literal, or several joined by ``+``, starting at ``at``."""
    parts: list[str] = []
    while True:
        match = _STRING.match(source, at)
        if match is None:
            return None if not parts else ("".join(parts), at)
        parts.append(json.loads(f'"{match.group(1)}"'))
        at = match.end()
        join = _JOIN.match(source, at)
        if join is None or not _STRING.match(source, join.end()):
            return "".join(parts), at
        at = join.end()


def extract_strings(source: str) -> list[tuple[str, str | None]]:
    """The messages of a JavaScript source: (singular, plural or None) in order."""
    found: list[tuple[str, str | None]] = []
    for call in _CALL.finditer(source):
        first = _literal(source, call.end())
        if first is None:
            continue  # t(variable): translated elsewhere
        text, at = first
        plural = None
        if call.group(1) == "nt":
            comma = re.compile(r"\s*,\s*").match(source, at)
            second = _literal(source, comma.end()) if comma else None
            if second is None:
                raise ValueError(f"nt() needs two literal strings near {text!r}")
            plural = second[0]
        found.append((text, plural))
    return found


def _sources() -> Iterator[tuple[Path, list[tuple[str, str | None]]]]:
    for path in sorted((STATIC / "js").glob("*.js")):
        yield path, extract_strings(path.read_text(encoding="utf-8"))
    html = STATIC / "index.html"
    yield html, [(m, None) for m in _ATTRIBUTE.findall(html.read_text(encoding="utf-8"))]


def extract() -> Catalog:
    """The template catalog: every message the front end uses."""
    template = Catalog(
        project="Milligan",
        version=__version__,
        domain=DOMAIN,
        fuzzy=False,
        msgid_bugs_address="",
        header_comment="# Messages of the Milligan browser game, from static/js and "
        "static/index.html.\n#",
    )
    for path, messages in _sources():
        where = path.relative_to(HERE).as_posix()
        for singular, plural in messages:
            msgid: str | tuple[str, str] = singular if plural is None else (singular, plural)
            existing = template.get(singular)
            if existing is not None:
                existing.locations.append((where, 0))
                continue
            template.add(msgid, locations=[(where, 0)])
    # the engine's refusal reasons: the page words them by code (reasons.js)
    for code, text in REASONS.items():
        existing = template.get(text)
        if existing is not None:
            existing.auto_comments.append(f"refusal reason {code}")
        else:
            template.add(
                text, auto_comments=[f"refusal reason {code}"], locations=[("../errors.py", 0)]
            )
    return template


def po_path(language: str) -> Path:
    return LOCALES / language / "LC_MESSAGES" / f"{DOMAIN}.po"


def read_catalog(language: str) -> Catalog:
    with po_path(language).open("rb") as handle:
        return read_po(handle, locale=language, domain=DOMAIN)


def _write(catalog: Catalog, path: Path, *, template: bool = False) -> None:
    buffer = io.BytesIO()
    write_po(
        buffer,
        catalog,
        width=100,
        omit_header=False,
        sort_output=False,
        ignore_obsolete=True,
        include_previous=False,
        no_location=True,
    )
    path.parent.mkdir(parents=True, exist_ok=True)
    text = buffer.getvalue()
    # Dates in headers would change on every run; keep the files stable.
    text = re.sub(rb'"(POT-Creation-Date|PO-Revision-Date): [^"]*\\n"\n', b"", text)
    path.write_bytes(text)


def update() -> None:
    """Write ``messages.pot`` and merge it into every language's ``.po`` file."""
    template = extract()
    _write(template, LOCALES / "messages.pot", template=True)
    for language in LANGUAGES:
        path = po_path(language)
        if path.exists():
            catalog = read_catalog(language)
            # A fresh template each time: Babel shares the new Message objects.
            catalog.update(extract(), no_fuzzy_matching=True)
        else:
            catalog = Catalog(locale=language, domain=DOMAIN, project="Milligan", fuzzy=False)
            for message in template:
                if message.id:
                    catalog.add(message.id, string=("", "") if message.pluralizable else "")
        # Two gettext forms everywhere (Babel would take CLDR's three for some languages).
        # (private to Babel, whose stubs type them as None)
        catalog._num_plurals = 2  # type: ignore[assignment]
        catalog._plural_expr = PLURALS[language]  # type: ignore[assignment]
        catalog.header_comment = HEADER.format(name=language)
        catalog.project, catalog.version = "Milligan", __version__
        catalog.last_translator = catalog.language_team = "the Milligan project"
        catalog.msgid_bugs_address = ""
        if language == SOURCE_LANGUAGE:
            for message in catalog:
                if message.id and not _complete(message):
                    message.string = message.id
                    message.flags.discard("fuzzy")
        _write(catalog, path)


def _complete(message: Message) -> bool:
    if isinstance(message.string, tuple | list):
        return all(message.string)
    return bool(message.string)


def _key(message: Message) -> str:
    """The message's id, or the singular of a plural message's."""
    return message.id[0] if isinstance(message.id, tuple | list) else message.id


def _forms(message: Message) -> list[str]:
    strings = message.string if isinstance(message.string, tuple | list) else [message.string]
    return [s for s in strings if s]


def compiled(language: str) -> dict[str, Any]:
    """The JSON catalog of one language."""
    catalog = read_catalog(language)
    messages: dict[str, Any] = {}
    for message in catalog:
        if not message.id or "fuzzy" in message.flags or not _complete(message):
            continue
        if message.pluralizable:
            forms = _forms(message)  # all of them, as the message is complete
            # Every language here has two gettext forms: 0 is CLDR "one", 1 is "other".
            messages[_key(message)] = {"one": forms[0], "other": forms[-1]}
        else:
            messages[_key(message)] = message.string
    # the refusal reasons' English wording by code: the page looks a code up
    # here, then translates the wording like any other message
    return {"language": language, "messages": messages, "reasons": dict(REASONS)}


def compile_all() -> list[Path]:
    """Write ``static/i18n/<lang>.json`` for every language; the paths written."""
    OUTPUT.mkdir(parents=True, exist_ok=True)
    written = []
    for language in LANGUAGES:
        path = OUTPUT / f"{language}.json"
        text = json.dumps(compiled(language), ensure_ascii=False, indent=1, sort_keys=True)
        path.write_text(text + "\n", encoding="utf-8")
        written.append(path)
    return written


def problems() -> list[str]:
    """Everything wrong with the translations; empty when every message is translated."""
    template = extract()
    found: list[str] = []
    for language in LANGUAGES:
        if not po_path(language).exists():
            found.append(f"{language}: no catalog at {po_path(language)}")
            continue
        catalog = read_catalog(language)
        for wanted in template:
            if not wanted.id:
                continue
            key = _key(wanted)
            message = catalog.get(wanted.id)
            if message is None:
                found.append(f"{language}: missing {key!r}")
            elif "fuzzy" in message.flags:
                found.append(f"{language}: fuzzy {key!r}")
            elif not _complete(message):
                found.append(f"{language}: untranslated {key!r}")
            else:
                names = set(_PLACEHOLDER.findall(key))
                for form in _forms(message):
                    if set(_PLACEHOLDER.findall(form)) != names and not (
                        wanted.pluralizable and set(_PLACEHOLDER.findall(form)) <= names
                    ):
                        found.append(f"{language}: placeholders differ in {key!r}: {form!r}")
        json_path = OUTPUT / f"{language}.json"
        if not json_path.exists() or json.loads(json_path.read_text("utf-8")) != compiled(language):
            found.append(f"{language}: {json_path.name} is out of date (run compile)")
    return found


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    command = args[0] if args else "compile"
    if command == "update":
        update()
    elif command == "compile":
        for path in compile_all():
            print(path.relative_to(HERE))
    elif command == "check":
        found = problems()
        for line in found:
            print(line)
        return 1 if found else 0
    else:
        print("usage: python -m milligan.web.i18n [update|compile|check]", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
