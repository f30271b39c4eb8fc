"""A table in its channel: the lobby and table message, the private hand messages, clicks, pens."""
