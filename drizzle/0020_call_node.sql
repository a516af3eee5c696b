-- The node (NODE_NAME) that took each call; rows from before nodes had names get the default.
ALTER TABLE `calls` ADD `node` text DEFAULT 'node-1' NOT NULL;
