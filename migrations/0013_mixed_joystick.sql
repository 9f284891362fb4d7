CREATE TABLE `chat_folders` (
	`session_id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`folder_id` text NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`folder_id`) REFERENCES `folders`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `chat_folders_folder_idx` ON `chat_folders` (`folder_id`);--> statement-breakpoint
CREATE TABLE `folders` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`name` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `folders_user_name_unique` ON `folders` (`user_id`,"name" COLLATE NOCASE);--> statement-breakpoint
ALTER TABLE `documents` ADD `folder_id` text REFERENCES folders(id) ON DELETE set null;--> statement-breakpoint
CREATE INDEX `documents_folder_idx` ON `documents` (`folder_id`);