package validate

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const (
	composeFile = "../../docker-compose.yml"
	dockerfile  = "../../Dockerfile"
)

func TestComposeFileHolds(t *testing.T) {
	p, err := LoadCompose(context.Background(), composeFile, nil)
	if err != nil {
		t.Fatalf("docker-compose.yml does not load: %v", err)
	}
	dev, err := ImageDevMode(dockerfile)
	if err != nil {
		t.Fatal(err)
	}
	if dev == nil || *dev {
		t.Errorf("the Dockerfile must set MNEME_DEV_MODE=false in the image (got %v)", dev)
	}
	for _, e := range CheckCompose(p, dev) {
		t.Error(e)
	}
	for _, s := range p.Services {
		if s.Build != nil {
			if _, err := os.Stat(filepath.Join(s.Build.Context, "Dockerfile")); err != nil && s.Build.Dockerfile == "" {
				t.Errorf("%s: build context %s has no Dockerfile", s.Name, s.Build.Context)
			}
		}
	}
}

// goodCompose is a minimal correct stack; each case below breaks one property.
const goodCompose = `
x-mneme: &mneme
  image: mneme:dev
  depends_on:
    postgres: {condition: service_healthy}
    nats: {condition: service_healthy}
  environment: &env
    MNEME_NATS_URL: nats://nats:4222
    MNEME_DATABASE_URL: postgres://mneme:mneme@postgres:5432/mneme
    MNEME_PARTITIONS: "16"
    MNEME_DEV_MODE: "false"
    MNEME_HTTP_ADDR: 0.0.0.0:8080
    MNEME_NATS_CREDS: /run/secrets/creds
  secrets: [creds]
services:
  nats:
    image: nats:2.10-alpine
    healthcheck: {test: ["CMD", "wget", "-q", "-O", "/dev/null", "http://127.0.0.1:8222/healthz"]}
  postgres:
    image: pgvector/pgvector:pg16
    healthcheck: {test: ["CMD", "pg_isready"]}
  ingest: {<<: *mneme, command: ["run", "-target=ingest"], ports: ["8081:8080"]}
  extractor: {<<: *mneme, command: ["run", "-target=extractor"]}
  embedder: {<<: *mneme, command: ["run", "-target=embedder"]}
  reconciler: {<<: *mneme, command: ["run", "-target=reconciler"]}
  query: {<<: *mneme, command: ["run", "-target=query"], ports: ["8080:8080"]}
secrets:
  creds: {file: ./creds}
`

func TestComposeChecksCatchDefects(t *testing.T) {
	falseDev := false
	cases := []struct {
		name, from, to, want string
		imageDevUnset        bool // the image sets no MNEME_DEV_MODE, so the code's default (on) applies
	}{
		{"correct", "", "", "", false},
		{"a missing service", `  embedder: {<<: *mneme, command: ["run", "-target=embedder"]}` + "\n", "", "no service runs `mneme run -target=embedder`", false},
		{"NATS only started", "nats: {condition: service_healthy}", "nats: {condition: service_started}", `depends on nats with condition "service_started"`, false},
		{"no Postgres healthcheck", `    healthcheck: {test: ["CMD", "pg_isready"]}` + "\n", "", "service postgres has no healthcheck", false},
		{"dev mode published on every interface", `MNEME_DEV_MODE: "false"`, `MNEME_DEV_MODE: "true"`, `publishes port 8080 on "every interface" while local development mode is on`, false},
		{"dev mode by default", `    MNEME_DEV_MODE: "false"` + "\n", "", "while local development mode is on", true},
		{"the image's dev mode off", `    MNEME_DEV_MODE: "false"` + "\n", "", "", false},
		{"credentials not mounted", "  secrets: [creds]\n", "", `MNEME_NATS_CREDS="/run/secrets/creds" is inside no volume`, false},
		{"another partition count", `command: ["run", "-target=query"]`, `command: ["run", "-target=query"], environment: {<<: *env, MNEME_PARTITIONS: "32"}`, "MNEME_PARTITIONS differs", false},
		{"a database URL naming another host", "@postgres:5432", "@db:5432", "MNEME_DATABASE_URL does not name the Postgres service postgres", false},
		{"a loopback listener behind a published port", "MNEME_HTTP_ADDR: 0.0.0.0:8080", "MNEME_HTTP_ADDR: 127.0.0.1:8080", "listens only inside its container", false},
		{"an unknown key", "  postgres:\n", "  postgres:\n    restart_policy: always\n", "restart_policy", false},
		{"a dependency on a missing service", "postgres: {condition: service_healthy}", "pg: {condition: service_healthy}", "pg", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			text := goodCompose
			if tc.from != "" {
				if !strings.Contains(text, tc.from) {
					t.Fatalf("test case: %q not in the base file", tc.from)
				}
				text = strings.Replace(text, tc.from, tc.to, -1)
			}
			dir := t.TempDir()
			file := filepath.Join(dir, "docker-compose.yml")
			if err := os.WriteFile(file, []byte(text), 0o600); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, "creds"), []byte("creds"), 0o600); err != nil {
				t.Fatal(err)
			}
			var problems []string
			p, err := LoadCompose(context.Background(), file, nil)
			if err != nil {
				problems = append(problems, err.Error())
			} else {
				image := &falseDev
				if tc.imageDevUnset {
					image = nil
				}
				for _, e := range CheckCompose(p, image) {
					problems = append(problems, e.Error())
				}
			}
			if tc.want == "" {
				if len(problems) > 0 {
					t.Fatalf("a correct file was rejected: %v", problems)
				}
				return
			}
			joined := strings.Join(problems, "\n")
			if !strings.Contains(joined, tc.want) {
				t.Fatalf("want a problem containing %q, got:\n%s", tc.want, joined)
			}
			t.Logf("found: %s", joined)
		})
	}
}

func TestImageDevModeReadsTheFinalStage(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		text string
		want string
	}{
		{"FROM a AS b\nENV MNEME_DEV_MODE=false\nFROM c\n", "unset"},
		{"FROM a\nENV X=1 MNEME_DEV_MODE=false\n", "false"},
		{"FROM a\nENV MNEME_DEV_MODE=true\n", "true"},
	} {
		f := filepath.Join(dir, "Dockerfile")
		if err := os.WriteFile(f, []byte(tc.text), 0o600); err != nil {
			t.Fatal(err)
		}
		got, err := ImageDevMode(f)
		if err != nil {
			t.Fatal(err)
		}
		s := "unset"
		if got != nil {
			s = map[bool]string{true: "true", false: "false"}[*got]
		}
		if s != tc.want {
			t.Errorf("%q: got %s, want %s", tc.text, s, tc.want)
		}
	}
}
