"""`pegboard deploy` puts the browser page on the CIRCUITPY drive as one self-contained file,
pegboard.html (docs/web.md): Chrome or Edge opens it from the drive and reaches the board by Web
Serial (tests/test_web_serial.py plays a game through it)."""

from __future__ import annotations

from test_deploy import deploy, fresh_drive

from pegboard.web.page import DRIVE_NAME, single_file


def test_deploy_copies_the_page_as_pegboard_html(capsys, tmp_path):
    d = fresh_drive(tmp_path)
    code, out, _ = deploy(capsys, "--drive", str(d), "--no-restart", "--py")
    assert code == 0, out
    assert (d / DRIVE_NAME).read_text(encoding="utf-8") == single_file()
    assert "  %s\n" % DRIVE_NAME in out
    # a redeploy rewrites it, and leaves nothing half-written behind
    code, out, _ = deploy(capsys, "--drive", str(d), "--no-restart", "--py")
    assert code == 0 and not list(d.glob("*.tmp"))
