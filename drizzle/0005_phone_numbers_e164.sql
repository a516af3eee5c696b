-- Caller and dialled numbers used to be stored as the trunk sent them (07…, 44…, +44…), so a
-- caller's erasure request or a search missed the other spellings. New rows are written in
-- E.164 (core/calls/call-store.ts, core/questions/repository.ts); this converts the rows
-- stored before. phone_e164() is the same rule (contract/phone.ts, libphonenumber-js),
-- registered on the connection by core/db/client.ts before migrations run: E.164 for a
-- number in any spelling, anything else ("anonymous") unchanged. Rows already in E.164
-- shape are skipped in SQL, so a large database does not call into JavaScript per row.
UPDATE calls SET from_number = phone_e164(from_number)
WHERE NOT (from_number GLOB '+[1-9]*' AND substr(from_number, 2) NOT GLOB '*[^0-9]*');
--> statement-breakpoint
UPDATE calls SET to_number = phone_e164(to_number)
WHERE NOT (to_number GLOB '+[1-9]*' AND substr(to_number, 2) NOT GLOB '*[^0-9]*');
--> statement-breakpoint
UPDATE unanswered_questions SET caller_number = phone_e164(caller_number)
WHERE caller_number IS NOT NULL AND NOT (caller_number GLOB '+[1-9]*' AND substr(caller_number, 2) NOT GLOB '*[^0-9]*');
