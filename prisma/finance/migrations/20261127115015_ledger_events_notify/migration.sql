-- A statement that adds ledger events NOTIFYs finance_ledger_events when its transaction commits,
-- so the agents service's consumer (LISTENing on the same database) reads them at once instead of
-- at its next poll. One notification per statement, whatever its number of rows: the consumer
-- reads the outbox, the notification only wakes it.
CREATE FUNCTION "finance"."ledger_events_notify"() RETURNS TRIGGER LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('finance_ledger_events', '');
  RETURN NULL;
END $$;

CREATE TRIGGER "ledger_events_notify" AFTER INSERT ON "finance"."ledger_events"
  FOR EACH STATEMENT EXECUTE FUNCTION "finance"."ledger_events_notify"();
