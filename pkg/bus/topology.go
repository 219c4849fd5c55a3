// Package bus is Mneme's NATS JetStream layer: subject names, the partition function, stream and consumer
// topology (created idempotently at start-up), publishing with message ids and trace context, and an
// embedded server for the one-process mode.
package bus

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"strconv"
	"strings"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// Stream names.
const (
	StreamInbox    = "MNEME_INBOX"
	StreamTurns    = "MNEME_TURNS"
	StreamProposed = "MNEME_PROPOSED"
	StreamClaims   = "MNEME_CLAIMS"
	StreamLedger   = "MNEME_LEDGER"
	StreamDLQ      = "MNEME_DLQ"
	// BucketJudge is the key-value bucket holding the keyed judge log (see DESIGN.md: keyed judge log).
	BucketJudge = "MNEME_JUDGE"
)

// Durable consumer names (the NATS users' permissions name them, see pkg/natsauth).
const (
	ConsumerIngest    = "ingest"
	ConsumerExtractor = "extractor"
	ConsumerEmbedder  = "embedder"
)

// Message headers Mneme sets besides Nats-Msg-Id.
const (
	HeaderAgent       = "X-Mneme-Agent"
	HeaderDLQReason   = "Mneme-Dlq-Reason"
	HeaderDLQStage    = "Mneme-Dlq-Stage"
	HeaderDLQSubject  = "Mneme-Dlq-Subject"
	HeaderDLQStream   = "Mneme-Dlq-Stream"
	HeaderDLQSequence = "Mneme-Dlq-Sequence"
	// HeaderDLQSize is the size in bytes of the original body.
	HeaderDLQSize = "Mneme-Dlq-Size"
	// HeaderDLQDigest is "sha256:<hex>" of the original body.
	HeaderDLQDigest = "Mneme-Dlq-Digest"
	// HeaderDLQTruncated is "true" when the dead letter carries only the first DeadLetterExcerptBytes of the
	// body; the original is then found by stream and sequence (while its stream keeps it) and checked by digest.
	HeaderDLQTruncated = "Mneme-Dlq-Truncated"
	// HeaderDLQMsgID keeps the original Nats-Msg-Id (the dead letter has its own).
	HeaderDLQMsgID  = "Mneme-Dlq-Msg-Id"
	HeaderEventType = "Ce-Type"
)

// Subject builders. Workspace ids are restricted (see ValidWorkspaceID) so they are single NATS tokens.

// InboxTurnsSubject is where agents publish TurnsRequest bodies.
func InboxTurnsSubject(ws string) string { return "mneme.inbox." + ws + ".turns" }

// InboxClaimsSubject is where agents publish ClaimsRequest bodies.
func InboxClaimsSubject(ws string) string { return "mneme.inbox." + ws + ".claims" }

// TurnsSubject carries accepted turns (TurnAcceptedV1) of a workspace.
func TurnsSubject(ws string) string { return "mneme.turns." + ws }

// ProposedSubject carries claims awaiting embedding (ClaimProposedV1).
func ProposedSubject(ws string) string { return "mneme.proposed." + ws }

// ClaimsSubject carries embedded claims and other per-subject commands of one partition.
func ClaimsSubject(partition int) string { return "mneme.claims." + strconv.Itoa(partition) }

// ClaimsSubjectAll matches every partition's claims subject.
const ClaimsSubjectAll = "mneme.claims.*"

// LedgerSubject carries decision records of a workspace after they commit.
func LedgerSubject(ws string) string { return "mneme.ledger." + ws }

// DLQSubject carries dead letters of a stage ("ingest", "extractor", "embedder", "reconciler").
func DLQSubject(stage string) string { return "mneme.dlq." + stage }

// PartitionOf maps (workspace, subject_key) to a partition in [0, partitions): FNV-1a 32 over
// workspace, a NUL byte and the subject key. Every partitioned stage uses this function.
func PartitionOf(workspace, subjectKey string, partitions int) int {
	h := fnv.New32a()
	_, _ = h.Write([]byte(workspace))
	_, _ = h.Write([]byte{0})
	_, _ = h.Write([]byte(subjectKey))
	return int(h.Sum32() % uint32(partitions))
}

