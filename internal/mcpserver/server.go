// Package mcpserver is Mneme's Model Context Protocol server: the tools and resources through which an agent
// framework uses Mneme as its memory (remember, recall, answer, subject timelines, confirmation, erasure).
//
// It is a client of Mneme's HTTP API (/v1) and nothing more: every tool is one call of pkg/client, so search,
// answers, erasure and — above all — authentication and authorization are the HTTP handlers' own, and an MCP
// caller can do exactly what its key and agent could do over HTTP. Two transports carry it:
//
//   - stdio (`mneme mcp`, RunStdio): a local process an MCP client starts; it calls a running Mneme over HTTP
//     with the URL, workspace, agent and key it was given.
//   - streamable HTTP (HTTPHandler), mounted by the composition root at /v1/workspaces/{ws}/mcp: every MCP
//     request is authenticated by pkg/auth like any /v1 request, and its tool calls are dispatched in-process to
//     the same /v1 handlers with the caller's own Authorization and X-Mneme-Agent headers. The handler is
//     stateless (no MCP session is kept between requests), so any replica can serve any request.
package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"reflect"
	"strings"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mneme-ai/mneme/pkg/client"
)

// Implementation name reported to MCP clients.
const implementationName = "mneme"

// instructions tell the client's model what the server is for and how to use it well.
const instructions = `Mneme is long-term memory shared by the agents of one workspace. It stores atomic claims (subject, predicate, object, with valid time), resolves contradictions when they are written (a newer value supersedes an older one; truly simultaneous conflicts are marked disputed) and keeps every past value.
- Before answering from what you remember about people, projects or facts, call recall (token-budgeted context) or answer (a direct answer decided by code, not guessed).
- Store what the user tells you with remember (the utterance as said, with the speaker's name); store facts you already have in structured form with remember_claims.
- subject_timeline shows everything memory holds about one subject, with history and the decision behind each change. as_of reads what was true at a time; known_at reads what memory believed at a time.
- A claim the policy holds as pending becomes current once confirmed with confirm_claim.
- erase forgets a subject, an agent's claims or the workspace, and cannot be undone.`

// Options configure a server.
type Options struct {
	// Version is reported to clients as the server's version.
	Version string
}

// server holds what the tool handlers act through: one workspace, one API client (one agent, one key).
type server struct {
	ws string
	c  *client.Client
}

// New returns an MCP server that acts on workspace ws through c, as c's agent with c's key.
func New(ws string, c *client.Client, o Options) *mcp.Server {
	s := &server{ws: ws, c: c}
	version := o.Version
	if version == "" {
		version = "dev"
	}
	srv := mcp.NewServer(&mcp.Implementation{Name: implementationName, Title: "Mneme memory", Version: version},
		&mcp.ServerOptions{Instructions: instructions, SchemaCache: schemaCache})
	no, yes := false, true
	readOnly := &mcp.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: &no}
	addTool(srv, &mcp.Tool{Name: "remember", Title: "Remember a conversational turn",
		Description: "Store one utterance of the conversation (what the user or you said). Mneme extracts atomic claims from it, " +
			"attributes first-person statements to the speaker, and reconciles them with what it already holds.",
		InputSchema: rememberSchema, Annotations: &mcp.ToolAnnotations{DestructiveHint: &no, OpenWorldHint: &no}}, s.remember)
	addTool(srv, &mcp.Tool{Name: "remember_claims", Title: "Remember structured claims",
		Description: "Store facts you already have in structured form (subject, predicate, object, valid_from), without extraction. " +
			"A newer valid_from of a single-valued attribute supersedes the older value; an older one is kept as history.",
		InputSchema: rememberClaimsSchema, Annotations: &mcp.ToolAnnotations{DestructiveHint: &no, IdempotentHint: true, OpenWorldHint: &no}}, s.rememberClaims)
	addTool(srv, &mcp.Tool{Name: "recall", Title: "Search memory",
		Description: "Search memory and get a compact, token-budgeted context of the claims that answer the query: current values by " +
			"default, history when asked or when as_of/known_at look back. Disputed and conflicting claims are flagged.",
		InputSchema: recallSchema, Annotations: readOnly}, s.recall)
	addTool(srv, &mcp.Tool{Name: "answer", Title: "Answer from memory",
		Description: "Answer a question from memory. The value is chosen by code (the latest valid value of the attribute asked " +
			"about, hop by hop for chained questions), with the claims it used; disputed answers say so.",
		InputSchema: answerSchema, Annotations: readOnly}, s.answer)
	addTool(srv, &mcp.Tool{Name: "subject_timeline", Title: "Timeline of a subject",
		Description: "Everything memory holds about one subject: per attribute (slot) the current value(s) and every version on " +
			"valid time and transaction time, with supersessions, disputes, pending claims and the decisions behind each change.",
		InputSchema: timelineSchema, Annotations: readOnly}, s.timeline)
	addTool(srv, &mcp.Tool{Name: "confirm_claim", Title: "Confirm a pending claim",
		Description: "Confirm a claim the resolution policy holds as pending (awaiting confirmation); it then competes for its " +
			"slot like any claim. Confirming twice has one effect.",
		InputSchema: confirmSchema, Annotations: &mcp.ToolAnnotations{DestructiveHint: &no, IdempotentHint: true, OpenWorldHint: &no}}, s.confirm)
	addTool(srv, &mcp.Tool{Name: "erase", Title: "Erase from memory",
		Description: "Permanently forget a subject, every claim of one agent, or the whole workspace, including the source messages. " +
			"Cannot be undone; Mneme records that an erasure happened, never what was erased. An agent key erases only within its " +
			"own private tier; the shared tier needs a curator key and the whole workspace an admin key.",
		InputSchema: eraseSchema, Annotations: &mcp.ToolAnnotations{DestructiveHint: &yes, IdempotentHint: true, OpenWorldHint: &no}}, s.erase)
	addTool(srv, &mcp.Tool{Name: "erasure_status", Title: "State of an erasure",
		Description: "The record of an erasure started with erase: whether it completed and how much it removed.",
		InputSchema: erasureStatusSchema, Annotations: readOnly}, s.erasureStatus)

	srv.AddResourceTemplate(&mcp.ResourceTemplate{
		Name:        "subject-timeline",
		Title:       "Subject timeline",
		URITemplate: subjectURIPrefix(ws) + "{subject_key}",
		Description: "The timeline of one subject of workspace " + ws + " (the subject_timeline tool's result as JSON): current " +
			"values, every version on valid and transaction time, and the decisions behind each change.",
		MIMEType: "application/json",
	}, s.readSubject)
	return srv
}

