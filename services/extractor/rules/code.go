package rules

import (
	"regexp"
	"strings"
	"unicode"
)

// Code is not a statement about the world: a fenced block, a line of source, a shell command or a stack
// trace yields no claim. Technical chats interleave prose and code, and before these rules every line of a
// snippet ("app = Flask(__name__)") became a fallback claim that crowded the facts around it out of search.

// reToolLead is a line that starts with the name of a common developer tool and a word after it.
var reToolLead = regexp.MustCompile(`^(?:git|npm|npx|yarn|pip3?|cargo|docker|kubectl|curl|wget|brew|apt(?:-get)?)\s+(\S+)(.*)$`)

// reShellArgument is a word of a command line that prose does not write: an option, a path or a file name, a
// URL, a variable, an assignment, a quoted string, a glob, or the current directory.
var reShellArgument = regexp.MustCompile(`^(?:-|["'$~]|\.$|[\w.@-]*[./:=@*][\w~*{}/.@-])`)

// toolSubcommands are the tools' common subcommands ("git checkout", "pip install").
var toolSubcommands = map[string]bool{"install": true, "uninstall": true, "add": true, "remove": true, "rm": true,
	"run": true, "build": true, "test": true, "init": true, "commit": true, "push": true, "pull": true, "clone": true,
	"checkout": true, "switch": true, "status": true, "log": true, "diff": true, "merge": true, "rebase": true,
	"fetch": true, "start": true, "stop": true, "exec": true, "ps": true, "logs": true, "get": true, "apply": true,
	"describe": true, "delete": true, "update": true, "upgrade": true, "publish": true, "freeze": true, "list": true,
	"show": true, "config": true, "compose": true, "create": true, "restart": true, "ci": true, "tag": true}

// toolLine reports a shell command that starts with a developer tool's name: a subcommand after it, an
// argument anywhere in it, or a short line of up to three words with no sentence's end ("git co main", an
// alias). Typed in lower case, a tool's name may be a word of prose: "pip died last month, and now we have a
// guinea pig called dot" is a statement.
func toolLine(t string) bool {
	m := reToolLead.FindStringSubmatch(t)
	if m == nil {
		return false
	}
	if toolSubcommands[m[1]] {
		return true
	}
	words := append([]string{m[1]}, strings.Fields(m[2])...)
	for _, w := range words {
		if reShellArgument.MatchString(w) {
			return true
		}
	}
	return len(words) <= 2 && !strings.ContainsAny(t[len(t)-1:], ".!?")
}

