-- Query service: the current beliefs of a slot or a subject, found from their belief versions. A slot's claims
-- are found by claims_slot_idx and each one's current version looked up: where values change, most of them are
-- replaced values (in a grown loadbench workspace a person's employer slot holds 26 claims, one of them
-- current), and the slot read of a search probed about 215 versions to keep some 30 (860 of its 1,441
-- buffers). The belief versions now carry their claim's subject and slot keys, and the current beliefs of the
-- present have an index of their own, so a read of the present (store.View.Present) goes from a slot or
-- subject straight to its current versions (507 buffers for the same read).
--
-- The keys are the claim's, which never change (claims rows are immutable). The reconciler writes them with
-- each version (store.VersionRow); a trigger copies them from the claim where a writer left them out (a writer
-- of an earlier version during a rolling upgrade, a tool), so they are complete whoever wrote the row. The claim
-- is always written first (store.Write: claims before what refers to them). The trigger runs only for such
-- rows: calling it for every row cost the reconciler's COPY about a tenth of its rate (reconbench, raw COPY).
ALTER TABLE claim_versions ADD COLUMN IF NOT EXISTS subject_key text, ADD COLUMN IF NOT EXISTS slot_key text;

CREATE OR REPLACE FUNCTION claim_versions_slot_keys() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	SELECT c.subject_key, c.slot_key INTO NEW.subject_key, NEW.slot_key FROM claims c WHERE c.id = NEW.claim_id;
	RETURN NEW;
END
$$;

DROP TRIGGER IF EXISTS claim_versions_slot_keys ON claim_versions;
CREATE TRIGGER claim_versions_slot_keys BEFORE INSERT ON claim_versions
	FOR EACH ROW WHEN (NEW.subject_key IS NULL OR NEW.slot_key IS NULL) EXECUTE FUNCTION claim_versions_slot_keys();

UPDATE claim_versions v SET subject_key = c.subject_key, slot_key = c.slot_key
FROM claims c WHERE c.id = v.claim_id AND v.subject_key IS NULL;

-- The present's beliefs, as store.View states them ("active" or "disputed" on the current version); the
-- planner uses the index only where a read states the same condition.
CREATE INDEX IF NOT EXISTS claim_versions_present_slot_idx ON claim_versions (workspace_id, subject_key, slot_key)
	WHERE retired_at IS NULL AND status IN ('active', 'disputed');
