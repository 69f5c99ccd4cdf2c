"""The game's events as the App takes them (App.take_events): the host told, the NVM record, the
guide, the challenge and the shows kept in step. A module of its own so that start-up compiles the
App's code in two smaller pieces (the heap a compile needs grows with the module)."""

from pegcore.rules import holes_of
from pegfw import ondemand
from pegfw.tracker import EMPTY, HOLE, HOLES, JUMP, PEGS_LEFT, REASON, START, VERDICT


def take_events(self, events):
    """Tell the host what the tracker saw (pegfw.tracker: an event is a tuple, fields by
    name), and keep NVM, the guide and the shows in step with it (NVM's writes and the game-over
    show's code after a coming hint's lights: App.after_hint)."""
    b = self.board
    for e in events:
        name = e[0]
        if name == "lift" or name == "place":
            self.link.event(name, {"hole": e[HOLE]})
        elif name == "new_game":
            self.cancel_job()
            self.shows.stop()
            self.guide_off("new_game")
            self.challenge_off()
            finish = self.tracker.finish
            self.after_hint(self.store.new_game, e[START], self.tracker.goal)
            fields = {"empty": e[EMPTY], "start": holes_of(e[START])}
            if finish is not None:
                fields["finish"] = finish
            if self.tracker.goal:
                fields["challenge"] = self.challenge_on().text()
            if self.retry and self.retry == e[START]:
                fields["retry"] = True  # the position a review lit, set again: the lost game played on
            if self.puzzle and self.puzzle == e[START]:
                fields["puzzle"] = self.puzzle_at + 1  # the puzzle set up, set: its game
            self.retry = self.puzzle = 0
            self.link.event("new_game", fields)
        elif name == "setup":
            self.cancel_job()
            self.after_hint(self.store.abandon)  # no game in progress (an unfinished one counts as abandoned)
            self.guide_off("setup")
            self.challenge_off()
            if self.shows.kind in ("over", "hint"):
                self.shows.stop()
            self.link.event("setup", {"reason": e[REASON]})
        elif name == "setup_done":
            self.link.event("setup_done", {"pegs": holes_of(self.tracker.sensed)})
        elif name == "move":
            self.cancel_job()
            self.after_hint(self.store.move, e[JUMP])
            self.link.event("move", {"move": b.move_of(e[JUMP]), "pegs_left": e[PEGS_LEFT]})
            self.chime("click")
            if self.guide is not None:
                ended = self.guide.moved(e[JUMP])
                if ended == "replan":  # played on past a move off its line: a new line from here
                    self.guide.replan(self)
                elif ended:
                    self.guide_off(ended)
            if self.shows.kind == "hint":
                self.shows.stop()
        elif name == "undo":
            self.cancel_job()
            self.after_hint(self.store.undo)
            self.link.event("undo", {"move": b.move_of(e[JUMP])})
            if self.guide is not None and self.guide.undone(e[JUMP]):  # off its line: a new one
                self.guide.replan(self)
        elif name == "illegal":
            self.link.event("illegal", {"holes": e[HOLES]})
            self.chime("buzz")
        elif name == "recovered":
            self.link.event("recovered")
        elif name == "game_over":
            st = self.store
            fields = {"pegs_left": e[PEGS_LEFT], "verdict": e[VERDICT], "seconds": st.seconds() if st.start else None}
            t = self.tracker
            if t.finish is not None:  # a game with a finish hole: did its last peg end there?
                fields["in_finish"] = t.position == 1 << (t.finish - 1)
            if t.goal:  # judged as a challenge too
                fields.update(self.challenge_on().verdict(t.position))
            self.link.event("game_over", fields)
            won = e[PEGS_LEFT] == 1 and fields.get("in_finish") is not False and fields.get("met") is not False
            self.chime("win" if won else "lost")
            self.guide_off("game_over")  # (a guide whose line was played out has ended already)
            # a puzzle solved, a personal best, the record and the show: their code is compiled, so
            # after a coming hint's lights
            self.after_hint(scored, self, e[PEGS_LEFT], e[VERDICT], fields.get("met"), fields["seconds"])


def scored(app, pegs, verdict, met, secs):
    """The game over's record, after a coming hint's lights (App.after_hint): pegfw.bests.scored,
    its code loaded for it; while a deploy writes the drive no code is compiled: the score alone."""
    if app.updating:
        app.store.game_over(pegs)
        return
    ondemand.load("pegfw.bests").scored(app, pegs, verdict, met, secs)
    ondemand.unload("pegfw.bests")

