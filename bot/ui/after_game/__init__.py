"""After a game: replay, review, the hand record, posting."""
