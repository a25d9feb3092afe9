"""Every message of the browser game is translated in every language."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from milligan.errors import REASONS
from milligan.web import i18n

REPRIEVE = {"en": "reprieve", "pt": "indulto", "it": "tregua", "nl": "respijt", "fr": "sursis"}


def test_every_message_is_translated_in_every_language() -> None:
    assert i18n.problems() == []


def test_the_sources_use_many_messages() -> None:
    template = i18n.extract()
    ids = {
        message.id if isinstance(message.id, str) else message.id[0]
        for message in template
        if message.id
    }
    assert {"Undo", "End reprieve", "{n} row", "Rules of Miss Milligan"} <= ids
    assert len(ids) > 150


@pytest.mark.parametrize("language", i18n.LANGUAGES)
def test_each_language_uses_its_own_word_for_the_reprieve(language: str) -> None:
    messages = i18n.compiled(language)["messages"]
    text = " ".join(v if isinstance(v, str) else " ".join(v.values()) for v in messages.values())
    assert REPRIEVE[language] in text.lower()
    assert messages["End reprieve"].lower() != "end reprieve" or language == "en"


@pytest.fixture
def copied(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The catalogs copied to a scratch folder that the module then reads."""
    locales = tmp_path / "locales"
    output = tmp_path / "i18n"
    shutil.copytree(i18n.LOCALES, locales)
    shutil.copytree(i18n.OUTPUT, output)
    monkeypatch.setattr(i18n, "LOCALES", locales)
    monkeypatch.setattr(i18n, "OUTPUT", output)
    return locales


def test_a_missing_translation_is_reported(copied: Path) -> None:
    po = copied / "nl" / "LC_MESSAGES" / "milligan.po"
    text = po.read_text("utf-8")
    assert 'msgstr "Terugnemen"' in text
    po.write_text(text.replace('msgstr "Terugnemen"', 'msgstr ""'), "utf-8")
    found = i18n.problems()
    assert "nl: untranslated 'Undo'" in found
    i18n.compile_all()
    assert "Undo" not in json.loads((i18n.OUTPUT / "nl.json").read_text("utf-8"))["messages"]


def test_a_wrong_placeholder_is_reported(copied: Path) -> None:
    po = copied / "fr" / "LC_MESSAGES" / "milligan.po"
    text = po.read_text("utf-8")
    po.write_text(text.replace('msgstr "Donne {n}"', 'msgstr "Donne {nombre}"'), "utf-8")
    assert any("placeholders differ in 'Deal {n}'" in line for line in i18n.problems())


def test_a_stale_json_catalog_is_reported(copied: Path) -> None:
    (i18n.OUTPUT / "it.json").write_text('{"language": "it", "messages": {}}', "utf-8")
    assert any("it.json is out of date" in line for line in i18n.problems())


@pytest.mark.parametrize("language", i18n.LANGUAGES)
def test_the_page_words_every_refusal_code_as_the_engine_does(language: str) -> None:
    # the served catalogue carries the engine's table itself: same codes, same words
    served = json.loads((i18n.OUTPUT / f"{language}.json").read_text("utf-8"))
    assert served["reasons"] == REASONS


def test_the_page_keeps_no_copy_of_the_refusal_reasons() -> None:
    source = (i18n.STATIC / "js" / "reasons.js").read_text("utf-8")
    assert not any(template in source for template in REASONS.values())


@pytest.mark.parametrize("language", i18n.LANGUAGES)
def test_every_refusal_code_is_translated(language: str) -> None:
    messages = i18n.compiled(language)["messages"]
    for code, template in REASONS.items():
        if language == "en":
            assert messages.get(template, template) == template, code
            continue
        text = messages.get(template)
        assert text and text != template, (language, code)
        names = set(re.findall(r"\{(\w+)\}", template))
        assert set(re.findall(r"\{(\w+)\}", text)) == names, (language, code)
