-- gpsd lost its fix (mode 1) or went silent (mode 0): since when, on the monotonic clock.
-- The position kept is the last one gpsd gave, never a current one (#45).
ALTER TABLE daemon_status ADD COLUMN fix_lost_mono_ns INTEGER;
ALTER TABLE daemon_status ADD COLUMN fix_lost_mode INTEGER;
