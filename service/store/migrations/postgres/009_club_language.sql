-- A club's default language (issue 26): what its pages and texts speak when the reader has chosen none
-- and their browser asks for none we speak. NULL: English.
ALTER TABLE clubs ADD COLUMN language text;
