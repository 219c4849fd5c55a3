package bench

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/mneme-ai/mneme/bench/factcons"
	"github.com/mneme-ai/mneme/pkg/llm"
)

// Reader answers a question from a system's context with an LLM and scores the answer with the benchmark's
// judging protocol: FactConsolidation by substring exact match (no judge), LoCoMo by a CORRECT/WRONG judge
// (adversarial questions by the official "not mentioned" rule), BEAM by a 0/0.5/1 judge per rubric item
// (averaged), LongMemEval by a yes/no judge whose criteria depend on the question type.
//
// The prompts follow the published protocols (inputs, labels, criteria); PromptDir may hold the published
// templates verbatim to use instead (see ReaderPrompt and JudgePrompt for the file names and placeholders).
type Reader struct {
	// Chat is the reader model; Judge the judge model (Chat when nil).
	Chat, Judge *llm.Client
	// PromptDir optionally overrides prompts with template files.
	PromptDir string
	// Seed is sent with every call, for servers that honour it.
	Seed int64
}

// NewReaderFromEnv builds a Reader from MNEME_LLM_BASE_URL, MNEME_LLM_MODEL, MNEME_LLM_API_KEY and,
// optionally, MNEME_JUDGE_BASE_URL, MNEME_JUDGE_MODEL, MNEME_JUDGE_API_KEY (default: the reader's). It
// returns nil, nil when no LLM is configured.
func NewReaderFromEnv(promptDir string) (*Reader, error) {
	base, model := os.Getenv("MNEME_LLM_BASE_URL"), os.Getenv("MNEME_LLM_MODEL")
	if base == "" && model == "" {
		return nil, nil
	}
	if base == "" || model == "" {
		return nil, errors.New("set both MNEME_LLM_BASE_URL and MNEME_LLM_MODEL (or neither) to run the LLM reader and judge")
	}
	chat, err := llm.New(llm.Config{BaseURL: base, Model: model, APIKey: os.Getenv("MNEME_LLM_API_KEY")})
	if err != nil {
		return nil, fmt.Errorf("MNEME_LLM_*: %w", err)
	}
	r := &Reader{Chat: chat, PromptDir: promptDir, Seed: 42}
	jbase, jmodel := os.Getenv("MNEME_JUDGE_BASE_URL"), os.Getenv("MNEME_JUDGE_MODEL")
	if jbase != "" || jmodel != "" {
		if jbase == "" {
			jbase = base
		}
		if jmodel == "" {
			jmodel = model
		}
		key := os.Getenv("MNEME_JUDGE_API_KEY")
		if key == "" {
			key = os.Getenv("MNEME_LLM_API_KEY")
		}
		if r.Judge, err = llm.New(llm.Config{BaseURL: jbase, Model: jmodel, APIKey: key}); err != nil {
			return nil, fmt.Errorf("MNEME_JUDGE_*: %w", err)
		}
	}
	return r, nil
}

// Model names the reader model (and the judge, when different).
func (r *Reader) Model() string {
	if r.Judge != nil && r.Judge.Model() != r.Chat.Model() {
		return r.Chat.Model() + " (judge " + r.Judge.Model() + ")"
	}
	return r.Chat.Model()
}

func (r *Reader) judge() *llm.Client {
	if r.Judge != nil {
		return r.Judge
	}
	return r.Chat
}

// readerMaxTokens caps the reader's answer: MemoryAgentBench generates at most 10 tokens for
// FactConsolidation; the conversational benchmarks get room for a sentence or a short paragraph.
func readerMaxTokens(bench string) int {
	switch bench {
	case FactConsolidation:
		return 10
	case BEAM:
		return 512
	}
	return 200
}

// Default reader prompts, one per benchmark; {context}, {question} and {date} are filled in.
var defaultReaderPrompts = map[string]string{
	FactConsolidation: "You are a knowledge base. Below are the facts you remember, each with a serial number; " +
		"when facts conflict, the one with the larger serial number is the newer one and is the truth.\n\n" +
		"{context}\n\nAnswer the question with the answer only, no explanation.\nQuestion: {question}\nAnswer:",
	LoCoMo: "Below are memories from a long conversation between two people, with the dates they were said.\n\n" +
		"{context}\n\nUsing only these memories, answer the question in a short phrase (at most a few words). " +
		"Resolve relative dates (\"last year\", \"yesterday\") against the date of the memory. If the memories do " +
		"not contain the answer, say that the information is not mentioned.\nQuestion: {question}\nAnswer:",
	BEAM: "You are the user's assistant in a long-running conversation. Below is what you remember of it.\n\n" +
		"{context}\n\nAnswer the user's question using what you remember. If what you remember is contradictory, " +
		"say so and ask which is right; if it does not say, say that you do not know.\nQuestion: {question}\nAnswer:",
	ConvUpdates: "You are the user's assistant. Below is what you remember of your conversations with them, with " +
		"dates.\n\n{context}\n\nAnswer the question with what is true now, briefly; when something changed, the " +
		"latest statement is what holds. If the question asks about an earlier value, give that one.\n" +
		"Question: {question}\nAnswer:",
	LongMemEval: "Below is the history of your chats with the user.\n\n{context}\n\nCurrent date: {date}\n" +
		"Answer the question based on the relevant chat history, briefly.\nQuestion: {question}\nAnswer:",
}

