package reconciler

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/mneme-ai/mneme/pkg/event"
)

// FuzzDecode feeds arbitrary bytes to the claims-stream decoder: it must never panic, and whatever it accepts
// must satisfy the invariants the apply path relies on.
func FuzzDecode(f *testing.F) {
	e := &engine{partitions: 4, pinned: map[string]error{}}
	c := mkClaim("wsf", "Hana", "lives in", "Kyoto", baseTime, 4)
	env, _ := event.New(event.TypeClaimEmbedded, "claim:"+c.ClaimID, "t", c.Workspace, baseTime, c)
	good, _ := json.Marshal(env)
	f.Add(good, c.Partition)
	conf := event.ClaimConfirmedV1{Workspace: "wsf", ClaimID: c.ClaimID, SubjectKey: c.SubjectKey, AgentID: "a", ConfirmedAt: baseTime}
	env2, _ := event.New(event.TypeClaimConfirmed, "x", "t", "wsf", baseTime, conf)
	b2, _ := json.Marshal(env2)
	f.Add(b2, c.Partition)
	er := event.ErasureRequestedV1{ErasureID: c.ClaimID, Workspace: "wsf", Kind: "subject", Target: "hana"}
	env3, _ := event.New(event.TypeErasureRequested, "y", "t", "wsf", baseTime, er)
	b3, _ := json.Marshal(env3)
	f.Add(b3, 0)
	f.Add([]byte(`{"specversion":"1.0","id":"x","source":"s","type":"io.mneme.claim.v1.embedded","data":{"embedding":{"dim":-1}}}`), 0)
	f.Add([]byte("{"), 1)
	f.Fuzz(func(t *testing.T, data []byte, partition int) {
		it := e.decode(logMsg{Seq: 1, Time: time.Unix(0, 0), Data: data}, partition)
		if it.dead != "" {
			return
		}
		switch it.kind {
		case kindClaim:
			c := it.claim
			if c.Embedding.Dim <= 0 || len(c.Embedding.Values) != c.Embedding.Dim || c.Confidence < 0 || c.Confidence > 1 || c.SubjectKey == "" {
				t.Fatalf("accepted an invalid claim: %+v", c)
			}
			if it.sourceKey == "" || it.objectKey == "" {
				t.Fatal("accepted claim without source or object key")
			}
		case kindConfirm, kindErasure:
		default:
			t.Fatalf("accepted a message of kind %d", it.kind)
		}
	})
}

// FuzzParsePolicy feeds arbitrary documents to the policy parser: no panics, and an accepted policy answers
// every lookup.
func FuzzParsePolicy(f *testing.F) {
	f.Add([]byte(judgePolicy))
	f.Add([]byte(`{"version":"v","rules":[{"predicate":"*","source":"llm:*","await_confirmation":{"timeout":"1h","on_timeout":"reject"}}]}`))
	f.Add([]byte(`{"version":"v","rules":[{"predicate":"a|b*c","operator":"evidence","functional":false}]}`))
	f.Fuzz(func(t *testing.T, doc []byte) {
		p, err := ParsePolicy(doc)
		if err != nil {
			return
		}
		_ = p.forSlot("lives_in", "shared")
		_ = p.forClaim("lives_in", "lives_in", "private", "llm:x", "agent")
		if p.Version() == "" {
			t.Fatal("accepted policy without a version")
		}
	})
}
