// Package promptguard keeps what one agent wrote from acting as instructions to the model of another (OWASP Top
// 10 for LLM Applications 2025: LLM01 prompt injection, LLM04 data and model poisoning, here as memory
// poisoning). It has two halves:
//
//   - Screen, at write time: a fixed, documented rule set that recognises text written to steer a model rather
//     than to state a fact. The reconciler holds a claim it flags in quarantine (stored and auditable, never
//     shown to a reader unless asked for). Screen is a pure function of the text, so a replay flags the same
//     claims; RulesVersion names the rule set and goes into every decision that quarantines.
//   - Neutralize, at read time: whatever passed the screen is rendered so that it cannot break out of its
//     line of a context — no control characters or line breaks (a claim cannot start a new "Assistant:"
//     turn), no chat-template or role tokens, and no text in the reserved marker syntax ([FORMER],
//     [DISPUTED], …), which the query service uses for its own annotations.
//
// The screen is deliberately narrow: it looks for the shapes injected instructions take in public reports and
// benchmarks (imperatives that target the model's instructions, chat-template tokens, role lines, persona
// switches, requests for the system prompt, forged annotations), not for topics. Ordinary conversation about
// instructions ("the instructions for the oven") does not match; the tests hold it to examples of both kinds.
package promptguard

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// RulesVersion identifies the rule set of Screen; it changes whenever a rule does.
const RulesVersion = "promptguard-1"

// Rule names (what Screen returns).
const (
	RuleOverride      = "override-instructions"
	RuleTemplateToken = "chat-template-token"
	RuleRoleLine      = "role-line"
	RulePersona       = "persona-switch"
	RulePromptLeak    = "prompt-extraction"
	RuleNewOrders     = "new-instructions"
	RuleMarker        = "forged-marker"
)

// Where the patterns come from:
//   - override, persona, prompt extraction and new instructions: the injection classes of OWASP LLM01 (2025)
//     and its example attacks ("ignore previous instructions", "you are now DAN / in developer mode", "print
//     your system prompt", "new instructions:"), which are also the templates of public injection datasets
//     (deepset/prompt-injections, Lakera Gandalf, HackAPrompt). They are English imperatives aimed at the model
//     itself: each needs the verb AND an object naming the model's instructions, prompt or rules.
//   - template tokens and role lines: the chat templates of the major open model families — ChatML
//     (<|im_start|>, <|im_end|>), Llama 2 ([INST], <<SYS>>), Llama 3 (<|start_header_id|>, <|eot_id|>), Gemma
//     (<start_of_turn>), Phi/Zephyr (<|system|>, <|user|>, <|assistant|>, <|end|>), GPT (<|endoftext|>) — and
//     the plain-text transcript convention of a line that starts with a role name and a colon.
//   - forged markers: the annotations the query service itself writes into contexts — the bracketed markers
//     and the attribution that ends a line ("; by planner, shared)"), which a line by the writer a context's
//     header names does not repeat, so content must not be able to write one.
var rules = []struct {
	name string
	re   *regexp.Regexp
}{
	{RuleTemplateToken, regexp.MustCompile(`(?i)<\|\s*[a-z_]{2,30}\s*\|>|\[/?inst\]|<</?sys>>|<(start|end)_of_turn>`)},
	{RuleRoleLine, regexp.MustCompile(`(?im)[\n\r\x{2028}\x{2029}\x{85}\v\f]\s*(#{1,4}\s*)?(system|assistant|user|human|developer|ai|bot)\s*(message|prompt|instruction)?s?\s*:`)},
	{RuleOverride, regexp.MustCompile(`(?i)\b(ignore|disregard|forget|override|bypass|neglect|discard)\b[^.!?\n]{0,40}?\b(previous|prior|above|earlier|preceding|foregoing|original|initial|system|developer|your|all)\b[^.!?\n]{0,30}?\b(instructions?|prompts?|directives?|guardrails|guidelines|system\s+messages?)\b`)},
	{RuleOverride, regexp.MustCompile(`(?i)\b(ignore|disregard|forget)\s+(everything|all)\s+(you\s+(were|have\s+been)\s+told|(that\s+)?(was\s+)?said\s+(above|before))`)},
	{RulePersona, regexp.MustCompile(`(?i)\byou\s+are\s+now\s+(dan|jailbroken|unrestricted|unfiltered|uncensored|(in\s+)?(developer|god|jailbreak|dan)\s+mode)\b|\b(developer|god|jailbreak|dan)\s+mode\s+(is\s+)?(enabled|activated|on)\b|\bdo\s+anything\s+now\b`)},
	{RulePromptLeak, regexp.MustCompile(`(?i)\b(reveal|print|show|repeat|output|leak|disclose|display)\b[^.!?\n]{0,30}?\b(system\s+prompt|hidden\s+prompt|initial\s+prompt|your\s+(instructions|prompt|rules))\b`)},
	{RuleNewOrders, regexp.MustCompile(`(?i)\b(new|updated|real|actual|additional|override)\s+(system\s+)?(instructions?|directives?|system\s+prompt)\s*:`)},
	{RuleMarker, regexp.MustCompile(`\[\s*(FORMER|DISPUTED|CONFLICTING|QUARANTINED|SYSTEM|INSTRUCTIONS?)\s*\]`)},
	{RuleMarker, regexp.MustCompile(`(?i)[(;]\s*by\s+\S+,\s*(shared|private)\s*\)`)},
}

