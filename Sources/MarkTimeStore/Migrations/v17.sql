-- A GPS position that moved faster than the boat can (#58, gps.max_speed_kn): why it is
-- not a plain fix, in words, on the sight that kept it and on the daemon's live fix.
ALTER TABLE sight ADD COLUMN position_flag TEXT;
ALTER TABLE daemon_status ADD COLUMN fix_flag TEXT;
