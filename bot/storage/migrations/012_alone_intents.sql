-- 012: euchre's going-alone intents (E14, alone=anyone; bot/tables/alone.py), kept with the table
-- so that a restart between a bid and the going-alone question keeps them (issue 33). A JSON
-- list of [hand number, game seat] pairs: who goes alone when asked in that hand, said by the
-- maker with the bid ("Order up · alone", written in the bid's own transaction) or by the
-- private "Go alone" switch. Only the current hand's pairs mean anything.

ALTER TABLE tables ADD COLUMN alone_intents TEXT NOT NULL DEFAULT '[]';
