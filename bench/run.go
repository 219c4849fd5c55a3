package bench

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
)

// RunOptions configures one benchmark run.
type RunOptions struct {
	// OutDir receives results.jsonl, ingest.jsonl, report.md, summary.json and the plots.
	OutDir  string
	Systems []System
	Eval    Evaluator
	// Settings are shown in the report, one line each.
	Settings []string
	// Progress receives progress bars (nil: none).
	Progress io.Writer
	// Workers is how many questions are evaluated at once (default 2).
	Workers int
	Logger  *slog.Logger
}

// Fingerprint hashes the parts of a configuration into a short id; rows measured under another
// configuration are not reused.
func Fingerprint(parts ...string) string {
	h := sha256.Sum256([]byte(strings.Join(parts, "\x00")))
	return hex.EncodeToString(h[:])[:10]
}

// Run ingests every conversation into every system that still has questions to answer about it, evaluates
// the questions not yet in results.jsonl, and writes the report from all recorded rows of this dataset and
// configuration. It returns the report.
func Run(ctx context.Context, ds *Dataset, o RunOptions) (*Report, error) {
	log := o.Logger
	if log == nil {
		log = slog.Default()
	}
	if o.Workers <= 0 {
		o.Workers = 2
	}
	if err := os.MkdirAll(o.OutDir, 0o755); err != nil {
		return nil, err
	}
	store, err := OpenStore(filepath.Join(o.OutDir, "results.jsonl"))
	if err != nil {
		return nil, err
	}
	defer store.Close()
	ingestPath := filepath.Join(o.OutDir, "ingest.jsonl")
	cfg := o.Eval.Config

	byConv := map[string][]*Question{}
	for _, q := range ds.Questions {
		byConv[q.ConversationID] = append(byConv[q.ConversationID], q)
	}
	type job struct {
		sys  System
		conv *Conversation
		q    *Question
	}
	total := 0
	for _, q := range ds.Questions {
		for _, s := range o.Systems {
			if !store.Done(s.Name(), q.ID, cfg) {
				total++
			}
		}
	}
	var bar *progressbar.ProgressBar
	if o.Progress != nil && total > 0 {
		bar = progressbar.NewOptions(total, progressbar.OptionSetWriter(o.Progress),
			progressbar.OptionSetDescription(ds.Bench), progressbar.OptionShowCount(), progressbar.OptionShowIts(),
			progressbar.OptionSetItsString("q"), progressbar.OptionThrottle(200*time.Millisecond),
			progressbar.OptionSetPredictTime(true), progressbar.OptionOnCompletion(func() { fmt.Fprintln(o.Progress) }))
	}
	if total == 0 {
		log.Info("every question is already answered for this configuration; writing the report", "results", filepath.Join(o.OutDir, "results.jsonl"))
	}
	for ci, conv := range ds.Conversations {
		var jobs []job
		pending := map[string]bool{}
		for _, s := range o.Systems {
			for _, q := range byConv[conv.ID] {
				if !store.Done(s.Name(), q.ID, cfg) {
					jobs = append(jobs, job{s, conv, q})
					pending[s.Name()] = true
				}
			}
		}
		if len(jobs) == 0 {
			continue
		}
		failed := map[string]error{}
		for _, s := range o.Systems {
			if !pending[s.Name()] {
				continue
			}
			if bar != nil {
				bar.Describe(fmt.Sprintf("%s: preparing %s for %s (%d/%d)", ds.Bench, s.Name(), conv.ID, ci+1, len(ds.Conversations)))
			}
			st, err := s.Prepare(ctx, conv)
			ir := IngestRow{Bench: ds.Bench, System: s.Name(), Conversation: conv.ID, Config: cfg, IngestStats: st}
			if err != nil {
				if ctx.Err() != nil {
					return nil, ctx.Err()
				}
				ir.Error = err.Error()
				failed[s.Name()] = err
				log.Error("preparing a conversation failed; its questions are recorded as errors and retried by the next run",
					"system", s.Name(), "conversation", conv.ID, "err", err)
			}
			if !st.Skipped || err != nil {
				if err := dropTornLine(ingestPath); err != nil {
					return nil, err
				}
				if err := AppendJSONL(ingestPath, ir); err != nil {
					return nil, err
				}
			}
		}
		if bar != nil {
			bar.Describe(fmt.Sprintf("%s: %s (%d/%d)", ds.Bench, conv.ID, ci+1, len(ds.Conversations)))
		}
		work := make(chan job)
		var wg sync.WaitGroup
		var putErr error
		var mu sync.Mutex
		for range o.Workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for j := range work {
					var row *Row
					if err := failed[j.sys.Name()]; err != nil {
						row = &Row{Bench: ds.Bench, System: j.sys.Name(), QuestionID: j.q.ID, Conversation: conv.ID,
							Category: j.q.Category, Config: cfg, Question: j.q.Text, Golds: j.q.Golds,
							Conflicted: j.q.Conflicted, Abstention: j.q.Abstention, Attribute: j.q.Attribute, Error: "prepare: " + err.Error()}
					} else {
						row = o.Eval.Evaluate(ctx, j.sys, j.conv, j.q)
					}
					if ctx.Err() != nil {
						return // an interrupted measurement is not a result
					}
					if err := store.Put(row); err != nil {
						mu.Lock()
						putErr = err
						mu.Unlock()
					}
					if bar != nil {
						_ = bar.Add(1)
					}
				}
			}()
		}
	feed:
		for _, j := range jobs {
			select {
			case work <- j:
			case <-ctx.Done():
				break feed
			}
		}
		close(work)
		wg.Wait()
		if putErr != nil {
			return nil, putErr
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
	}
	if bar != nil {
		_ = bar.Finish()
	}
	return buildReport(ds, o, store)
}

