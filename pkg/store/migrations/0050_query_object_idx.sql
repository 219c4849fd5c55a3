-- Query service: claims by their object value, for reverse lookups ("Who lives in Berlin?" names the object of
-- the claims it asks about, not their subject).
CREATE INDEX IF NOT EXISTS claims_object_idx ON claims (workspace_id, object_key);