// ReaderPrompt returns the reader prompt of a benchmark: PromptDir/<bench>.reader.txt when present, else the
// default, with placeholders filled.
func (r *Reader) ReaderPrompt(bench string, q *Question, context string) (string, error) {
	tmpl, err := r.template(bench+".reader.txt", defaultReaderPrompts[bench])
	if err != nil {
		return "", err
	}
	date := ""
	if q.Date != nil {
		date = q.Date.Format("2006/01/02 (Mon) 15:04")
	}
	return fill(tmpl, map[string]string{"context": context, "question": q.Text, "date": date}), nil
}

func (r *Reader) template(name, def string) (string, error) {
	if r.PromptDir == "" {
		return def, nil
	}
	b, err := os.ReadFile(filepath.Join(r.PromptDir, name))
	if errors.Is(err, os.ErrNotExist) {
		return def, nil
	}
	return string(b), err
}

func fill(tmpl string, vars map[string]string) string {
	pairs := make([]string, 0, 2*len(vars))
	for k, v := range vars {
		pairs = append(pairs, "{"+k+"}", v)
	}
	return strings.NewReplacer(pairs...).Replace(tmpl)
}

// Judge prompts. LoCoMo follows the CORRECT/WRONG protocol of the Mem0 evaluation (generous on wording and
// date formats); BEAM the 0/0.5/1 rubric-item protocol of its unified judge; LongMemEval the yes/no protocol
// of its evaluate_qa.py with per-type criteria.
const (
	locomoJudge = "Label a generated answer to a question as CORRECT or WRONG, given the gold answer. The " +
		"question asks about something one speaker should know about another from their past conversations. " +
		"Be generous: the generated answer is CORRECT if it refers to the same thing as the gold answer, even if " +
		"it is longer or worded differently; for time questions it is CORRECT if it names the same date or " +
		"period in any format (\"May 7th\" and \"7 May\" agree).\n\nQuestion: {question}\nGold answer: {gold}\n" +
		"Generated answer: {answer}\n\nReply with JSON: {\"label\": \"CORRECT\" or \"WRONG\"}."
	beamJudge = "You are grading an assistant's response against one rubric criterion. Score 1 if the " +
		"response fully satisfies the criterion, 0.5 if it partially does, 0 if it does not.\n\nQuestion: " +
		"{question}\nCriterion: {rubric}\nResponse: {answer}\n\nReply with JSON: {\"score\": 0, 0.5 or 1, " +
		"\"reason\": \"...\"}."
	lmeJudge = "I will give you a question, a correct answer, and a response from a model. Answer yes if the " +
		"response contains the correct answer, or is equivalent to it, or contains all the intermediate steps to " +
		"get it; answer no if it contains only part of the required information.{extra}\n\nQuestion: " +
		"{question}\nCorrect answer: {gold}\nModel response: {answer}\n\nIs the model response correct? Reply " +
		"with JSON: {\"answer\": \"yes\" or \"no\"}."
)

// lmeExtra are LongMemEval's per-type judging criteria.
var lmeExtra = map[string]string{
	"temporal-reasoning": " Do not penalize off-by-one errors in the number of days, weeks or months.",
	"knowledge-update":   " If the response contains some previous information along with the updated answer, it is still correct as long as the updated answer is the required one.",
	"single-session-preference": " The correct answer is a rubric of the user's preferences: answer yes if the " +
		"response satisfies the rubric (it need not mention every point), no otherwise.",
}

var judgeSchema = &llm.JSONSchema{Name: "verdict", Schema: json.RawMessage(`{"type":"object","properties":{"label":{"type":"string"},"score":{"type":"number"},"answer":{"type":"string"},"reason":{"type":"string"}},"additionalProperties":false}`)}

type verdict struct {
	Label  string   `json:"label"`
	Score  *float64 `json:"score"`
	Answer string   `json:"answer"`
	Reason string   `json:"reason"`
}