// buildReport collects this dataset's rows of this configuration and the latest ingest record per system
// and conversation, and writes report.md, summary.json and the plots.
func buildReport(ds *Dataset, o RunOptions, store *Store) (*Report, error) {
	cfg := o.Eval.Config
	want := map[string]bool{}
	for _, q := range ds.Questions {
		want[q.ID] = true
	}
	systems := map[string]bool{}
	for _, s := range o.Systems {
		systems[s.Name()] = true
	}
	var rows []*Row
	for _, r := range store.Rows(cfg) {
		if r.Bench == ds.Bench && want[r.QuestionID] && systems[r.System] {
			rows = append(rows, r)
		}
	}
	rep := &Report{Bench: ds.Bench, Data: ds.Source, Config: cfg, Settings: o.Settings, Rows: rows}
	if o.Eval.Reader != nil {
		rep.Reader = o.Eval.Reader.Model()
	}
	ing, err := ReadJSONL[IngestRow](filepath.Join(o.OutDir, "ingest.jsonl"))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	convs := map[string]bool{}
	for _, c := range ds.Conversations {
		convs[c.ID] = true
	}
	latest := map[string]*IngestRow{}
	var order []string
	for _, r := range ing {
		if r.Config != cfg || r.Bench != ds.Bench || !convs[r.Conversation] || !systems[r.System] {
			continue
		}
		k := r.System + "\x00" + r.Conversation
		if _, ok := latest[k]; !ok {
			order = append(order, k)
		}
		latest[k] = r
	}
	for _, k := range order {
		rep.Ingest = append(rep.Ingest, latest[k])
	}
	for _, ps := range rep.PlotSpecs() {
		if err := RenderPlot(o.OutDir, ps); err != nil {
			return nil, err
		}
		rep.Plots = append(rep.Plots, ps.File)
	}
	if err := os.WriteFile(filepath.Join(o.OutDir, "report.md"), []byte(rep.Markdown()), 0o644); err != nil {
		return nil, err
	}
	sum, err := json.MarshalIndent(rep.Summary(), "", "  ")
	if err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(o.OutDir, "summary.json"), append(sum, '\n'), 0o644); err != nil {
		return nil, err
	}
	return rep, nil
}
