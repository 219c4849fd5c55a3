package llm

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

func TestExtractJSON(t *testing.T) {
	cases := []struct {
		name, in, want string
	}{
		{"plain object", `{"a":1}`, `{"a":1}`},
		{"whitespace and BOM", "\ufeff \n {\"a\":1}\n", `{"a":1}`},
		{"array", `[1,2]`, `[1,2]`},
		{"json fence", "```json\n{\"a\":1}\n```", `{"a":1}`},
		{"bare fence", "```\n{\"a\":1}\n```", `{"a":1}`},
		{"fence one line", "```json {\"a\":1}```", `{"a":1}`},
		{"prose around fence", "Here you go:\n```json\n{\"a\":{\"b\":[1,2]}}\n```\nLet me know!", `{"a":{"b":[1,2]}}`},
		{"unclosed fence", "```json\n{\"a\":1}\n", `{"a":1}`},
		{"leading prose", `Sure! The answer is {"a":"x"}`, `{"a":"x"}`},
		{"trailing text", `{"a":"x"} I hope this helps.`, `{"a":"x"}`},
		{"trailing second object", `{"a":1}{"b":2}`, `{"a":1}`},
		{"braces in prose before", `Use {curly} braces: {"a":1}`, `{"a":1}`},
		{"object preferred over bracket prose", `I found [2] facts: {"facts":["x","y"]}`, `{"facts":["x","y"]}`},
		{"array when no object", `The list: [1, 2, 3].`, `[1, 2, 3]`},
		{"think block", "<think>maybe {\"a\":0}?</think>\n{\"a\":1}", `{"a":1}`},
		{"braces inside strings", `{"text":"a } and { b"}`, `{"text":"a } and { b"}`},
		{"nested fences content", "text ```json\n[{\"a\":1}]\n``` more", `[{"a":1}]`},
		{"unicode", `résumé: {"name":"Zoë 🎉"}`, `{"name":"Zoë 🎉"}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ExtractJSON(tc.in)
			if err != nil {
				t.Fatalf("err = %v", err)
			}
			if string(got) != tc.want {
				t.Fatalf("got %s, want %s", got, tc.want)
			}
		})
	}
}

func TestExtractJSONNone(t *testing.T) {
	for _, in := range []string{"", "   ", "no json here", "{not json}", `"just a string"`, "42", "<think>{\"a\":1}", "[unclosed", "{\"a\":"} {
		if got, err := ExtractJSON(in); !errors.Is(err, ErrNoJSON) || !errors.Is(err, ErrMalformedResponse) {
			t.Errorf("%q: got %s, err %v", in, got, err)
		}
	}
}

func TestExtractJSONManyBraces(t *testing.T) {
	// Adversarial content stays bounded and still fails cleanly.
	in := strings.Repeat("{", 100000)
	if _, err := ExtractJSON(in); !errors.Is(err, ErrNoJSON) {
		t.Fatalf("err = %v", err)
	}
}

func FuzzExtractJSON(f *testing.F) {
	for _, s := range []string{`{"a":1}`, "```json\n{\"a\":1}\n```", `x {"a":[1,{"b":2}]} y`, "<think>x</think>[1]", "```", "{", "[[", `"s"`, "\ufeff{}"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := ExtractJSON(s)
		if err != nil {
			if !errors.Is(err, ErrNoJSON) {
				t.Fatalf("unexpected error class: %v", err)
			}
			return
		}
		if !json.Valid(got) {
			t.Fatalf("invalid JSON %q from %q", got, s)
		}
		if got[0] != '{' && got[0] != '[' {
			t.Fatalf("not an object or array: %q", got)
		}
	})
}
