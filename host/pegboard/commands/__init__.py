"""The command line: `cli`, one module per command (`ui` ... `hardware`), and `boardargs`
(--port, the errors every board command shares)."""
