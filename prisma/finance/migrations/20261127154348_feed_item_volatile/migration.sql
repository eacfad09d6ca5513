-- transaction_feed_item reads the status history with a snapshot of its own (volatile), not the
-- calling statement's (stable): a history statement's UPDATE of a transaction that waited for
-- another transaction's history write to commit rebuilt the item after the wait from the
-- statement's older snapshot, without the other's history row, and stored that.
ALTER FUNCTION "finance"."transaction_feed_item"("finance"."transactions") VOLATILE;
