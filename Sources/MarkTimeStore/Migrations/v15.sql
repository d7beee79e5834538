-- The chronometer (#58): the monotonic clock's rate learned from a good source, and the
-- sample the time is carried from while every good source is gone, as JSON.
ALTER TABLE daemon_status ADD COLUMN chronometer TEXT;
-- GPS time set aside because it disagrees with the time carried, in words, while it is.
ALTER TABLE daemon_status ADD COLUMN gps_set_aside TEXT;
