-- Full-text index over chunk text (external content = chunks). drizzle-kit does
-- not model virtual tables, so this migration is hand-written. Triggers keep the
-- index in step on insert, update and delete so nothing deleted stays searchable.
CREATE VIRTUAL TABLE `chunks_fts` USING fts5(
	text,
	content='chunks',
	content_rowid='rowid',
	tokenize='porter unicode61 remove_diacritics 2'
);
--> statement-breakpoint
CREATE TRIGGER `chunks_fts_after_insert` AFTER INSERT ON `chunks` BEGIN
	INSERT INTO chunks_fts(rowid, text) VALUES (new.rowid, new.text);
END;
--> statement-breakpoint
CREATE TRIGGER `chunks_fts_after_delete` AFTER DELETE ON `chunks` BEGIN
	INSERT INTO chunks_fts(chunks_fts, rowid, text) VALUES ('delete', old.rowid, old.text);
END;
--> statement-breakpoint
CREATE TRIGGER `chunks_fts_after_update` AFTER UPDATE ON `chunks` BEGIN
	INSERT INTO chunks_fts(chunks_fts, rowid, text) VALUES ('delete', old.rowid, old.text);
	INSERT INTO chunks_fts(rowid, text) VALUES (new.rowid, new.text);
END;
