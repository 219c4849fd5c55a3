package rules

import (
	"regexp"
	"strings"
	"unicode"
)

// Code is not a statement about the world: a fenced block, a line of source, a shell command or a stack
// trace yields no claim. Technical chats interleave prose and code, and before these rules every line of a
// snippet ("app = Flask(__name__)") became a fallback claim that crowded the facts around it out of search.

// shellArgument is what follows a tool's name in a shell command: an option, a path, a URL, a variable or a
// quoted string, or one of the tools' common subcommands ("git checkout", "pip install"). A word of prose
// after it is prose typed in lower case: "pip died last month", "brew coffee at home", "curl up with a book".
const shellArgument = `(?:[-"'$~]|[\w.]*[./:=@]|(?:install|uninstall|add|remove|rm|run|build|test|init|commit|push|pull|clone|` +
	`checkout|switch|status|log|diff|merge|rebase|fetch|start|stop|exec|ps|logs|get|apply|describe|delete|` +
	`update|upgrade|publish|freeze|list|show|config|compose|create|restart|ci)\b)`

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
		`(?:git|npm|npx|yarn|pip3?|cargo|docker|kubectl|curl|wget|brew|apt(?:-get)?)\s+` + shellArgument + `|` +
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
	if reCodeLead.MatchString(t) || reTrace.MatchString(t) || reMarkup.MatchString(t) ||
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
