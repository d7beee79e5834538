-- The RTC kept as a chronometer (#58): the rate book's lines are a clock's, the rtc's as
-- well as the monotonic clock's, so the error column is the clock's own, with how far it
-- may be wrong (the good time it was measured against, and the RTC's read).
ALTER TABLE rate_book RENAME COLUMN system_error_s TO error_s;
ALTER TABLE rate_book ADD COLUMN error_uncertainty_s REAL;
-- The RTC as a chronometer, in words, for `marktime status`.
ALTER TABLE daemon_status ADD COLUMN rtc TEXT;
