"""The README's figures table is made from the bench's results (bench/readme.py), never typed."""

import json

from bench import readme


def test_the_table_is_made_from_the_results_and_only_between_the_markers(tmp_path, monkeypatch):
    results = {"when": "2026-01-02", "machine": "x86_64, 2 cores", "ok": False, "figures": {
        "core.t5_counts_all_starts": {"value": 2.5, "unit": "ms", "budget": 20, "ok": True},
        "link.commands_per_second": {"value": 900.0, "unit": "commands/s", "budget": 1000, "ok": False,
                                     "at_least": True},
        "firmware.idle_loop_pass": {"value": 0.46, "unit": "ms (RP2040 estimate)", "budget": 5, "ok": True,
                                    "measured_us": 2},
        "boot.mpy": {"value": None, "unit": "", "budget": None, "ok": True, "skipped": "no mpy-cross"}}}
    (tmp_path / "results.json").write_text(json.dumps(results))
    page = tmp_path / "README.md"
    page.write_text("# title\nbefore\n%s\n| old | table |\n%s\nafter\n" % (readme.BEGIN, readme.END))
    monkeypatch.setattr(readme, "RESULTS", tmp_path / "results.json")
    monkeypatch.setattr(readme, "README", page)
    monkeypatch.setattr(readme, "DOCS", tmp_path / "docs")
    assert readme.update_readme()
    text = page.read_text()
    assert text.startswith("# title\nbefore\n" + readme.BEGIN) and text.endswith(readme.END + "\nafter\n")
    assert "| old | table |" not in text and "2026-01-02 on x86_64, 2 cores" in text
    rows = [line for line in text.splitlines() if line.startswith("| ") and "---" not in line][1:]
    assert rows[0] == "| %s | 2.5 ms | ≤ 20 ms | yes |" % readme.ABOUT["core.t5_counts_all_starts"]
    assert rows[1].endswith("| 900 commands/s | ≥ 1,000 commands/s | **no** |")
    assert rows[2].endswith("| 0.46 ms est. RP2040 (VM: 2 µs) | ≤ 5 ms | yes |")
    assert "| — (skipped: no mpy-cross) | — | yes |" in rows[3]


def test_a_readme_without_markers_is_left_alone(tmp_path, monkeypatch):
    page = tmp_path / "README.md"
    page.write_text("no markers here\n")
    monkeypatch.setattr(readme, "README", page)
    assert not readme.update_readme({"figures": {}})
    assert page.read_text() == "no markers here\n"


def test_the_repository_readme_has_the_generated_section():
    text = readme.README.read_text()
    assert text.count(readme.BEGIN) == 1 and text.count(readme.END) == 1
    assert text.index(readme.BEGIN) < text.index(readme.END)


# -- figures quoted in the text -------------------------------------------------------------------

FIGURES = {"when": "x", "figures": {
    "boot.first_light_ms_est_py": {"value": 231.007, "unit": readme.RP2040_UNIT, "budget": 300, "ok": True},
    "firmware.idle_loop_pass": {"value": 1.054, "unit": readme.RP2040_UNIT, "budget": 5, "ok": True},
    "link.commands_per_second": {"value": 900.0, "unit": "commands/s", "budget": 1000, "at_least": True},
    "link.round_trip_median": {"value": 1.9, "unit": "ms", "budget": 2},  # the PC's: not a chip timing
    "firmware.heap_peak_game_and_demo": {"value": 61120, "unit": "bytes", "budget": 65536}}}


def test_quoted_figures_are_rewritten_from_the_results():
    text = ("first light <!--bench:boot.first_light_ms_est_py-->200 ms<!--/bench--> of "
            "<!--bench:boot.first_light_ms_est_py:budget-->1 s<!--/bench--> "
            "(<!--bench:boot.first_light_ms_est_py:share-->?<!--/bench-->); nearest: <!--bench:margin--><!--/bench-->; "
            "peak <!--bench:firmware.heap_peak_game_and_demo-->49.7 KB<!--/bench-->")
    assert readme.quote_figures(text, FIGURES) == (
        "first light <!--bench:boot.first_light_ms_est_py-->231 ms<!--/bench--> of "
        "<!--bench:boot.first_light_ms_est_py:budget-->300 ms<!--/bench--> "
        "(<!--bench:boot.first_light_ms_est_py:share-->77 %<!--/bench-->); nearest: <!--bench:margin-->77 %<!--/bench-->; "
        "peak <!--bench:firmware.heap_peak_game_and_demo-->61,120 bytes<!--/bench-->")


