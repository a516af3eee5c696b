ALTER TABLE "calls" ADD COLUMN "test_call" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- Hand-written: the owner's own test calls ("Call my line", issue 28) stay out of the
-- analytics counters, as SQLite's triggers leave them out (drizzle/0018). test_call is set at
-- insert and never changes, so skipping it on every operation keeps the counters exact.
CREATE OR REPLACE FUNCTION calls_stats_trigger() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- A call deleted with its owner (the cascade) is not counted down: the owner's counters
  -- are deleted whole (users_call_stats_delete), whichever of the two triggers runs first.
  IF (TG_OP = 'UPDATE' OR (TG_OP = 'DELETE' AND EXISTS (SELECT 1 FROM users WHERE id = OLD.user_id))) AND NOT OLD.test_call THEN
    PERFORM call_stats_bump(OLD, -1);
  END IF;
  IF TG_OP <> 'DELETE' AND NOT NEW.test_call THEN
    PERFORM call_stats_bump(NEW, 1);
  END IF;
  RETURN NULL;
END $$;