// schemaCache shares the output schemas' resolution between the servers the HTTP handler builds per request.
var schemaCache = mcp.NewSchemaCache()

// SubjectURI is the resource URI of a subject's timeline in workspace ws.
func SubjectURI(ws, subjectKey string) string {
	return subjectURIPrefix(ws) + url.PathEscape(subjectKey)
}

func subjectURIPrefix(ws string) string { return "mneme://workspaces/" + ws + "/subjects/" }

// readSubject serves a subject timeline resource.
func (s *server) readSubject(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	uri := req.Params.URI
	raw, ok := strings.CutPrefix(uri, subjectURIPrefix(s.ws))
	if !ok || raw == "" || strings.Contains(raw, "/") {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	key, err := url.PathUnescape(raw)
	if err != nil {
		return nil, fmt.Errorf("resource %s: the subject key is not valid URI escaping: %w", uri, err)
	}
	res, err := s.c.Subject(ctx, s.ws, key, client.ReadOptions{})
	if err != nil {
		if errors.Is(err, client.ErrNotFound) {
			return nil, mcp.ResourceNotFoundError(uri)
		}
		return nil, errors.New(describe(err))
	}
	b, err := json.Marshal(res)
	if err != nil {
		return nil, err
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: "application/json", Text: string(b)}}}, nil
}

// outputSchemas are inferred once per output type: the HTTP handler builds a server per request.
var outputSchemas sync.Map // reflect.Type → *jsonschema.Schema

func outputSchema[Out any]() *jsonschema.Schema {
	t := reflect.TypeFor[Out]()
	if s, ok := outputSchemas.Load(t); ok {
		return s.(*jsonschema.Schema)
	}
	s, err := jsonschema.For[Out](nil)
	if err != nil {
		// The output types are Mneme's own API types; one that cannot be described is a bug found by the tests.
		panic(fmt.Sprintf("mcpserver: output schema of %s: %v", t, err))
	}
	v, _ := outputSchemas.LoadOrStore(t, s)
	return v.(*jsonschema.Schema)
}

// addTool registers a tool whose arguments are checked against its input schema (with errors that name the
// field) and decoded into In; h returns the text a model reads and the structured result.
func addTool[In, Out any](srv *mcp.Server, t *mcp.Tool, h func(context.Context, *In) (string, *Out, error)) {
	schema := t.InputSchema.(*jsonschema.Schema)
	t.OutputSchema = outputSchema[Out]()
	srv.AddTool(t, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var in In
		if err := decodeArgs(req.Params.Arguments, schema, &in); err != nil {
			return toolError(err), nil
		}
		text, out, err := h(ctx, &in)
		if err != nil {
			return toolError(err), nil
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}, StructuredContent: out}, nil
	})
}

// toolError is a failed call as the model sees it: a tool result (not a protocol error) whose text says what
// was refused and why, naming the field.
func toolError(err error) *mcp.CallToolResult {
	return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: describe(err)}}}
}

// describe turns an error of a tool into one clear sentence.
func describe(err error) string {
	var ae *argError
	var ce *client.Error
	switch {
	case errors.As(err, &ae):
		return "invalid arguments: " + ae.Msg
	case errors.As(err, &ce):
		return "Mneme refused the call: " + clientErrorText(ce)
	case errors.Is(err, errNotServed):
		return err.Error()
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, context.Canceled):
		return "the call did not finish in time: " + err.Error()
	}
	return "Mneme could not be reached: " + err.Error()
}

// clientErrorText renders an API error: status and code, the field, the message, the limit.
func clientErrorText(e *client.Error) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d %s", e.Status, e.Body.Code)
	if e.Body.Field != "" {
		fmt.Fprintf(&b, " (field %s)", e.Body.Field)
	}
	if e.Body.Message != "" {
		b.WriteString(": " + e.Body.Message)
	}
	if e.Body.Limit != "" {
		fmt.Fprintf(&b, " [limit %s]", e.Body.Limit)
	}
	return b.String()
}
