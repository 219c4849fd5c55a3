package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/mneme-ai/mneme/pkg/embedding"
)

// buildBench builds mneme-bench and checks that the real system can run (model weights, PostgreSQL),
// skipping the test otherwise unless MNEME_REQUIRE_MODEL=1. It returns the binary and the repository root.
func buildBench(t *testing.T) (bin, root string) {
	t.Helper()
	if testing.Short() {
		t.Skip("end-to-end run skipped in -short mode")
	}
	skip := func(format string, args ...any) {
		t.Helper()
		if os.Getenv("MNEME_REQUIRE_MODEL") == "1" {
			t.Fatalf(format+" (MNEME_REQUIRE_MODEL=1)", args...)
		}
		t.Skipf(format, args...)
	}
	_, file, _, _ := runtime.Caller(0)
	root = filepath.Join(filepath.Dir(file), "..")
	bin = filepath.Join(t.TempDir(), "mneme-bench")
	build := exec.Command("go", "build", "-o", bin, "./bench/cmd/mneme-bench")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		skip("mneme-bench does not build yet:\n%s", out)
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
	return bin, root
}

func runBench(t *testing.T, bin, root string, args ...string) Summary {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"-progress=false", "-settle", "1s"}, args...)...)
	cmd.Dir = root
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

// TestDevDataEndToEnd runs two hand-made dialogs through the real system (turns over the API, one session
// after another, questions through /answer and /search) and checks the metrics where their value is known:
// the full history shows every gold and presents both stale values (Oslo, Equinor) as current on their
// original lines; Mneme's rows are scored by the same rule as their answers. Then a reworded
// FactConsolidation slice runs through the same command.
func TestDevDataEndToEnd(t *testing.T) {
	bin, root := buildBench(t)
	out := t.TempDir()

	cu := filepath.Join(out, "cu")
	s := runBench(t, bin, root, "-bench", ConvUpdates, "-data", filepath.Join("bench", "testdata", "convupdates_tiny.json"),
		"-out", cu, "-budgets", "500", "-systems", "mneme,full-context")
	if s.Questions != 4 || s.Rows != 8 || s.Errors != 0 {
		t.Fatalf("convupdates summary %+v", s)
	}
	full := s.Headline[SystemFullContext]
	for k, want := range map[string]float64{"current_gold_in_context@500": 1, "past_gold_in_context@500": 1, "unchanged_gold_in_context@500": 1,
		"stale_as_current": 1, "stale_as_current_context@all": 1} {
		if got, ok := full[k]; !ok || got != want {
			t.Errorf("full-context %s = %v (present %v), want %v", k, got, ok, want)
		}
	}
	if _, ok := s.Headline[SystemMneme]["current"]; !ok {
		t.Errorf("no mneme current-value accuracy in %+v", s.Headline)
	}
	if len(s.Goals) != 2 {
		t.Errorf("goals %+v", s.Goals)
	}
	rows, err := ReadJSONL[Row](filepath.Join(cu, "results.jsonl"))
	if err != nil || len(rows) != 8 {
		t.Fatalf("%d rows, %v", len(rows), err)
	}
	d, err := LoadConvUpdates(filepath.Join(root, "bench", "testdata", "convupdates_tiny.json"))
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]*Question{}
	for _, q := range d.Questions {
		byID[q.ID] = q
	}
	staleRows := 0
	for _, r := range rows {
		q := byID[r.QuestionID]
		if q == nil || r.Attribute != q.Attribute || r.Category != q.Category {
			t.Fatalf("row %+v does not match its question", r)
		}
		switch r.System {
		case SystemFullContext:
			br := r.Budgets[0]
			if want := q.Category == KindCurrent; br.StaleAsCurrent != want {
				t.Errorf("full-context %s: stale as current %v (%q), want %v", r.QuestionID, br.StaleAsCurrent, br.StaleLine, want)
			}
			if q.ID == "tiny-1/q1" && br.StaleLine != "Ann: I live in Oslo with my dog Kaja." {
				t.Errorf("tiny-1/q1 stale line %q", br.StaleLine)
			}
		case SystemMneme:
			if r.Answer == nil || len(r.Budgets) != 1 {
				t.Fatalf("mneme row without an answer or a context: %+v", r)
			}
			if r.Answer.Correct != ConvCorrect(q, r.Answer.Text) || r.Answer.Stale != (StaleInAnswer(q, r.Answer.Text) != "") {
				t.Errorf("mneme %s: answer %q scored correct=%v stale=%v", r.QuestionID, r.Answer.Text, r.Answer.Correct, r.Answer.Stale)
			}
			if r.Category == KindCurrent && (r.Answer.Stale || r.Budgets[0].StaleAsCurrent) {
				staleRows++
			}
		}
	}
	if got, want := s.Headline[SystemMneme]["stale_as_current"], float64(staleRows)/2; got != want {
		t.Errorf("mneme stale_as_current %v, want %v from the rows", got, want)
	}
	report, err := os.ReadFile(filepath.Join(cu, "report.md"))
	if err != nil || !strings.Contains(string(report), "## Per attribute: mneme") || !strings.Contains(string(report), "| employer | 1 |") {
		t.Errorf("report lacks the per-attribute table (%v):\n%s", err, report)
	}

	if dataMissing(t, DefaultData(FactConsolidation, sharedDataDirFor(root))) {
		return
	}
	fc := filepath.Join(out, "fc")
	dump := filepath.Join(out, "reworded.json")
	s = runBench(t, bin, root, "-bench", FactConsolidation, "-variant", "both", "-pool", "check", "-limit", "3", "-out", fc,
		"-budgets", "200", "-systems", "mneme,full-context", "-dump", dump)
	if s.Questions != 3 || s.Rows != 6 || s.Errors != 0 {
		t.Fatalf("reworded factconsolidation summary %+v", s)
	}
	if got := s.Headline[SystemFullContext]["single-hop_gold_in_context@500"]; got != 1 {
		t.Errorf("full-context shows the gold of %v of the reworded questions, want all", got)
	}
	rows, _ = ReadJSONL[Row](filepath.Join(fc, "results.jsonl"))
	pub, err := LoadFactConsolidation(DefaultData(FactConsolidation, sharedDataDirFor(root)))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		i := slices.IndexFunc(pub.Questions, func(q *Question) bool { return q.ID == r.QuestionID })
		if i < 0 || r.Question == pub.Questions[i].Text || !slices.Equal(r.Golds, pub.Questions[i].Golds) {
			t.Errorf("row %s: question %q golds %v; published %q", r.QuestionID, r.Question, r.Golds, pub.Questions[i].Text)
		}
	}
	rows2, err := LoadFactConsolidation(dump)
	if err != nil || len(rows2.Questions) != 200 || len(rows2.Conversations[0].Turns()) != 455 {
		t.Fatalf("the dump (the whole variant) does not read back as FactConsolidation rows: %v", err)
	}
}

// sharedDataDirFor is ../shared/data beside the repository root, or $MNEME_SHARED_DATA.
func sharedDataDirFor(root string) string {
	if d := os.Getenv("MNEME_SHARED_DATA"); d != "" {
		return d
	}
	return filepath.Join(root, "..", "shared", "data")
}
