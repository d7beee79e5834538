-- Set by a daemon that stopped gracefully, so status does not call it running.
ALTER TABLE daemon_status ADD COLUMN stopped INTEGER NOT NULL DEFAULT 0;
