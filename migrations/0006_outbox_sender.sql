ALTER TABLE `email_outbox` ADD `sender_id` text;--> statement-breakpoint
CREATE INDEX `email_outbox_sender_idx` ON `email_outbox` (`sender_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `email_outbox_to_idx` ON `email_outbox` (`to`,`created_at`);