-- Query service: a search's slot read (store.SlotClaimsOf) reads a single-valued slot whole, to resolve its
-- current value, but of an accumulating slot only the values its candidates name: a speaker's "said" slot holds
-- every sentence they said (2,589 claims of one speaker in a BEAM conversation), and reading it whole cost 48 ms
-- of a search and, past the read's bound, lost the newest candidates. Whether a slot holds a single-valued claim
-- is one probe of this index (single-valued claims are a small share of most slots' claims).
CREATE INDEX IF NOT EXISTS claims_functional_slot_idx ON claims (workspace_id, subject_key, slot_key) WHERE functional;
