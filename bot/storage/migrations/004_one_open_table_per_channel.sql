-- 004: one open table per channel, enforced by the database (not only in one process's memory).
--
-- An open table is one in its lobby or playing; a finished table may stay (still showing its
-- result) beside the next one. Before the index, older open tables of a channel that somehow has
-- several are marked finished, so the migration cannot fail on an old database.

UPDATE tables SET status = 'finished'
    WHERE status <> 'finished'
    AND id < (SELECT max(t.id) FROM tables AS t
              WHERE t.channel_id = tables.channel_id AND t.status <> 'finished');

CREATE UNIQUE INDEX tables_one_open_per_channel ON tables (channel_id) WHERE status <> 'finished';
