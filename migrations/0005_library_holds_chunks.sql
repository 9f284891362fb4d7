-- Chunks and their full-text index move into each user's Library Durable Object
-- (worker/library/). Documents indexed before this migration must be uploaded
-- again to be searchable (there were no production users yet).
DROP TRIGGER IF EXISTS `chunks_fts_after_insert`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `chunks_fts_after_delete`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `chunks_fts_after_update`;
--> statement-breakpoint
DROP TABLE IF EXISTS `chunks_fts`;
--> statement-breakpoint
DROP TABLE `chunks`;
