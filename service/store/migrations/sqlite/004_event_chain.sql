-- Each event's hash chained to the one before it in its stream (service.store.base.chain_hash), so a
-- changed event, or one taken away, is found by `tablelog verify` and by an import of an export.
-- Events recorded before this migration keep no chain: it is computed from them when needed.
ALTER TABLE events ADD COLUMN chain TEXT;
