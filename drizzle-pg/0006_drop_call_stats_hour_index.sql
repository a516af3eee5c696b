-- Peak hours read call_hour_stats (0004); this index on a counter column only made every call
-- write update it.
DROP INDEX "call_stats_user_hour_idx";
