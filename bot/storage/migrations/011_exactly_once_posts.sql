-- 011: posts made exactly once across a crash (issues 22 and 23). A season's final standings and
-- a week's recap are marked "being posted" (announcing_at / posting_week, posting_at) before the
-- post and done after it. After a restart, a post still marked may or may not have gone out: the
-- bot reads the channel's messages since that time for the post's marker before posting again.

ALTER TABLE seasons ADD COLUMN announcing_at REAL;
ALTER TABLE recaps ADD COLUMN posting_week INTEGER;
ALTER TABLE recaps ADD COLUMN posting_at REAL;
