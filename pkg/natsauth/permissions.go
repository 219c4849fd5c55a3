package natsauth

import (
	"fmt"
	"slices"

	"github.com/nats-io/jwt/v2"

	"github.com/mneme-ai/mneme/pkg/bus"
)

// Mneme's users in the MNEME account: one per service, plus the replay command. Each may use only the
// subjects and JetStream API calls its service uses (ServicePermissions).
const (
	UserIngest     = "ingest"
	UserExtractor  = "extractor"
	UserEmbedder   = "embedder"
	UserReconciler = "reconciler"
	UserQuery      = "query"
	// UserReplay is `mneme replay`: it reads the claims log and the judge log, and writes nothing to NATS.
	UserReplay = "replay"
	// UserSystem is the system account's user: `mneme nats revoke-agent` pushes account updates with it.
	UserSystem = "sys"
)

// ServiceUsers lists the MNEME account's users in the order `mneme nats init` writes them.
var ServiceUsers = []string{UserIngest, UserExtractor, UserEmbedder, UserReconciler, UserQuery, UserReplay}

// InboxPrefix is the reply-subject prefix of the user with public key userKey. A user may subscribe only
// under its own prefix, so no client reads another's replies (JetStream acknowledgements, pulled messages);
// clients must be told to use it (nats.go: nats.CustomInboxPrefix, done by bus.Connect from the .creds file).
func InboxPrefix(userKey string) string { return bus.UserInboxPrefix(userKey) }

// api is a JetStream API subject.
func api(format string, args ...any) string { return "$JS.API." + fmt.Sprintf(format, args...) }

// TopologyOwner is the service whose user creates and updates Mneme's streams and the judge-log bucket at
// start-up (bus.Topology.Ensure); the others wait for them (bus.Topology.Wait), reading stream info only, and
// query, which reads Postgres only, has no JetStream right at all. The reconciler owns the topology because
// it owns what the streams exist for — the claims log, the judge log and the ledger — and already manages
// stream contents (erasure); ingest, which decodes every outside byte, is the last service that should be
// able to reconfigure a stream.
const TopologyOwner = UserReconciler

// topologyStreams are the streams the topology owner creates and updates at start-up (bus.Topology.Ensure).
// Nobody but the operator's tools may delete or purge them.
func topologyStreams() []string {
	names := []string{"KV_" + bus.BucketJudge}
	for _, c := range bus.DefaultTopology().StreamConfigs() {
		names = append(names, c.Name)
	}
	return names
}

// ensureTopology are the API calls of bus.Topology.Ensure: stream create, update and info (CreateOrUpdate
// reads the stream first) for Mneme's streams and the judge-log bucket, and the account's JetStream info
// (the key-value client reads the server's API level from it).
func ensureTopology() []string {
	out := []string{api("INFO")}
	for _, s := range topologyStreams() {
		out = append(out, api("STREAM.INFO.%s", s), api("STREAM.CREATE.%s", s), api("STREAM.UPDATE.%s", s))
	}
	return out
}

// waitTopology are the API calls of bus.Topology.Wait: stream info of Mneme's streams and the judge-log bucket.
func waitTopology() []string {
	var out []string
	for _, s := range topologyStreams() {
		out = append(out, api("STREAM.INFO.%s", s))
	}
	return out
}

// durableConsumer are the API calls of one durable pull consumer: create it (with or without a filter in the
// subject, and the older durable form), read its info, pull from it and acknowledge what it delivered.
func durableConsumer(stream, name string) []string {
	return []string{
		api("CONSUMER.CREATE.%s.%s", stream, name),
		api("CONSUMER.CREATE.%s.%s.>", stream, name),
		api("CONSUMER.DURABLE.CREATE.%s.%s", stream, name),
		api("CONSUMER.INFO.%s.%s", stream, name),
		api("CONSUMER.MSG.NEXT.%s.%s", stream, name),
		"$JS.ACK." + stream + "." + name + ".>",
	}
}

// orderedConsumers are the API calls of ordered (ephemeral) consumers on stream: the client names them and
// recreates them after a gap, deleting the old one.
func orderedConsumers(stream string) []string {
	return []string{
		api("CONSUMER.CREATE.%s.>", stream),
		api("CONSUMER.DELETE.%s.*", stream),
		api("CONSUMER.INFO.%s.*", stream),
		api("CONSUMER.MSG.NEXT.%s.*", stream),
	}
}

// readMessages are the API calls that read one stored message by sequence or last-by-subject (the stream
// allows direct gets, which the client prefers).
func readMessages(stream string) []string {
	return []string{api("STREAM.INFO.%s", stream), api("STREAM.MSG.GET.%s", stream), api("DIRECT.GET.%s", stream), api("DIRECT.GET.%s.>", stream)}
}