def test_a_quoted_figure_the_bench_does_not_make_is_an_error():
    import pytest

    with pytest.raises(KeyError):
        readme.quote_figures("<!--bench:boot.gone-->1 ms<!--/bench-->", FIGURES)


def test_every_figure_quoted_in_the_readme_and_docs_is_the_one_in_results_json():
    results = json.loads(readme.RESULTS.read_text())
    quoted = 0
    for path in readme.documents():
        text = path.read_text(encoding="utf-8")
        quoted += len(readme.QUOTED.findall(text))
        assert readme.quote_figures(text, results) == text, (
            "%s quotes a figure that bench/results.json does not hold: run `python -m bench --readme`" % path.name)
    assert quoted >= 8


def test_no_figure_named_in_the_text_is_typed_beside_its_name():
    """Where README or docs/ name a bench figure (`firmware.idle_loop_pass`), a number with a unit
    right after the name must be quoted from results.json, not typed (typed ones went stale)."""
    import re

    results = json.loads(readme.RESULTS.read_text())
    names = set(results["figures"])  # full names: a short one may be a protocol field too (free_heap_lowest)
    typed = re.compile(r"\d[\d,.]*\s?(ms|s|KB|kB|B|bytes|cycles|%|mA)\b")
    found = []
    for path in readme.documents():
        text = readme.QUOTED.sub("", path.read_text(encoding="utf-8"))
        text = text.split(readme.BEGIN)[0] + text.split(readme.END)[-1] if readme.BEGIN in text else text
        for m in re.finditer(r"`([\w.]+)`", text):
            if m.group(1) in names:
                after = text[m.end():m.end() + 40].split("\n\n")[0]
                hit = typed.search(after)
                if hit:
                    found.append("%s: `%s`%s" % (path.name, m.group(1), after[:hit.end()]))
    assert not found, found


CHIP_MODULES = ("firmware", "boot", "core")  # their figures are thumbvm's cycles of the firmware's own code


def test_the_chip_figures_are_of_the_firmware_as_it_is():
    """A cycle figure older than the firmware it measures is no figure: each of these bench modules
    must have run on firmware/ as committed (`python -m bench firmware boot core` after a change)."""
    results = json.loads(readme.RESULTS.read_text())
    now = readme.firmware_digest()
    stale = [m for m in CHIP_MODULES if results.get("runs", {}).get(m, {}).get("firmware") != now]
    assert not stale, "bench/results.json's %s figures were made from other firmware: run `python -m bench %s`" % (
        ", ".join(stale), " ".join(stale))


def test_a_partial_run_replaces_only_its_own_modules_run(tmp_path, monkeypatch):
    monkeypatch.setattr(readme, "RESULTS", tmp_path / "results.json")
    readme.save({"core.a": {"value": 1}, "link.b": {"value": 2}}, replace_all=True)
    first = json.loads(readme.RESULTS.read_text())["runs"]
    monkeypatch.setattr(readme, "firmware_digest", lambda: "changed")
    readme.save({"core.a": {"value": 3}}, replace_all=False)
    out = json.loads(readme.RESULTS.read_text())
    assert out["runs"]["core"]["firmware"] == "changed" and out["runs"]["link"] == first["link"]
    assert out["figures"] == {"core.a": {"value": 3}, "link.b": {"value": 2}}


def test_the_heap_budget_comes_from_the_real_binarys_free_heap():
    """bench/firmware.py's heap budget is 70 % of the free heap CircuitPython's own binary gave a bare
    code.py (bench/realchip.py's figure, as results.json holds it), not a number raised to let code in."""
    from bench import firmware

    results = json.loads(readme.RESULTS.read_text())["figures"]
    assert firmware.REAL_FREE_HEAP == results["realchip.free_heap_bare_code_py"]["value"]
    assert firmware.HEAP_BUDGET == firmware.REAL_FREE_HEAP * 70 // 100
    for name in ("firmware.heap_peak_game_and_demo", "firmware.heap_free_needed"):
        assert results[name]["budget"] == firmware.HEAP_BUDGET, name
