-- A player link (issue 28 part 4) is a share link of kind `player` to a tournament (`target_id`) for one
-- of its entries: the entry's player. Other links leave it NULL.
ALTER TABLE share_links ADD COLUMN player_id TEXT;