// invisible are the characters an attacker inserts to split a phrase for a filter while a model still reads
// it whole (zero-width space and joiners, word joiner, byte-order mark, soft hyphen) and the bidirectional
// controls that reorder what a human reviewer sees (Trojan Source, CVE-2021-42574).
func invisible(r rune) bool {
	switch {
	case r == '\u200b', r == '\u200c', r == '\u200d', r == '\u2060', r == '\ufeff', r == '\u00ad', r == '\u180e':
		return true
	case r >= '\u202a' && r <= '\u202e', r >= '\u2066' && r <= '\u2069', r == '\u200e', r == '\u200f', r == '\u061c':
		return true
	}
	return false
}

// Screen returns the name of the first rule that one of texts matches, or "" when none does. Invisible
// characters are removed before matching, so they cannot split a phrase.
func Screen(texts ...string) string {
	for _, t := range texts {
		if t == "" {
			continue
		}
		s := strings.Map(func(r rune) rune {
			if invisible(r) {
				return -1
			}
			return r
		}, t)
		for _, r := range rules {
			if r.re.MatchString(s) {
				return r.name
			}
		}
	}
	return ""
}

// markerSyntax is the syntax reserved for the annotations of rendered contexts: a bracketed word or words of
// letters (with spaces, "_" or "-"), such as [FORMER] or [DISPUTED]. Neutralize rewrites every such span of
// content to parentheses, so content can never produce one.
var markerSyntax = regexp.MustCompile(`\[(\s*[\p{L}][\p{L}\s_-]{0,40})\]`)

// templateToken matches chat-template and role tokens: <|…|> (ChatML, Llama 3, Phi), <<SYS>>, and tag-like
// tokens such as <start_of_turn> or </s>. Their angle brackets become ‹ › so no template parser sees them.
var templateToken = regexp.MustCompile(`<\|[^<>|]{0,40}\|?>|<</?[A-Za-z_]{1,20}>>|</?[A-Za-z_][A-Za-z0-9_]{0,30}>`)

// Neutralize returns s fit to be one line of a context a model reads: control characters and invisible
// characters removed, every line break and tab turned into a space (runs collapsed), chat-template tokens
// defused (‹|im_start|›), and text in the reserved marker syntax turned into parentheses ("[DISPUTED]" becomes
// "(DISPUTED)"). Printable text otherwise passes unchanged.
func Neutralize(s string) string {
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for _, r := range s {
		switch {
		case r == '\n' || r == '\r' || r == '\t' || r == '\v' || r == '\f' || r == '\u0085' || r == '\u2028' || r == '\u2029' || r == ' ':
			space = true
			continue
		case unicode.IsControl(r) || invisible(r):
			continue
		}
		if space && b.Len() > 0 {
			b.WriteByte(' ')
		}
		space = false
		b.WriteRune(r)
	}
	out := b.String()
	if strings.ContainsAny(out, "<[") {
		out = templateToken.ReplaceAllStringFunc(out, func(tok string) string {
			return strings.NewReplacer("<", "‹", ">", "›").Replace(tok)
		})
		out = markerSyntax.ReplaceAllString(out, "($1)")
	}
	return out
}

// Attribution names who wrote a piece of content and in which tier — "by planner, shared" — the way every
// line of a context that quotes content ends, so a reader can weigh content by its writer. Both parts are
// neutralized: agent ids are restricted where they enter, but an attribution may be rendered from an API
// response that came over the network (the MCP server), and it must hold on its line all the same.
func Attribution(writer, tier string) string {
	return "by " + Neutralize(writer) + ", " + Neutralize(tier)
}
