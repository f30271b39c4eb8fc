"""Tournaments: the night's messages and standings."""
