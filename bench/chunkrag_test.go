package bench

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/mneme-ai/mneme/pkg/embedding/embeddingtest"
	"github.com/mneme-ai/mneme/pkg/tokens"
)

func testConversation(turns int) *Conversation {
	c := &Conversation{ID: "c1"}
	day := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	var seq int64
	for s := 0; s < 3; s++ {
		sess := Session{ID: fmt.Sprintf("session %d", s+1), DateText: day.AddDate(0, 0, s).Format("2 January 2006")}
		for i := 0; i < turns; i++ {
			seq++
			sess.Turns = append(sess.Turns, Turn{
				ID: fmt.Sprintf("D%d:%d", s+1, i+1), Speaker: []string{"Ann", "Bob"}[i%2], Role: "user",
				Content: fmt.Sprintf("Filler sentence number %d about the weather and nothing else in session %d.", i, s+1),
				Time:    day.AddDate(0, 0, s).Add(time.Duration(i) * time.Second), Seq: seq,
			})
		}
		c.Sessions = append(c.Sessions, sess)
	}
	// One distinctive turn to retrieve.
	if turns > 7 {
		c.Sessions[1].Turns[7].Content = "My sister Zelda adopted a tortoise named Gamera last Tuesday."
	}
	return c
}

func TestChunkHistory(t *testing.T) {
	counter := tokens.Default()
	c := testConversation(40)
	chunks := ChunkHistory(c, counter, 128)
	if len(chunks) < 6 {
		t.Fatalf("%d chunks", len(chunks))
	}
	seen := map[string]int{}
	for _, ch := range chunks {
		if ch.Tokens > 128 {
			t.Errorf("chunk %d has %d tokens", ch.Index, ch.Tokens)
		}
		if !strings.HasPrefix(ch.Text, "[session ") {
			t.Errorf("chunk %d does not start with its session header: %q", ch.Index, ch.Text[:20])
		}
		for _, s := range ch.spans {
			seen[s.turnID]++
		}
		if len(ch.windows) == 0 {
			t.Errorf("chunk %d has no dense windows", ch.Index)
		}
	}
	for _, turn := range c.Turns() {
		if seen[turn.ID] != 1 {
			t.Errorf("turn %s is in %d chunks", turn.ID, seen[turn.ID])
		}
	}
	// A turn longer than a chunk is split across chunks, each piece within the size.
	long := &Conversation{ID: "l", Sessions: []Session{{ID: "s", Turns: []Turn{{ID: "t1", Content: strings.Repeat("word ", 600)}, {ID: "t2", Content: "short"}}}}}
	chunks = ChunkHistory(long, counter, 128)
	if len(chunks) < 5 {
		t.Fatalf("long turn: %d chunks", len(chunks))
	}
	for _, ch := range chunks {
		if ch.Tokens > 128 {
			t.Errorf("long turn chunk %d has %d tokens", ch.Index, ch.Tokens)
		}
	}
}

func TestBM25(t *testing.T) {
	b := NewBM25([]string{"the cat sat on the mat", "dogs are running in the park", "a cat and a dog", ""})
	s := b.Scores("Running dog")
	if !(s[1] > s[2] && s[2] > 0 && s[0] == 0 && s[3] == 0) {
		t.Fatalf("scores %v", s)
	}
	if got := rankBy(s); !slices.Equal(got, []int{1, 2, 0, 3}) {
		t.Fatalf("rank %v", got)
	}
	if got := AnalyzeTerms("The Runners were RUNNING, quickly!"); !slices.Equal(got, []string{"runner", "run", "quick"}) {
		t.Fatalf("terms %v", got)
	}
}

func TestChunkRAGRetrieve(t *testing.T) {
	ctx := context.Background()
	counter := tokens.Default()
	c := testConversation(40)
	rag := &ChunkRAG{Counter: counter, Embedder: embeddingtest.New(64), ChunkTokens: 128}
	if _, err := rag.Prepare(ctx, c); err != nil {
		t.Fatal(err)
	}
	q := &Question{Text: "What is the name of Zelda's tortoise?"}
	for _, budget := range []int{20, 100, 300} {
		r, err := rag.Retrieve(ctx, c, q, budget)
		if err != nil {
			t.Fatal(err)
		}
		if r.Tokens > budget {
			t.Errorf("budget %d: context has %d tokens", budget, r.Tokens)
		}
		if budget >= 100 && !r.TurnSet()["D2:8"] {
			t.Errorf("budget %d: the tortoise turn was not retrieved: %q", budget, r.Context)
		}
		for _, it := range r.Items {
			if !strings.Contains(r.Context, strings.SplitN(RenderTurn(findTurn(c, it.TurnIDs[0])), " ", 2)[1][:10]) {
				t.Errorf("item %v is not in the context", it.TurnIDs)
			}
		}
	}
	// Same input, same output.
	a, _ := rag.Retrieve(ctx, c, q, 300)
	b, _ := rag.Retrieve(ctx, c, q, 300)
	if a.Context != b.Context {
		t.Error("retrieval is not deterministic")
	}
	if _, err := rag.Retrieve(ctx, &Conversation{ID: "other"}, q, 100); err == nil {
		t.Error("an unprepared conversation was answered")
	}
}

func findTurn(c *Conversation, id string) Turn {
	for _, t := range c.Turns() {
		if t.ID == id {
			return t
		}
	}
	return Turn{}
}

func TestFullContext(t *testing.T) {
	c := testConversation(3)
	f := &FullContext{Counter: tokens.Default()}
	if _, err := f.Prepare(context.Background(), c); err != nil {
		t.Fatal(err)
	}
	r, _ := f.Retrieve(context.Background(), c, &Question{}, 10)
	if len(r.TurnSet()) != 9 || r.Tokens < 50 || !strings.Contains(r.Context, "[session 2, 2 January 2024]\nAnn: Filler") {
		t.Fatalf("%d turns, %d tokens: %q", len(r.TurnSet()), r.Tokens, r.Context)
	}
}

func TestTurnInputsSplitLongTurns(t *testing.T) {
	long := strings.Repeat("line of pasted code ü\n", 8000) // ~180 kB
	c := &Conversation{ID: "c", Sessions: []Session{{ID: "s", Turns: []Turn{{ID: "97", Role: "user", Content: long, Seq: 5}, {ID: "98", Role: "assistant", Content: "ok", Seq: 6}}}}}
	in := TurnInputs(c)
	if len(in) < 4 || in[0].TurnID != "97" || in[1].TurnID != "97~p2" || in[len(in)-1].TurnID != "98" {
		t.Fatalf("%d inputs, ids %s %s", len(in), in[0].TurnID, in[1].TurnID)
	}
	var joined strings.Builder
	for _, ti := range in[:len(in)-1] {
		if len(ti.Content) > MaxTurnBytes || !utf8.ValidString(ti.Content) || *ti.Sequence != 5 {
			t.Fatalf("part %s: %d bytes", ti.TurnID, len(ti.Content))
		}
		if SourceTurn(ti.TurnID) != "97" {
			t.Fatalf("SourceTurn(%s)", ti.TurnID)
		}
		joined.WriteString(ti.Content)
	}
	if joined.String() != long {
		t.Fatal("parts do not add up to the message")
	}
	if SourceTurn("D1:3") != "D1:3" {
		t.Fatal("SourceTurn changed an id without parts")
	}
}
