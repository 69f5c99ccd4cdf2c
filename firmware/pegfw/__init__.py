"""pegfw: the lit board's firmware application (everything but the pure core in pegcore)."""

VERSION = "0.1.0"