// ParsePartition returns the partition of a claims subject.
func ParsePartition(subject string) (int, error) {
	rest, ok := strings.CutPrefix(subject, "mneme.claims.")
	if !ok {
		return 0, fmt.Errorf("bus: %q is not a claims subject", subject)
	}
	return strconv.Atoi(rest)
}

// Topology describes the streams Mneme needs. Replicas is 1 on one machine and 3 on a cluster.
type Topology struct {
	Replicas int
	// DuplicateWindow is how long JetStream remembers Nats-Msg-Id values for deduplication.
	DuplicateWindow time.Duration
	// InboxMaxAge bounds how long unprocessed inbox messages are kept.
	InboxMaxAge time.Duration
	// DLQMaxAge bounds how long dead letters are kept.
	DLQMaxAge time.Duration
	// MaxMsgSize bounds a single message (an inbox batch); larger publishes are refused by the server.
	MaxMsgSize int32
	// InboxMaxPerSubject bounds the unprocessed messages of one inbox subject — one agent's turns or claims
	// (mneme.inbox.<ws>.<agent>.<kind>) — and refuses a publish beyond it (the publisher's acknowledgement is
	// an error, "maximum messages per subject exceeded"): an agent that floods fills only its own backlog, so
	// another agent's message waits behind at most this many of its messages. 0 means no bound.
	InboxMaxPerSubject int64
}

// DefaultTopology is the topology of one machine.
func DefaultTopology() Topology {
	return Topology{
		Replicas:        1,
		DuplicateWindow: 2 * time.Hour,
		InboxMaxAge:     7 * 24 * time.Hour,
		DLQMaxAge:       30 * 24 * time.Hour,
		MaxMsgSize:      8 << 20,
		// Far above what a well-behaved agent has outstanding (ingest takes a batch in milliseconds), low
		// enough that a flood delays others by seconds, not hours.
		InboxMaxPerSubject: 1000,
	}
}

// StreamConfigs returns the stream configurations. The rationale for each choice is in docs/architecture.md:
//   - inbox and proposed are work queues (a message is gone once a stage has taken responsibility for it);
//   - turns and claims are the logs of record (limits retention, no age limit): replay rebuilds from them;
//   - ledger keeps decisions for audit subscribers; DLQ keeps dead letters for inspection and redrive.
func (t Topology) StreamConfigs() []jetstream.StreamConfig {
	base := func(name string, subjects []string, ret jetstream.RetentionPolicy) jetstream.StreamConfig {
		return jetstream.StreamConfig{
			Name:        name,
			Subjects:    subjects,
			Retention:   ret,
			Storage:     jetstream.FileStorage,
			Replicas:    t.Replicas,
			Duplicates:  t.DuplicateWindow,
			MaxMsgSize:  t.MaxMsgSize,
			Discard:     jetstream.DiscardOld,
			AllowDirect: true,
		}
	}
	inbox := base(StreamInbox, []string{"mneme.inbox.>"}, jetstream.WorkQueuePolicy)
	inbox.MaxAge = t.InboxMaxAge
	if t.InboxMaxPerSubject > 0 {
		// Refuse new messages of a full subject rather than drop its oldest: an accepted batch is never lost.
		inbox.MaxMsgsPerSubject = t.InboxMaxPerSubject
		inbox.Discard = jetstream.DiscardNew
		inbox.DiscardNewPerSubject = true
	}
	turns := base(StreamTurns, []string{"mneme.turns.>"}, jetstream.LimitsPolicy)
	proposed := base(StreamProposed, []string{"mneme.proposed.>"}, jetstream.WorkQueuePolicy)
	proposed.MaxAge = t.InboxMaxAge
	claims := base(StreamClaims, []string{"mneme.claims.>"}, jetstream.LimitsPolicy)
	ledger := base(StreamLedger, []string{"mneme.ledger.>"}, jetstream.LimitsPolicy)
	dlq := base(StreamDLQ, []string{"mneme.dlq.>"}, jetstream.LimitsPolicy)
	dlq.MaxAge = t.DLQMaxAge
	return []jetstream.StreamConfig{inbox, turns, proposed, claims, ledger, dlq}
}

