-- Roles on the phone page: admin, crew (the default: what every non-admin account could do
-- before) and family (read-only). An invite names the role of the account it makes.
ALTER TABLE account ADD COLUMN role TEXT NOT NULL DEFAULT 'crew' CHECK (role IN ('admin', 'crew', 'family'));
UPDATE account SET role = 'admin' WHERE admin = 1;
ALTER TABLE invite ADD COLUMN role TEXT NOT NULL DEFAULT 'crew' CHECK (role IN ('admin', 'crew', 'family'));
