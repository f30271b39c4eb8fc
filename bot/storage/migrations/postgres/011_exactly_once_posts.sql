-- 011 (PostgreSQL twin of ../011_exactly_once_posts.sql): posts made exactly once across a crash
-- (issues 22 and 23). See the SQLite file for what each column means.

ALTER TABLE seasons ADD COLUMN announcing_at DOUBLE PRECISION;
ALTER TABLE recaps ADD COLUMN posting_week BIGINT;
ALTER TABLE recaps ADD COLUMN posting_at DOUBLE PRECISION;
