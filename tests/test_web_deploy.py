"""`pegboard deploy` puts the browser page on the CIRCUITPY drive as one self-contained file,
pegboard.html (docs/web.md): Chrome or Edge opens it from the drive and reaches the board by Web
Serial (tests/test_web_serial.py plays a game through it)."""

from __future__ import annotations

from html.parser import HTMLParser

from conftest import ROOT
from test_deploy import deploy, fresh_drive

STATIC = ROOT / "host" / "pegboard" / "web" / "static"


class Parts(HTMLParser):
    """A page read apart: its markup (start tags with their attributes, end tags), the files it loads
    (script src, stylesheet href) and the text of its inline scripts and styles."""

    def __init__(self, html: str) -> None:
        super().__init__(convert_charrefs=False)
        self.markup: list[tuple] = []
        self.loads: list[str] = []
        self.inline: list[tuple[str, str]] = []
        self._in: str | None = None
        self.feed(html)
        self.close()

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "script" and "src" in a or tag == "link" and a.get("rel") == "stylesheet":
            self.loads.append(a.get("src") or a["href"])
        elif tag in ("script", "style"):
            self._in = tag
            self.inline.append((tag, ""))
        else:
            self.markup.append(("<", tag, tuple(attrs)))

    def handle_endtag(self, tag):
        if tag in ("script", "style"):
            self._in = None
        else:
            self.markup.append((">", tag))

    def handle_data(self, data):
        if self._in:
            tag, text = self.inline[-1]
            self.inline[-1] = (tag, text + data)


def test_deploy_copies_the_page_as_pegboard_html(capsys, tmp_path):
    d = fresh_drive(tmp_path)
    code, out, _ = deploy(capsys, "--drive", str(d), "--no-restart", "--py")
    assert code == 0, out
    assert "  pegboard.html\n" in out
    page = Parts((d / "pegboard.html").read_text(encoding="utf-8"))
    source = Parts((STATIC / "index.html").read_text(encoding="utf-8"))
    # self-contained: it loads no file (a page opened from a drive cannot), and holds the stylesheet
    # and every script index.html loads, in its order, each whole (a script's text may not hold
    # "</script": written "<\/script" it is the same JavaScript)
    assert page.loads == [] and source.loads[0] == "style.css" and len(source.loads) >= 7
    expected = [("style" if name.endswith(".css") else "script", (STATIC / name).read_text(encoding="utf-8"))
                for name in source.loads]
    got = [(tag, text.replace("<\\/script", "</script")) for tag, text in page.inline]
    assert [tag for tag, _ in got] == [tag for tag, _ in expected]
    for (tag, text), (_, want) in zip(got, expected, strict=True):
        assert text.strip() == want.strip(), tag
    assert page.markup == source.markup  # the rest of index.html as it is
    # a redeploy rewrites it, and leaves nothing half-written behind
    (d / "pegboard.html").write_text("an older page")
    code, out, _ = deploy(capsys, "--drive", str(d), "--no-restart", "--py")
    assert code == 0 and not list(d.glob("*.tmp"))
    assert Parts((d / "pegboard.html").read_text(encoding="utf-8")).inline == page.inline
