"""The Discord plumbing: the one answer path, custom ids, REST and token edits, the request
budget, discord.py internals, component helpers."""
