"""The known secret values are memoised, yet follow the environment and registrations."""

from __future__ import annotations

from typing import Any

from forgebench.util.redact import known_secrets, redact_known, redact_known_json, register


def test_known_secrets_follow_the_environment_and_registrations(monkeypatch: Any) -> None:
    first = known_secrets()
    assert known_secrets() is first  # memoised: the same tuple while nothing changed
    monkeypatch.setenv("SOME_SERVICE_TOKEN", "tok-1234567890")
    assert "tok-1234567890" in known_secrets()
    monkeypatch.setenv("SOME_SERVICE_TOKEN", "tok-0987654321")
    assert "tok-0987654321" in known_secrets() and "tok-1234567890" not in known_secrets()
    monkeypatch.delenv("SOME_SERVICE_TOKEN")
    assert "tok-0987654321" not in known_secrets()
    monkeypatch.setenv("PLAIN_NAME", "not-a-secret-value")
    assert "not-a-secret-value" not in known_secrets()
    register(["reg-5566778899"])
    assert "reg-5566778899" in known_secrets()


def test_answers_lose_only_known_values(monkeypatch: Any) -> None:
    monkeypatch.setenv("X_API_KEY", 'k"ey\\with-quotes-42')
    text = 'Authorization: is a header; see https://h/?key=1. k"ey\\with-quotes-42'
    assert redact_known(text) == "Authorization: is a header; see https://h/?key=1. ***"
    import json

    encoded = json.dumps({"a": 'k"ey\\with-quotes-42', "b": "Bearer x"})
    assert json.loads(redact_known_json(encoded)) == {"a": "***", "b": "Bearer x"}
