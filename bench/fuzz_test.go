package bench

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The loaders decode outside input: whatever a data file holds, they return a dataset or an error, never
// panic, and what they return validates or is reported as invalid.
func FuzzLoaders(f *testing.F) {
	f.Add([]byte(`[{"context":"Here:\n0. A is married to B.\n1. A is married to C.","questions":["Who is A married to?"],"answers":[["C"]],"metadata":{"source":"factconsolidation_sh_6k","qa_pair_ids":["x"]}}]`))
	f.Add([]byte(`[{"sample_id":"c","conversation":{"speaker_a":"A","session_1_date_time":"1:56 pm on 8 May, 2023","session_1":[{"speaker":"A","dia_id":"D1:1","text":"hi"}]},"qa":[{"question":"q","answer":3,"evidence":["D1:1; D:1:1"],"category":5}]}]`))
	f.Add([]byte(`[{"question_id":"q_abs","question_type":"multi-session","question":"?","answer":"a","haystack_session_ids":["s"],"haystack_dates":["2023/05/20 (Sat) 02:21"],"haystack_sessions":[[{"role":"user","content":"x","has_answer":true}]],"answer_session_ids":["s"]}]`))
	f.Add([]byte(`{"pool":"dev","dialogs":[{"id":"d","user":"Ann","sessions":[{"date":"2024-01-01","turns":[{"user":"I live in Oslo."}]},{"date":"2024-02-01T10:00:00Z","turns":[{"user":"I moved to Bergen."},{"assistant":"ok"}]}],"questions":[{"id":"q","kind":"current","attribute":"city","question":"?","answer":"Bergen","stale":["Oslo"],"about":["Ann"]}]}]}`))
	f.Add([]byte(`[]`))
	f.Add([]byte(`{`))
	f.Fuzz(func(t *testing.T, data []byte) {
		p := filepath.Join(t.TempDir(), "d.json")
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		for _, b := range []string{FactConsolidation, LoCoMo, LongMemEval, ConvUpdates} {
			d, err := Load(b, p)
			if err != nil {
				continue
			}
			_, _ = d.Validate()
			for _, c := range d.Conversations {
				_ = RenderHistory(c)
			}
			if b == FactConsolidation {
				if _, err := RewordFactConsolidation(d, RewordOptions{Variant: VariantBoth, Pool: PoolCheck, Seed: 3}); err != nil {
					t.Fatalf("rewording a loaded dataset: %v", err)
				}
			}
			for _, q := range d.Questions {
				_ = ConvCorrect(q, string(data))
				_ = StaleInContext(q, &Retrieval{Context: string(data)})
			}
		}
	})
}

func FuzzBEAM(f *testing.F) {
	f.Add([]byte(`[{"batch_number":1,"time_anchor":null,"turns":[[{"role":"user","id":0,"time_anchor":"March-15-2024","content":"hi"},{"role":"assistant","id":1,"content":"yo"}]]}]`),
		[]byte(`{"knowledge_update":[{"question":"?","answer":"a","source_chat_ids":{"original_info":[0],"updated_info":[1]}}],"event_ordering":[{"question":"?","answer":"b","source_chat_ids":[0,[1]]}]}`))
	f.Add([]byte(`[]`), []byte(`{}`))
	f.Fuzz(func(t *testing.T, chat, probes []byte) {
		dir := t.TempDir()
		if err := os.MkdirAll(filepath.Join(dir, "1", "probing_questions"), 0o755); err != nil {
			t.Fatal(err)
		}
		_ = os.WriteFile(filepath.Join(dir, "1", "chat.json"), chat, 0o644)
		_ = os.WriteFile(filepath.Join(dir, "1", "probing_questions", "probing_questions.json"), probes, 0o644)
		if d, err := LoadBEAM(dir); err == nil {
			_, _ = d.Validate()
		}
	})
}

func FuzzParseLLMTokens(f *testing.F) {
	f.Add("mneme_llm_tokens_total{kind=\"prompt\"} 12\nmneme_llm_tokens_total{kind=\"completion\"} 1e3\n")
	f.Add("mneme_llm_tokens_total{kind=\"prompt\"} NaN\nmneme_llm_tokens")
	f.Fuzz(func(t *testing.T, s string) {
		_, _, _ = parseLLMTokens(strings.NewReader(s))
	})
}

func FuzzReadJSONL(f *testing.F) {
	f.Add([]byte("{\"system\":\"mneme\"}\n{\"sys"))
	f.Add([]byte("\n\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		p := filepath.Join(t.TempDir(), "r.jsonl")
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		_, _ = ReadJSONL[Row](p)
		if s, err := OpenStore(p); err == nil {
			_ = s.Put(&Row{System: "x", QuestionID: "y"})
			s.Close()
			if _, err := ReadJSONL[Row](p); err != nil && !strings.Contains(err.Error(), "line") {
				t.Fatal(err)
			}
		}
	})
}
