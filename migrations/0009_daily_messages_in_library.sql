-- The daily message count moved into each user's Library (its daily_messages table):
-- a question is admitted without a D1 round trip. A day's count so far starts again once.
DROP TABLE `usage`;