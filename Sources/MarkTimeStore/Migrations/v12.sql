-- The status row and the live status file are one record: the anchor's live figures (JSON) join the row.
ALTER TABLE daemon_status ADD COLUMN anchor TEXT;
