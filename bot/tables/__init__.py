"""The table service: lobby, seats, turns, bot moves, locks and versions (no discord import)."""