// ServicePermissions returns what the user of a Mneme service (or the replay command) may publish and
// subscribe to, derived from what the service does:
//
//   - every service: its own reply inbox; a service that publishes, the leader-elected advisories of the streams
//     it publishes to (bus.PublishedStreams);
//   - the reconciler (TopologyOwner): ensuring the topology (stream create/update/info); ingest, extractor
//     and embedder: waiting for it (stream info);
//   - ingest: pull from the inbox consumer "ingest", publish accepted turns and proposed claims, dead-letter;
//   - extractor: pull from "extractor" on the turns log, publish proposed claims, dead-letter;
//   - embedder: pull from "embedder" on the proposed work queue, publish embedded claims to the partitions,
//     dead-letter;
//   - reconciler: ordered consumers on the claims log, decisions to the ledger, erasure commands to the
//     partitions, reading and securely deleting erased messages from every stream, the judge log (read,
//     create, purge), dead-letter;
//   - query: nothing beyond its reply inbox (it reads Postgres only);
//   - replay: ordered consumers on the claims log and reads of the claims and judge logs; no topology.
//
// Nothing here allows deleting or purging a stream, deleting another service's consumer, or subscribing to a
// stream subject directly.
func ServicePermissions(user, userKey string) (jwt.Permissions, error) {
	var p jwt.Permissions
	p.Sub.Allow.Add(InboxPrefix(userKey) + ".>")
	for _, s := range bus.PublishedStreams[user] {
		// JetStream's advisory that the stream has a new leader (its name, leader and replicas, no content): a
		// publish sent to a leader that died is sent again as soon as it arrives (bus.WatchLeaders).
		p.Sub.Allow.Add(bus.LeaderElectedSubject(s))
	}
	pub := func(s ...string) { p.Pub.Allow.Add(s...) }
	judge := "KV_" + bus.BucketJudge
	switch user {
	case UserIngest:
		pub(waitTopology()...)
		pub(durableConsumer(bus.StreamInbox, bus.ConsumerIngest)...)
		pub(bus.TurnsSubject("*"), bus.ProposedSubject("*"), bus.DLQSubject("ingest"))
	case UserExtractor:
		pub(waitTopology()...)
		pub(durableConsumer(bus.StreamTurns, bus.ConsumerExtractor)...)
		pub(bus.ProposedSubject("*"), bus.DLQSubject("extractor"))
	case UserEmbedder:
		pub(waitTopology()...)
		pub(durableConsumer(bus.StreamProposed, bus.ConsumerEmbedder)...)
		pub(bus.ClaimsSubjectAll, bus.DLQSubject("embedder"))
	case UserReconciler:
		pub(ensureTopology()...)
		pub(orderedConsumers(bus.StreamClaims)...)
		for _, s := range []string{bus.StreamClaims, bus.StreamTurns, bus.StreamProposed, bus.StreamLedger, bus.StreamDLQ, bus.StreamInbox} {
			pub(readMessages(s)...)
			pub(api("STREAM.MSG.DELETE.%s", s))
		}
		pub(readMessages(judge)...)
		pub("$KV." + bus.BucketJudge + ".>")
		pub(bus.LedgerSubject("*"), bus.ClaimsSubjectAll, bus.DLQSubject("reconciler"))
	case UserQuery:
		// An empty allow list would allow everything: deny every publish explicitly (its reply inbox needs
		// none; a subscription receives without publishing).
		p.Pub.Deny.Add(">")
	case UserReplay:
		pub(orderedConsumers(bus.StreamClaims)...)
		pub(readMessages(bus.StreamClaims)...)
		pub(readMessages(judge)...)
	default:
		return jwt.Permissions{}, fmt.Errorf("natsauth: unknown service user %q (one of %v)", user, ServiceUsers)
	}
	slices.Sort(p.Pub.Allow)
	return p, nil
}

// AgentPermissions returns what an agent's user may do: publish batches to its own two inbox subjects in its
// workspace and subscribe to its own reply inbox (for the JetStream acknowledgement). Nothing else: no
// JetStream API, no other subject, no other inbox.
func AgentPermissions(ws, agent, userKey string) jwt.Permissions {
	var p jwt.Permissions
	p.Pub.Allow.Add(bus.InboxAgentSubject(ws, agent, bus.InboxKindTurns), bus.InboxAgentSubject(ws, agent, bus.InboxKindClaims))
	p.Sub.Allow.Add(InboxPrefix(userKey) + ".>")
	return p
}
