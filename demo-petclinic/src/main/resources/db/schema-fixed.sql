-- The fixed variant's additions to schema.sql (idempotent).
-- Optimistic locking: the forms carry these versions in a hidden field.
ALTER TABLE owners ADD COLUMN IF NOT EXISTS version INT NOT NULL DEFAULT 0;
ALTER TABLE pets ADD COLUMN IF NOT EXISTS version INT NOT NULL DEFAULT 0;
-- The duplicate-name rule, enforced where concurrent requests cannot both pass it.
CREATE UNIQUE INDEX IF NOT EXISTS pets_owner_lower_name_unique ON pets (owner_id, lower(name));