var (
	// reFence opens or closes a Markdown code block (``` or ~~~, with or without a language).
	reFence = regexp.MustCompile("^\\s*(?:```|~~~)")
	// reCodeLead matches lines that start like a statement of a programming language or a shell command.
	// Keywords are matched case-sensitively: prose capitalizes its first word, code does not.
	reCodeLead = regexp.MustCompile(`^(?:` +
		`import\s+[\w.{*"']|from\s+[\w.]+\s+import\b|def\s+\w+\s*\(|class\s+\w+\s*[:({]|return\b|` +
		`(?:const|let|var)\s+[\w{\[]+\s*[=:;]|function\s*\w*\s*\(|async\s+(?:def|function)\b|await\s+\w|` +
		`(?:if|for|while|switch|catch)\s*\(|}\s*(?:else|catch|finally)\b|else\s*[{:]|elif\s|try\s*[:{]|except(?:\s+[\w.]+)?(?:\s+as\s+\w+)?:|` +
		`(?:public|private|protected|static)\s+[\w<>\[\]]+\s+\w+\s*[({=;]|package\s+\w+\s*;?$|func\s+[\w(]|#include\b|#!/|` +
		`@[\w.]+\s*(?:\(|$)|\$\s+[a-z]|>>>\s|//|/\*|\*/|<!--|` +
		`\w+\s+(?:INTEGER|TEXT|VARCHAR|REAL|BOOLEAN|DATE|TIMESTAMP|SERIAL|BIGINT)\b|` +
		`(?:SELECT|INSERT\s+INTO|CREATE\s+(?:TABLE|INDEX)|UPDATE\s+\w+\s+SET|DELETE\s+FROM|ALTER\s+TABLE)\s|` +
		`(?:sudo|cd|mkdir)\s+[-\w./$"'~]+|` +
		`go\s+(?:run|build|test|get|mod|install|vet)\b|python3?\s+[-\w./]+\.py\b|node\s+[\w./-]+\.js\b|export\s+\w+=` +
		`)`)
	// reAssignment matches "x = foo(bar)", "app.config['KEY'] = 'v'", "total += 1".
	reAssignment = regexp.MustCompile(`^[\w.$]+(?:\[[^\]]*\])*\s*(?:=|\+=|-=|\*=|/=|:=|\|\|=)\s*\S`)
	// reCall matches a line that is only a call or a chain of calls ("app.run(debug=True)", "foo();").
	reCall = regexp.MustCompile(`^[\w.$]+\(.*\)[\s;,.)]*$`)
	// reMarkup matches a line of HTML/XML.
	reMarkup = regexp.MustCompile(`^</?[a-zA-Z][\w-]*(?:\s[^>]*)?/?>|^<!--`)
	// reKeyValue matches a line of JSON, YAML or a config file ("\"id\": 3,", "port: 8080", "[core]").
	reKeyValue = regexp.MustCompile(`^"[^"]+"\s*:\s*|^[a-z_][\w.-]*\s*:\s*[\w"'\[{]\S*[,;]?$|^\[[\w. "-]+\]$`)
	// reTrace matches lines of stack traces and compiler or runtime errors.
	reTrace = regexp.MustCompile(`^(?:Traceback \(most recent call last\)|File "[^"]+", line \d+|at [\w$.<>]+\(.*\)$|` +
		`[\w.]+(?:Error|Exception|Warning)(?::|$)|panic:|goroutine \d+|\^+$|~*\^~*$)`)
	// reCodeEnd matches a line that ends like a statement or block of code.
	reCodeEnd = regexp.MustCompile(`(?:[{;]|\):|=>|->|\)\s*{|\]\s*,?|^[)}\]]+[;,)]*)$`)
)

// codeSymbols are characters that are frequent in code and rare in prose.
const codeSymbols = "{}()[];=<>$|&\\"

// looksLikeCode reports whether one line of a turn is source code, a command, markup or part of a stack trace
// rather than prose. indented is set for lines indented by four spaces or a tab (Markdown's code blocks).
func looksLikeCode(line string, indented bool) bool {
	t := strings.TrimSpace(line)
	if t == "" {
		return false
	}
	if reCodeLead.MatchString(t) || toolLine(t) || reTrace.MatchString(t) || reMarkup.MatchString(t) ||
		reAssignment.MatchString(t) || reCall.MatchString(t) {
		return true
	}
	words, syms, letters := 0, 0, 0
	for _, r := range t {
		switch {
		case unicode.IsLetter(r):
			letters++
		case strings.ContainsRune(codeSymbols, r):
			syms++
		}
	}
	for _, w := range strings.Fields(t) {
		if isProseWord(w) {
			words++
		}
	}
	if reCodeEnd.MatchString(t) && words < 6 {
		return true
	}
	if reKeyValue.MatchString(t) && words < 4 {
		return true
	}
	// Dense symbols and few ordinary words: an expression, a signature, a regex.
	if syms >= 3 && float64(syms) > 0.12*float64(letters+1) && words < 8 {
		return true
	}
	if indented && (syms >= 2 || strings.Contains(t, "_") || strings.Contains(t, "()")) && words < 6 {
		return true
	}
	return false
}

// isProseWord reports a word of running text: letters only (a trailing comma or period allowed), not an
// identifier with dots, underscores, digits or inner capitals.
func isProseWord(w string) bool {
	w = strings.TrimRight(w, ",.;:!?\"')")
	w = strings.TrimLeft(w, "\"'(")
	if len(w) < 2 {
		return false
	}
	inner := false
	for i, r := range w {
		if !unicode.IsLetter(r) && r != '\'' && r != '-' {
			return false
		}
		if i > 0 && unicode.IsUpper(r) {
			inner = true
		}
	}
	return !inner
}
