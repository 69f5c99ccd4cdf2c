"""The way to a board: finding ports, the serial link, the protocol client."""
