-- Duplicate uploads are found by the indexer, after the index call answered with the upload's own
-- fileId: the alias keeps that id too, so whoever holds it is led to the existing document.
ALTER TABLE `upload_aliases` ADD `upload_id` text;--> statement-breakpoint
CREATE INDEX `upload_aliases_upload_idx` ON `upload_aliases` (`upload_id`);