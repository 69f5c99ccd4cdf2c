"""The Textual UI, headless, on the simulated board: the lights as sent, clicks as hands, keys."""

import asyncio

from pegboard.client import Board
from pegboard.sim import Simulator
from pegboard.tui import BoardApp


def test_play_ui_clicks_move_pegs_and_keys_work():
    async def scenario():
        with Simulator() as sim:
            sim.control("fill", empty=1)
            sim.control("wait_idle")
            board = Board(sim.data_path).open()
            app = BoardApp(board, hand=sim.control)
            async with app.run_test(size=(120, 40)) as pilot:
                await pilot.pause(0.3)
                assert str(app.query_one("#hole-1").label) == "○1"
                assert str(app.query_one("#hole-4").label) == "●4"
                # a hand: lift 4, place it in 1, pull 2
                for hole in (4, 1, 2):
                    await pilot.click("#hole-%d" % hole)
                    await pilot.pause(0.2)
                assert app.state["moves"] == [[4, 2, 1]]
                assert str(app.query_one("#hole-2").label) == "○2"
                await pilot.press("h")
                await pilot.pause(0.3)
                log = "\n".join(str(line) for line in app.query_one("#log").lines)
                assert "hint" in log
                await pilot.press("b")
                await pilot.pause(0.3)
                assert len(app.solution) == 12
                await pilot.press("right_square_bracket")
                await pilot.pause(0.1)
                assert app.sol_pos == 1
                await pilot.press("q")
            board.close()

    asyncio.run(scenario())
