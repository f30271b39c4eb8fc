"""Sentences built from game events: cards, moves, names, the hand log, rules text."""
