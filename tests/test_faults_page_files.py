"""The page's files as `pegboard web` serves them (tests/mutants.py found these surviving without a
browser): the page at /, each of its own files with its type, and nothing else."""

from __future__ import annotations

from pegboard.web.page import STATIC, static_file


def test_the_root_is_the_page_and_each_file_comes_with_its_type():
    assert static_file("/") == ((STATIC / "index.html").read_bytes(), "text/html; charset=utf-8")
    assert static_file("/style.css") == ((STATIC / "style.css").read_bytes(), "text/css; charset=utf-8")


def test_no_file_outside_the_pages_own_and_none_of_an_unknown_kind():
    assert static_file("/nothing-here.js") is None  # a known kind, but no such file
    assert static_file("/../pyproject.toml") is None
    assert static_file("/.hidden.js") is None
    assert static_file("/index.html/") is None


def test_writing_the_tables_rewrites_a_stale_script_and_only_that(tmp_path, monkeypatch, capsys):
    import shutil

    from pegboard.web import tables

    for name in ("roles.js", "senses.js"):
        shutil.copy(STATIC / name, tmp_path / name)
    stale = (tmp_path / "roles.js").read_text(encoding="utf-8")
    (tmp_path / "roles.js").write_text(tables.filled(stale, {k: {} for k in tables.in_script(stale)}), encoding="utf-8")
    before = (tmp_path / "senses.js").stat().st_mtime_ns
    monkeypatch.setattr(tables, "STATIC", tmp_path)
    assert tables.main() == 0
    assert capsys.readouterr().out.strip() == "rewrote roles.js"
    assert (tmp_path / "roles.js").read_text(encoding="utf-8") == (STATIC / "roles.js").read_text(encoding="utf-8")
    assert (tmp_path / "senses.js").stat().st_mtime_ns == before  # already the Python tables: untouched
