CREATE TABLE `oauth_states` (
	`nonce` text PRIMARY KEY NOT NULL,
	`action` text NOT NULL,
	`user_id` text,
	`redirect_path` text,
	`code_verifier` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	`expires_at` integer NOT NULL,
	`used_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
