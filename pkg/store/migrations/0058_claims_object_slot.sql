-- Query service: the slot read (store.SlotClaimsOf) finds an accumulating slot's values by subject, slot and
-- object. By object alone (the index before this one) a common value ("Berlin", an employer many people share)
-- brought every claim of it in the workspace to keep one slot's: in a loadbench workspace the slot read rose from
-- about 3 to 13 ms a search. The object key stays first, so a read by object alone (store.ClaimsByObject) is
-- served as before.
DROP INDEX IF EXISTS claims_object_idx;
CREATE INDEX claims_object_idx ON claims (workspace_id, object_key, subject_key, slot_key);
