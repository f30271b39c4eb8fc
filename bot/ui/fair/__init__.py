"""Provably fair deals at a table: the Deal and Cut buttons, the reveals."""
