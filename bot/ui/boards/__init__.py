"""Boards: leaderboard, stats, history, seasons, the weekly recap."""
