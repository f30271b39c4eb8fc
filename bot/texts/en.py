"""English text. Keys are stable; keep sentences short and in the games' own words."""

from __future__ import annotations

RULES_EUCHRE = """\
**Euchre** — four players, partners sit opposite. First side to **{target}** points wins.
**Deck** 24 cards (9 to ace); options add 8s, 7s or a joker (the "benny", highest trump).
**Trump order** right bower (jack of trump), left bower (other jack of the same colour), \
A, K, Q, 10, 9. Other suits: A, K, Q, J, 10, 9.
**Deal** five cards each; the top card of the kitty is turned up.
**Making trump** Round 1, from the dealer's left: pass, or accept the turned suit — an opponent \
*orders it up*, the partner *assists*, the dealer *takes* it. The dealer then picks up the card \
and discards one (discarding the turned card means he left it). If all pass, round 2: name any \
other suit or pass. All pass again: the hand is thrown in and the deal moves left \
(with *stick the dealer*, the dealer must name a suit).
**Going alone** The partner sits the hand out. By default anyone may go alone after trump is \
made (makers and defenders, asked from the dealer's left); the *maker* option lets only the \
maker go alone, when he makes trump.
**Play** Follow suit if you can (the left bower is trump). Highest trump wins, else highest card \
of the suit led; the winner leads next.
**Scoring** Makers 3–4 tricks: 1 · all 5 (a march): 2 · alone all 5: 4 · makers under 3 tricks \
are *euchred*: defenders 2 (a lone defender who euchres them: 2, or 4 with all 5 tricks).
**Matches** targets 5, 7 or 10; at 5 a side with 4 against 2 or less is *at the bridge*. \
A rubber is won by the first side to win two games."""

RULES_TRUCO = """\
**Truco Mineiro** — four players, partners sit opposite, turns go counter-clockwise. \
First pair to **12** points wins.
**Deck** 40 cards (no 8, 9, 10). Three cards each; a hand is up to three rounds (*vazas*).
**Manilhas** 4♣ *zap* > 7♥ *copas* > A♠ *espadilha* > 7♦ *ouros*. Then by face only: \
3, 2, A, K, J, Q, 7, 6, 5, 4 — equal faces from both pairs tie (*empate*).
**Rounds** Highest card wins the round; two rounds win the hand. A tied first round: the second \
decides. A tied second or third: the winner of the first takes the hand. All three tied: the \
dealer's pair. After a tie the same player leads again.
**Truco!** A hand is worth 2. On your turn, before playing, ask **truco** (4). The other pair \
accepts, runs, or raises: **seis** (6), **dez** (10), **doze** (12). Running gives the askers \
2, 4, 6 or 10. A pair cannot raise twice in a row.
**Mão de dez** When one pair has exactly 10, its two players see each other's cards and decide \
to play (worth 4) or refuse (the others score 2). No truco in that hand.
**Mão de ferro** Both pairs at 10: no truco, worth 2, the winner takes the game.
*Our table rules where the original text is silent:* random first dealer, the deal and the turn \
pass counter-clockwise, the player after the dealer leads; two equal top cards from one pair \
win the round for that pair; either partner may answer a truco or decide the mão de dez — the \
first answer counts; the partners see each other's cards for the whole mão de dez."""

STRINGS: dict[str, str] = {
    # /rules
    "rules.euchre": RULES_EUCHRE,
    "rules.truco": RULES_TRUCO,
    "rules.choice.euchre": "Euchre",
    "rules.choice.truco": "Truco Mineiro",
    # errors and refusals (one short sentence each)
    "error.unexpected": "Sorry, something went wrong on our side. The table is safe; try again.",
    "error.dm": "Tables live in server channels. Use this command in a server.",
    "error.not_owner": "Only the bot's owner can do that.",
    "error.cooldown": "Easy there — try again in {seconds:.0f} s.",
    "error.missing_permissions": "I need these permissions in this channel: {permissions}.",
    "error.user_missing_permissions": "You need these permissions: {permissions}.",
    "error.check_failed": "You can't use this command here.",
    # /sync
    "sync.done": "Synced {count} commands ({scope}).",
}
