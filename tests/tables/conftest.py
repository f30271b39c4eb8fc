"""Fixtures of the table-layer tests."""

from __future__ import annotations

import pytest

from bot.storage.backend import Storage


@pytest.fixture
def db(storage: Storage) -> Storage:
    """Issue 14: every test here runs on both back-ends (conftest's `storage`)."""
    return storage
