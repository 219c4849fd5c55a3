package ingest

import (
	"runtime"
	"strings"
	"testing"

	"github.com/mneme-ai/mneme/services/ingest/hostile"
)

// TestHostileBodiesRejectedBeforeDecoding: bodies at the 8 MiB limit shaped to multiply a decoder's memory are
// refused naming the field and the limit, having allocated a small fraction of what decoding them costs (one
// such body took the process from 188 MB to 2 GB), and the valid baseline of the same size is accepted.
func TestHostileBodiesRejectedBeforeDecoding(t *testing.T) {
	const size = 8 << 20
	want := map[string]struct{ field, limit string }{
		"empty-objects":    {"turns", "256 items"},
		"deep-nesting":     {"turns[0].metadata.a" + strings.Repeat("[0]", 28), "32 levels"},
		"huge-array":       {"turns[0].metadata.a[99986]", "100000 values"},
		"long-string":      {"turns[0].content", "65536 bytes"},
		"many-small-items": {"claims", "1000 items"},
	}
	s := core(t, nil)
	for _, b := range hostile.Bodies(size) {
		t.Run(b.Name, func(t *testing.T) {
			if len(b.Data) > size || len(b.Data) < size-8<<10 {
				t.Fatalf("body is %d bytes, want just under %d", len(b.Data), size)
			}
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			events, ierr := s.decodeBatch(b.Kind, httpOrigin("alice"), b.Data)
			runtime.ReadMemStats(&after)
			allocated := after.TotalAlloc - before.TotalAlloc
			if b.Valid {
				if ierr != nil || len(events) != 256 {
					t.Fatalf("the valid baseline was refused: %v", ierr)
				}
				return
			}
			w := want[b.Name]
			if ierr == nil {
				t.Fatalf("accepted %d events", len(events))
			}
			if ierr.Status != 413 || ierr.Field != w.field || ierr.Limit != w.limit {
				t.Fatalf("got %d field %q limit %q (%s), want 413 field %q limit %q", ierr.Status, ierr.Field, ierr.Limit, ierr, w.field, w.limit)
			}
			// The long string is read whole once (the decoder's buffer grows by doubling, then the decoded copy):
			// a few times its size, then garbage. The others are refused within their first values (the huge array
			// after its 100,000th, about 90 bytes of garbage each).
			bound := uint64(16 << 20)
			if b.Name == "long-string" {
				bound = 6 * size
			}
			if allocated > bound {
				t.Fatalf("rejecting it allocated %d MiB", allocated>>20)
			}
			t.Logf("%s: %s — %d KiB allocated", b.Name, ierr, allocated>>10)
		})
	}
}

func TestPrescanBounds(t *testing.T) {
	for _, tt := range []struct {
		name, kind, body string
		mutate           func(*Config)
		field, limit     string
	}{
		{"values across items", kindClaims, claims(goodClaim, goodClaim, goodClaim), func(c *Config) { c.MaxJSONValues = 100 }, "", ""},
		{"values", kindClaims, claims(strings.Repeat(goodClaim+",", 20) + goodClaim), func(c *Config) { c.MaxJSONValues = 100 }, "claims[13].object", "100 values"},
		{"values in an unknown field", kindTurns, `{"junk":[` + strings.Repeat("{},", 200) + `{}],"turns":[` + goodTurn + `]}`, func(c *Config) { c.MaxJSONValues = 100 }, "junk[97]", "100 values"},
		{"depth", kindTurns, turns(`{"session_id":"s","role":"user","content":"x","metadata":{"a":{"b":[[1]]}}}`), func(c *Config) { c.MaxJSONDepth = 6 }, "turns[0].metadata.a.b[0]", "6 levels"},
		{"depth allowed", kindTurns, turns(`{"session_id":"s","role":"user","content":"x","metadata":{"a":{"b":[1]}}}`), func(c *Config) { c.MaxJSONDepth = 6 }, "", ""},
		{"turn id", kindTurns, turns(`{"turn_id":"` + strings.Repeat("i", 300) + `","session_id":"s","role":"user","content":"x"}`), nil, "turns[0].turn_id", "256 bytes"},
		{"escaped content counts decoded bytes", kindTurns, turns(`{"session_id":"s","role":"user","content":"` + strings.Repeat(`\n`, 40000) + `"}`), nil, "", ""},
		{"metadata string", kindTurns, turns(`{"session_id":"s","role":"user","content":"x","metadata":{"k":["` + strings.Repeat("m", 100) + `"]}}`), func(c *Config) { c.MaxMetadataBytes = 64 }, "turns[0].metadata", "64 bytes"},
		{"metadata key", kindTurns, turns(`{"session_id":"s","role":"user","content":"x","metadata":{"` + strings.Repeat("k", 100) + `":1}}`), func(c *Config) { c.MaxMetadataBytes = 64 }, "turns[0].metadata", "64 bytes"},
		{"unknown field's string", kindClaims, `{"claims":[` + goodClaim + `],"x":"` + strings.Repeat("x", 9000) + `"}`, func(c *Config) { c.MaxMetadataBytes = 100 }, "x", "8192 bytes"},
		{"claim agent id", kindClaims, claims(`{"agent_id":"` + strings.Repeat("a", 129) + `","subject":"A","predicate":"p","object":"o"}`), nil, "claims[0].agent_id", "128 bytes"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := core(t, tt.mutate)
			ierr := prescan([]byte(tt.body), s.scanLimits(tt.kind))
			switch {
			case tt.limit == "" && ierr != nil:
				t.Fatalf("refused: %v", ierr)
			case tt.limit == "":
			case ierr == nil:
				t.Fatalf("accepted, want field %q limit %q", tt.field, tt.limit)
			case ierr.Field != tt.field || ierr.Limit != tt.limit || ierr.Status != 413:
				t.Fatalf("got %d field %q limit %q (%s), want field %q limit %q", ierr.Status, ierr.Field, ierr.Limit, ierr, tt.field, tt.limit)
			}
		})
	}
}
