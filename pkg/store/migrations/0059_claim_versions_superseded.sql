-- Query service: the values a subject's single-valued slots no longer have (store.ReplacedValues, read for
-- every search to mark a replaced value named in an older sentence). Found from the subject's single-valued
-- claims, each one's current version probed, the read grew with all the subject ever said of a single-valued
-- slot: in a grown loadbench workspace it was the second costliest statement of a search (about 6 ms and 900
-- buffers a call). The superseded beliefs of the present have an index of their own, by subject and newest
-- first, so the read stops at its limit.
CREATE INDEX IF NOT EXISTS claim_versions_superseded_idx ON claim_versions (workspace_id, subject_key, valid_from DESC)
	WHERE retired_at IS NULL AND status = 'superseded';
