"""Spying on the catalog texts a picture module asks for (tests of what pictures say)."""

from __future__ import annotations

from typing import Any

import pytest


def spy_texts(monkeypatch: pytest.MonkeyPatch, module: Any) -> list[tuple[str, dict[str, Any]]]:
    """Every catalog text `module` asks for from now on (its `t`), with its values."""
    calls: list[tuple[str, dict[str, Any]]] = []
    real = module.t

    def recording(key: str, locale: str | None = None, **values: Any) -> str:
        calls.append((key, values))
        return str(real(key, locale, **values))

    monkeypatch.setattr(module, "t", recording)
    return calls
