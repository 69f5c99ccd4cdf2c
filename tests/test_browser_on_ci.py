"""The browser page's tests skip, saying why, on a machine without Chromium or Playwright, but under
CI=true they fail with the same reason: `make test` on CI must not pass with the browser suite
skipped (tests/websupport.py, need_browser)."""

import sys

import pytest
from websupport import need_browser

FAILED, SKIPPED = pytest.fail.Exception, pytest.skip.Exception
posix_only = pytest.mark.skipif(sys.platform == "win32", reason="the page's tests skip on Windows (pseudo-terminals)")


def outcome():
    """What need_browser() does here: (FAILED or SKIPPED, the reason), caught so that neither ends this test."""
    try:
        need_browser()
    except (FAILED, SKIPPED) as e:
        return type(e), str(e)
    return None, ""


@posix_only
@pytest.mark.parametrize("ci, expected", [("true", FAILED), ("", SKIPPED), ("false", SKIPPED)])
def test_a_missing_chromium_skips_but_fails_on_ci(monkeypatch, tmp_path, ci, expected):
    monkeypatch.setenv("CI", ci)
    monkeypatch.setenv("PEGBOARD_CHROMIUM", str(tmp_path / "no-chromium"))
    kind, why = outcome()
    assert kind is expected and "no Chromium on this machine" in why, (kind, why)
    assert ("CI=true" in why) == (ci == "true"), why


@posix_only
def test_a_missing_playwright_skips_but_fails_on_ci(monkeypatch):
    monkeypatch.setitem(sys.modules, "playwright.sync_api", None)  # its import raises ImportError
    for ci, expected in (("true", FAILED), ("", SKIPPED)):
        monkeypatch.setenv("CI", ci)
        kind, why = outcome()
        assert kind is expected and "playwright is not installed" in why, (ci, kind, why)
