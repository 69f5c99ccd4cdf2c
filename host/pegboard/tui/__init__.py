"""The terminal UI: the app (draws), its link thread, events in words."""
