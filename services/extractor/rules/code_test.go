package rules

import "testing"

func TestLooksLikeCode(t *testing.T) {
	tests := []struct {
		line     string
		indented bool
		want     bool
	}{
		{"app = Flask(__name__)", false, true},
		{"x = foo(bar)", false, true},
		{"app.run(debug=True)", false, true},
		{"from flask import Flask, request", false, true},
		{"import numpy as np", false, true},
		{"def handler(event, context):", false, true},
		{"const total = items.reduce((a, b) => a + b, 0);", false, true},
		{"if (err != nil) {", false, true},
		{"}", false, true},
		{"git checkout -b feature/login", false, true},
		{"npm install express", false, true},
		{"Traceback (most recent call last):", false, true},
		{`File "app.py", line 12, in <module>`, false, true},
		{"KeyError: 'user'", false, true},
		{"at com.example.Main.run(Main.java:42)", false, true},
		{`<div class="card">`, false, true},
		{`"name": "mneme",`, false, true},
		{"// fetch the user first", false, true},
		{"id INTEGER PRIMARY KEY,", false, true},
		{"result = client.fetch(user_id)", true, true},
		// Prose, including prose about code.
		{"I moved to Berlin last week.", false, false},
		{"I'm using Flask 2.3 with Python 3.11 for the backend.", false, false},
		{"My deadline moved to May 5 (it was April 28).", false, false},
		{"The error started after I upgraded Django to 5.0.", false, false},
		{"Return the book to the library by Friday.", false, false},
		{"let me know if the plan works for you", false, false},
		{"go to the gym after work", false, false},
		{"Deadline: Friday", false, false},
		{"- Registration", true, false},
		{"I fixed the bug in fetchWeatherData() yesterday.", false, false},
		// Typed in lower case, a tool's name may be a word of prose.
		{"pip died last month, and now we have a guinea pig called dot.", false, false},
		{"brew coffee at home most days now", false, false},
		{"pip install requests", false, true},
		{"curl -s https://example.com/api", false, true},
		{"curl https://example.com/api", false, true},
		{"docker compose up -d", false, true},
		{"sudo apt-get update", false, true},
		{"cd ~/projects/mneme", false, true},
		{"npx eslint --fix .", false, true},
		{"npx eslint .", false, true},
		{"git tag -a v1.0.0 -m \"Release v1.0.0\"", false, true},
		{"git co main", false, true},
		{"git st", false, true},
		{"yarn jest contactForm.test.js", false, true},
		{"npx stylelint \"**/*.{css,scss}\"", false, true},
		{"npx husky install", false, true},
	}
	for _, tt := range tests {
		if got := looksLikeCode(tt.line, tt.indented); got != tt.want {
			t.Errorf("looksLikeCode(%q, %v) = %v, want %v", tt.line, tt.indented, got, tt.want)
		}
	}
}

func TestSplitLinesSkipsCode(t *testing.T) {
	content := "I use Go at work.\n```go\nfunc main() {}\nThis line is inside the fence.\n```\n    x := compute(y)\n**Note:** the **server** runs `make up` first.\nLet`s go."
	var got []string
	for _, ln := range splitLines(content) {
		got = append(got, ln.text)
	}
	want := []string{"I use Go at work.", "Note: the server runs make up first.", "Let's go."}
	if len(got) != len(want) {
		t.Fatalf("lines %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("line %d = %q, want %q", i, got[i], want[i])
		}
	}
}
