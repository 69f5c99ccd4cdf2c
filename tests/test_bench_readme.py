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
