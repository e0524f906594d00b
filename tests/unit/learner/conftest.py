"""Fixtures for learner tests."""

from __future__ import annotations

import pytest
from learner_helpers import make_tiny_model


@pytest.fixture(scope="session")
def tiny_model(tmp_path_factory) -> str:
    """Path of a tiny random Qwen2 model directory, made once per session."""
    return make_tiny_model(tmp_path_factory.mktemp("tiny_qwen2"))
