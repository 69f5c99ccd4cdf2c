"""The board in a browser (`pegboard web`, docs/web.md): one static page (static/: HTML, CSS and
plain JavaScript, no build step) and the small server that shows it and bridges a WebSocket to the
board through its hub; the same page also reaches a board straight over Web Serial."""
