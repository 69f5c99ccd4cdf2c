"""Rare requests about the board's senses (roles, sound): compiled for the request and dropped
after the reply (pegfw.ondemand), in a module of their own so that board_requests' compile (info,
stats) is no longer for them. Each handler takes (app, rid, req, now), as those of pegfw.commands do."""

from pegfw.protocol import ProtocolError

TYPE_CHECKING = False  # mypy takes it as True; no typing module needed on the chip
if TYPE_CHECKING:
    from pegfw.app import App  # noqa: F401 (type comments)


def cmd_roles(app, rid, req, now):
    # type: (App, object, dict, int) -> dict
    """How the lights tell the roles: "colour", or "motion" (a pattern in time each, too)."""
    from pegfw.colors import ROLE_MODES

    v = req.get("name")
    if v is not None:
        if v not in ROLE_MODES:
            raise ProtocolError("bad_args", "name must be colour or motion")
        app.set_roles(v)
    return {"name": app.roles()}


def cmd_sound(app, rid, req, now):
    # type: (App, object, dict, int) -> dict
    """The piezo: `volume` 0..100, `quiet` hours ("22-7", "" for none), `clock` (the host's
    minutes past midnight: quiet hours need it), `play` a tune; the settings as they are now."""
    s = app.sound
    if s is None:
        if any(k in req for k in ("volume", "quiet", "clock", "play")):
            raise ProtocolError("not_supported", "this board has no piezo (PEGBOARD_PIEZO_PIN: hardware/README.md, "
                                                 "Sound)")
        return {"piezo": False}
    from pegfw.sound import TUNES

    vol, quiet, clock, play = req.get("volume"), req.get("quiet"), req.get("clock"), req.get("play")
    if vol is not None and (isinstance(vol, bool) or not isinstance(vol, int) or not 0 <= vol <= 100):
        raise ProtocolError("bad_args", "volume must be 0..100")
    if clock is not None and (isinstance(clock, bool) or not isinstance(clock, int) or not 0 <= clock < 1440):
        raise ProtocolError("bad_args", "clock must be minutes past midnight, 0..1439")
    if play is not None and play not in TUNES:
        raise ProtocolError("bad_args", "play must be one of " + ", ".join(sorted(TUNES)))
    if quiet is not None:
        from pegfw.config import parse_quiet

        try:
            quiet = parse_quiet(quiet) if isinstance(quiet, str) else 0
        except ValueError:
            quiet = 0
        if quiet == 0:
            raise ProtocolError("bad_args", 'quiet must be "FROM-TO" in whole hours 0..23 ("22-7"), or "" for none')
        s.quiet = quiet
    if vol is not None:
        s.volume = vol
    if clock is not None:
        s.clock = [now, clock]
    played = app.chime(play) if play is not None else None
    q = s.quiet
    return {"piezo": True, "volume": s.volume, "quiet": "%d-%d" % q if q else "",
            "clock": s.minutes(now), "silent": s.silent(now), "played": played}
