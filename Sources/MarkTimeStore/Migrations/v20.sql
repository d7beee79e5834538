-- The last fix the position check trusted (#58), as JSON: a daemon restarted in the same
-- boot checks the next fix against it, so a restart does not make a spoofer's position
-- the first trusted one.
ALTER TABLE daemon_status ADD COLUMN trusted_fix TEXT;