// TopologyRequestTimeout bounds one stream request of Ensure and Wait; a request that times out is sent
// again until the caller's context ends. On a cluster a request can go unanswered for good — two replicas
// creating the same stream at once (nats.go issue 949), or a request that reached a metadata leader as it
// died — and a single request bounded only by the start-up timeout would fail the start-up.
const TopologyRequestTimeout = 5 * time.Second

// Ensure creates or updates every stream and the judge-log bucket. It is idempotent and safe to call from
// every replica at start-up, at the same time; Mneme calls it only from the topology owner's
// (natsauth.TopologyOwner), the one service whose NATS user may manage streams. A request that times out,
// finds no JetStream leader or finds too few peers to place the replicas yet is repeated
// (TopologyRequestTimeout, placementPending) until ctx ends.
func (t Topology) Ensure(ctx context.Context, js jetstream.JetStream) error {
	for _, cfg := range t.StreamConfigs() {
		if err := retryRequest(ctx, func(rctx context.Context) error {
			_, err := js.CreateOrUpdateStream(rctx, cfg)
			return err
		}); err != nil {
			return fmt.Errorf("bus: ensure stream %s: %w", cfg.Name, err)
		}
	}
	if err := retryRequest(ctx, func(rctx context.Context) error {
		_, err := js.CreateOrUpdateKeyValue(rctx, jetstream.KeyValueConfig{
			Bucket:      BucketJudge,
			Description: "keyed judge log: verdicts written before they are applied; replay reads them",
			Storage:     jetstream.FileStorage,
			Replicas:    t.Replicas,
			History:     1,
		})
		return err
	}); err != nil {
		return fmt.Errorf("bus: ensure bucket %s: %w", BucketJudge, err)
	}
	return nil
}

// jsErrCodeClusterNoPeers is JetStream's "no suitable peers for placement" (nats-server's JSClusterNoPeersErrF;
// nats.go names no constant for it).
const jsErrCodeClusterNoPeers jetstream.ErrorCode = 10005

// placementPending reports a replicated stream that cannot be placed yet: while a cluster forms, its metadata
// leader may know fewer JetStream peers than the stream's replicas for some seconds (a scale-out test's
// reconciler, starting with the cluster on a loaded machine, failed its start-up on it). The same request
// succeeds once the peers have joined.
func placementPending(err error) bool {
	var apiErr *jetstream.APIError
	return errors.As(err, &apiErr) && apiErr.ErrorCode == jsErrCodeClusterNoPeers
}

// retryRequest calls f with a context bounded by TopologyRequestTimeout until it succeeds, fails for a reason
// other than NATS not answering (Unavailable) or a stream not placeable yet (placementPending), or ctx ends;
// waits between attempts grow from 100ms to 1s. A cluster that never has the peers fails when ctx ends, with
// the placement error.
func retryRequest(ctx context.Context, f func(context.Context) error) error {
	wait := 100 * time.Millisecond
	for {
		rctx, cancel := context.WithTimeout(ctx, TopologyRequestTimeout)
		err := f(rctx)
		cancel()
		if err == nil || ctx.Err() != nil || !Unavailable(err) && !placementPending(err) {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(wait):
		}
		wait = min(2*wait, time.Second)
	}
}

// Wait returns once every stream of the topology and the judge-log bucket exist, polling every interval until
// ctx ends: what a service whose NATS user may not create streams does at start-up while the one that may
// (Ensure) starts. It needs only stream info.
func (t Topology) Wait(ctx context.Context, js jetstream.JetStream, interval time.Duration) error {
	names := []string{"KV_" + BucketJudge}
	for _, cfg := range t.StreamConfigs() {
		names = append(names, cfg.Name)
	}
	tick := time.NewTicker(interval)
	defer tick.Stop()
	for _, name := range names {
		for {
			rctx, cancel := context.WithTimeout(ctx, TopologyRequestTimeout)
			_, err := js.Stream(rctx, name)
			cancel()
			if err == nil {
				break
			}
			if !errors.Is(err, jetstream.ErrStreamNotFound) && (ctx.Err() != nil || !Unavailable(err)) {
				return fmt.Errorf("bus: stream %s: %w", name, err)
			}
			select {
			case <-ctx.Done():
				return fmt.Errorf("bus: stream %s does not exist yet: %w", name, context.Cause(ctx))
			case <-tick.C:
			}
		}
	}
	return nil
}
