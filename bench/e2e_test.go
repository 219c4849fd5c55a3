package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/mneme-ai/mneme/pkg/embedding"
	"github.com/mneme-ai/mneme/pkg/openaitest"
)

// TestEndToEnd runs the mneme-bench command on tiny slices (the hand-written LongMemEval file and three
// FactConsolidation questions) through the real system started in-process, then reruns it to check that
// finished rows are skipped. It builds the command first, so a tree whose internal/app does not build yet
// skips this test instead of failing the package; so do missing model weights or no PostgreSQL, unless
// MNEME_REQUIRE_MODEL=1.
func TestEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end run skipped in -short mode")
	}
	require := os.Getenv("MNEME_REQUIRE_MODEL") == "1"
	skip := func(format string, args ...any) {
		t.Helper()
		if require {
			t.Fatalf(format+" (MNEME_REQUIRE_MODEL=1)", args...)
		}
		t.Skipf(format, args...)
	}
	_, file, _, _ := runtime.Caller(0)
	root := filepath.Join(filepath.Dir(file), "..")
	bin := filepath.Join(t.TempDir(), "mneme-bench")
	build := exec.Command("go", "build", "-o", bin, "./bench/cmd/mneme-bench")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		skip("mneme-bench does not build yet (internal/app or a service is in progress):\n%s", out)
	}
	if _, err := os.Stat(filepath.Join(embedding.DefaultModelDir(), "model.json")); err != nil {
		skip("local embedding model weights missing (%v): run `make deps`", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	admin := os.Getenv("MNEME_TEST_DATABASE_URL")
	if admin == "" {
		admin = "postgres://mneme@127.0.0.1:54329/mneme?sslmode=disable"
	}
	conn, err := pgx.Connect(ctx, admin)
	if err != nil {
		if os.Getenv("MNEME_REQUIRE_DB") == "1" {
			t.Fatalf("no PostgreSQL at the local cluster: %v", err)
		}
		skip("no PostgreSQL (%v): start it with `scripts/pg.sh start`", err)
	}
	conn.Close(ctx)

	out := t.TempDir()
	var env []string
	run := func(args ...string) Summary {
		t.Helper()
		cmd := exec.Command(bin, append([]string{"-progress=false", "-settle", "1s"}, args...)...)
		cmd.Dir = root
		cmd.Env = append(os.Environ(), env...)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil {
			t.Fatalf("mneme-bench %v: %v\n%s", args, err, stderr.String())
		}
		lines := strings.Split(strings.TrimSpace(stdout.String()), "\n")
		var s Summary
		if err := json.Unmarshal([]byte(lines[len(lines)-1]), &s); err != nil {
			t.Fatalf("last stdout line is not the JSON summary: %q (%v)\n%s", lines[len(lines)-1], err, stderr.String())
		}
		return s
	}

	lme := filepath.Join(out, "lme")
	s := run("-bench", LongMemEval, "-data", filepath.Join("bench", "testdata", "longmemeval_tiny.json"), "-out", lme, "-budgets", "100,500")
	if s.Questions != 3 || s.Rows != 12 || s.Errors != 0 {
		t.Fatalf("longmemeval summary %+v", s)
	}
	rows, err := ReadJSONL[Row](filepath.Join(lme, "results.jsonl"))
	if err != nil || len(rows) != 12 {
		t.Fatalf("%d rows, %v", len(rows), err)
	}
	for _, r := range rows {
		if r.System == SystemFullContext && (len(r.Budgets) != 1 || *r.Budgets[0].EvidenceRecall != 1) {
			t.Errorf("full-context row %+v", r)
		}
	}
	for _, f := range []string{"report.md", "summary.json", "ingest.jsonl", "longmemeval-pareto.png"} {
		if _, err := os.Stat(filepath.Join(lme, f)); err != nil {
			t.Error(err)
		}
	}
	// A rerun answers nothing again and reports the same figures.
	again := run("-bench", LongMemEval, "-data", filepath.Join("bench", "testdata", "longmemeval_tiny.json"), "-out", lme, "-budgets", "100,500", "-systems", "chunk-rag,full-context")
	if again.Rows != 6 {
		t.Fatalf("rerun summary %+v", again)
	}
	if rows2, _ := ReadJSONL[Row](filepath.Join(lme, "results.jsonl")); len(rows2) != 12 {
		t.Fatalf("rerun wrote %d rows", len(rows2)-12)
	}

	// With an LLM configured (here the local OpenAI-protocol test server), every row carries the reader's
	// answer and the judge's verdict.
	srv := openaitest.NewServer(t, openaitest.WithChatHandler(func(r openaitest.Request) openaitest.Response {
		if strings.Contains(string(r.Body), "response_format") || strings.Contains(string(r.Body), "Reply with JSON") {
			return openaitest.ChatReplyJSON(map[string]string{"answer": "yes"})
		}
		return openaitest.ChatReply("A border collie")
	}))
	env = []string{"MNEME_LLM_BASE_URL=" + srv.URL(), "MNEME_LLM_MODEL=test-reader"}
	withLLM := filepath.Join(out, "llm")
	s = run("-bench", LongMemEval, "-data", filepath.Join("bench", "testdata", "longmemeval_tiny.json"), "-out", withLLM, "-budgets", "100", "-systems", "chunk-rag,full-context")
	if s.Headline[SystemFullContext]["llm_accuracy"] != 1 || s.Errors != 0 {
		t.Fatalf("LLM summary %+v", s)
	}
	rows, _ = ReadJSONL[Row](filepath.Join(withLLM, "results.jsonl"))
	for _, r := range rows {
		if r.LLM == nil || r.LLM.Model != "test-reader" || r.LLM.Answer != "A border collie" {
			t.Fatalf("row without LLM result: %+v", r)
		}
	}
	env = nil

	if !dataMissing(t, DefaultData(FactConsolidation, sharedDataDirFor(root))) {
		fc := filepath.Join(out, "fc")
		s = run("-bench", FactConsolidation, "-limit", "3", "-out", fc, "-budgets", "200", "-systems", "mneme,chunk-rag")
		if s.Questions != 3 || s.Rows != 6 || s.Errors != 0 {
			t.Fatalf("factconsolidation summary %+v", s)
		}
		if _, ok := s.Headline[SystemMneme]["single-hop"]; !ok {
			t.Fatalf("no mneme answers in %+v", s.Headline)
		}
	}
}
