"""The loop's console output can never hold the game (issue realboard: on a board, a console write
waits while a host holds the REPL port open without reading, supervisor/shared/serial.c): errors
go to the laptop as the data port's `error` event; the console gets at most one short line every
CONSOLE_GAP_MS, and none while the USB FIFO holds bytes nobody has read."""

from fakehw import make_app

from pegfw.app import CONSOLE_GAP_MS, CONSOLE_MAX


class Stop(BaseException):
    """Ends App.run() (which catches every Exception) after the errors."""


def failing_loop(hw, app, errors, every_ms=20):
    """App.run() over a step that raises `errors` times, every_ms apart, then stops."""
    count = [0]

    def step():
        if count[0] == errors:
            raise Stop()
        count[0] += 1
        hw.advance(every_ms)
        raise RuntimeError("sensor read failed " + "x" * 200)

    app.step = step
    try:
        app.run()
    except Stop:
        pass


def test_a_burst_of_loop_errors_prints_a_few_short_lines(capsys):
    hw, app = make_app()
    capsys.readouterr()
    failing_loop(hw, app, 1000)  # 20 s of errors, one a pass
    lines = [line for line in capsys.readouterr().out.splitlines() if "loop error" in line]
    assert 1 <= len(lines) <= 1000 * 20 // CONSOLE_GAP_MS + 1
    assert all(len(line) <= CONSOLE_MAX for line in lines)
    assert app.errors == 1000 and app.console_skipped == 1000 - len(lines)


def test_nothing_is_printed_while_nobody_reads_the_console(capsys):
    hw, app = make_app()
    hw.console_busy = True
    capsys.readouterr()
    failing_loop(hw, app, 50)
    assert "loop error" not in capsys.readouterr().out
    assert app.errors == 50 and app.console_skipped == 50