// AnswerAndJudge reads the context, answers, and scores the answer.
func (r *Reader) AnswerAndJudge(ctx context.Context, bench string, q *Question, ret *Retrieval) (*LLMResult, error) {
	prompt, err := r.ReaderPrompt(bench, q, ret.Context)
	if err != nil {
		return nil, err
	}
	seed := r.Seed
	resp, err := r.Chat.Chat(ctx, llm.ChatRequest{Stage: "reader", Messages: []llm.Message{llm.User(prompt)},
		MaxTokens: readerMaxTokens(bench), Seed: &seed})
	if err != nil {
		return nil, fmt.Errorf("reader: %w", err)
	}
	res := &LLMResult{Model: r.Model(), Answer: strings.TrimSpace(resp.Content),
		PromptTokens: resp.Usage.PromptTokens, CompletionTokens: resp.Usage.CompletionTokens}
	res.Tokens = ret.Tokens + int(resp.Usage.PromptTokens+resp.Usage.CompletionTokens)
	score, judge, used, err := r.score(ctx, bench, q, res.Answer)
	if err != nil {
		return nil, err
	}
	res.Score, res.Judge, res.JudgeTokens = score, judge, used
	return res, nil
}

// score applies the benchmark's judging protocol; it returns the score in [0, 1], the judge's word and the
// judge tokens spent.
func (r *Reader) score(ctx context.Context, bench string, q *Question, answer string) (float64, string, int64, error) {
	switch {
	case bench == FactConsolidation:
		if factcons.SubstringExactMatch(answer, q.Golds) {
			return 1, "substring exact match", 0, nil
		}
		return 0, "no substring exact match", 0, nil
	case bench == ConvUpdates:
		if ConvCorrect(q, answer) {
			return 1, "gold, no stale value as current", 0, nil
		}
		return 0, "wrong or stale", 0, nil
	case bench == LoCoMo && q.Category == "adversarial":
		s := LoCoMoF1(q.Category, answer, nil)
		return s, "official adversarial rule", 0, nil
	case bench == LoCoMo:
		v, used, err := r.ask(ctx, bench+".judge.txt", locomoJudge, map[string]string{"question": q.Text, "gold": first(q.Golds), "answer": answer})
		if err != nil {
			return 0, "", used, err
		}
		if strings.EqualFold(strings.TrimSpace(v.Label), "CORRECT") {
			return 1, "CORRECT", used, nil
		}
		return 0, "WRONG", used, nil
	case bench == BEAM:
		rubric := q.Rubric
		if len(rubric) == 0 {
			rubric = []string{"The response should state: " + first(q.Golds)}
		}
		var total float64
		var spent int64
		var words []string
		for _, item := range rubric {
			v, used, err := r.ask(ctx, bench+".judge.txt", beamJudge, map[string]string{"question": q.Text, "rubric": item, "answer": answer})
			spent += used
			if err != nil {
				return 0, "", spent, err
			}
			s := 0.0
			if v.Score != nil {
				s = min(max(*v.Score, 0), 1)
			}
			total += s
			words = append(words, strconv.FormatFloat(s, 'g', -1, 64))
		}
		return total / float64(len(rubric)), "rubric " + strings.Join(words, "/"), spent, nil
	default: // LongMemEval
		extra := lmeExtra[q.Category]
		gold := first(q.Golds)
		if q.Abstention {
			extra = " The question cannot be answered from the history: answer yes if the model says it cannot " +
				"answer or that the information is not available, no otherwise."
			gold = "(unanswerable) " + gold
		}
		v, used, err := r.ask(ctx, bench+".judge.txt", lmeJudge, map[string]string{"question": q.Text, "gold": gold, "answer": answer, "extra": extra})
		if err != nil {
			return 0, "", used, err
		}
		if strings.HasPrefix(strings.ToLower(strings.TrimSpace(v.Answer+v.Label)), "yes") {
			return 1, "yes", used, nil
		}
		return 0, "no", used, nil
	}
}

func (r *Reader) ask(ctx context.Context, file, def string, vars map[string]string) (verdict, int64, error) {
	var v verdict
	tmpl, err := r.template(file, def)
	if err != nil {
		return v, 0, err
	}
	seed := r.Seed
	resp, err := r.judge().ChatJSON(ctx, llm.ChatRequest{Stage: "judge", Messages: []llm.Message{llm.User(fill(tmpl, vars))},
		MaxTokens: 200, Seed: &seed, Schema: judgeSchema}, &v)
	if err != nil {
		return v, 0, fmt.Errorf("judge: %w", err)
	}
	return v, resp.Usage.PromptTokens + resp.Usage.CompletionTokens, nil
}

func first(ss []string) string {
	if len(ss) == 0 {
		return ""
	}
	return ss[0]
}
