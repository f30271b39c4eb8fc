"""Pure rules engines (standard library only): `bot.engine.euchre` and `bot.engine.truco`."""
