-- The every-minute recovery asks for the owners of documents still being indexed: a partial
-- index holds only those rows (a few, against every indexed document), by owner.
CREATE INDEX `documents_indexing_user_idx` ON `documents` (`user_id`,`status`) WHERE status IN ('pending', 'processing');
