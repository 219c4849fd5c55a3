// Package reconciler is Mneme's write path of record: it consumes the claims stream (MNEME_CLAIMS, one subject
// per partition), resolves contradictions with the TOKI operators and writes the bitemporal projection that the
// query service reads.
//
// # Tables as the reconciler writes them (what the query service may rely on)
//
// Every time stamp below except those called wall clock is log time: the stream time stamp of the claims-stream
// message that caused the row (never now()), so a replay writes identical rows.
//
//   - claims: one row per distinct claim id, immutable (content + provenance). slot_key is the predicate after
//     paraphrase merging; claims with the same (workspace_id, subject_key, slot_key) compete, shared ones per
//     workspace, private ones per owner_agent ("slot tier"). object_key is canon.ObjectKey(object); source_key is
//     the independent-source key ("agent:<id>/turn:<first turn>", "agent:<id>/ref:<source ref>" or
//     "agent:<id>"); extractor is provenance.extractor. recorded_at = log time of arrival; stream_seq/partition =
//     its position in MNEME_CLAIMS. owner_agent = provenance.agent_id (the asserting agent).
//   - claim_vectors: one row per claim (append-only, never updated), model and dim with every vector.
//   - claim_versions: the belief history of each claim. The current belief is the row with retired_at IS NULL
//     (exactly one per claim). A change of belief retires the current row (retired_at = log time of the change)
//     and appends version+1 (recorded_at = the same time). status: active (current value of its slot tier),
//     superseded (a later claim took over; valid_to = that claim's valid_from, superseded_by = it; a same-object
//     restatement also supersedes, with the same valid_to rule), disputed (truly simultaneous contradicting
//     claims: all sides flagged, surface them together), pending (held by await-confirmation), rejected (outranked
//     by evidence, superseded_by = the winner; or not confirmed before an await-confirmation timeout). valid_from
//     is the claim's; valid_to is set only by LWW. decision_id names the decision that produced the version.
//     "True now": current rows with status active (or disputed); "true at valid time T": claims whose
//     valid_from <= T and (valid_to IS NULL OR valid_to > T) among non-rejected, non-pending current rows;
//     "believed at transaction time T'": rows with recorded_at <= T' AND (retired_at IS NULL OR retired_at > T').
//   - decisions: one row per (message, slot tier) the message changed: operator pipeline (e.g. "lww",
//     "accumulate", "evidence", "await_confirmation|lww", "+judge" when a judge was consulted), policy_version,
//     inputs (the conflict set: the tier's live claims before the message plus the newcomer), winner, losers (the
//     claims this decision superseded or rejected), outcome (the triggering claim's new status, or confirmed /
//     timeout_accepted / timeout_rejected), reason (ids and keys only, never claim content), judge_key
//     (comma-separated keyed-judge-log entries used), decided_at (log time), partition/stream_seq.
//   - supersedes: edge claim_id → superseded_id with the decision that first drew it. Edges are never deleted by
//     resolution; the current successor of a claim is claim_versions.superseded_by of its current row.
//   - corroborations: (claim_id, source) for every independent source asserting the same object in the same slot
//     tier, the claim's own source included: count(*) per claim_id is its corroboration count.
//   - subject_aliases: (workspace_id, alias, subject_key) where alias is the lower-cased, space-normalized surface
//     form of the subject as claims named it.
//   - subject_predicates: per (workspace, subject, predicate_key) the slot it was merged into, with the cosine
//     similarity that merged it (NULL when it opened its own slot).
//   - claim_gates, confirmations, judgements, dead_letters, erasures, erasure_parts: see
//     pkg/store/migrations/0002_reconciler.sql.
//   - partition_offsets: the last applied claims-stream sequence per partition, written in the same transaction
//     as the rows it produced.
//
// Private claims: a private claim is only ever in a tier of its owner; readers must filter
// scope = 'shared' OR owner_agent = <calling agent> (see the read helpers in view.go). An agent's view is its
// private tier over the shared tier: private wins unless the shared claim is newer by valid time and
// corroborated by at least two independent sources.
//
// # Partition ownership
//
// Each partition has exactly one active owner across replicas. A replica holds, on one dedicated Postgres
// connection, a session advisory lock per owned partition and a member lock that makes it count as live; Postgres
// drops them when the process dies (kill -9 included) or its connection breaks, so partitions are free the moment
// their owner is gone, without lease timeouts. Each replica takes at most ceil(P/live) partitions and releases
// extras (after finishing the batch in flight) when others join. Alternatives considered: orbit.go pcgroups
// (ownership in NATS, pinned consumer groups) would fence the consumer but not the Postgres writes, which is where
// exactly-once effect must hold; leases in a table need clock-based expiry. The advisory lock alone is not enough
// either (a process that lost its connection may still be mid-batch on another one), hence the fence: every batch
// transaction starts with SELECT stream_seq FROM partition_offsets WHERE partition = $1 FOR UPDATE and aborts
// unless it equals the offset the batch started from. Inside the transaction a pg_advisory_xact_lock per
// (workspace, subject_key) guards the subject at hand-over. The owner reads its partition with an ordered
// consumer from the stored offset + 1: Postgres holds the truth, JetStream acks play no part.
package reconciler
