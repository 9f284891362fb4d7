CREATE TABLE `document_overviews` (
	`document_id` text PRIMARY KEY NOT NULL,
	`outline` text NOT NULL,
	`summary` text NOT NULL,
	`questions` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	FOREIGN KEY (`document_id`) REFERENCES `documents`(`id`) ON UPDATE no action ON DELETE cascade
);
