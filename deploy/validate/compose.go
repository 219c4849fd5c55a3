package validate

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/compose-spec/compose-go/v2/loader"
	"github.com/compose-spec/compose-go/v2/types"
)

// MnemeTargets are the services `mneme run -target=<service>` runs (internal/app Targets).
var MnemeTargets = []string{"ingest", "extractor", "embedder", "reconciler", "query"}

// dbTargets open a Postgres pool (internal/app needsDB); the others need only NATS.
var dbTargets = []string{"ingest", "reconciler", "query"}

// fileSettings name files a process reads (the NATS credentials and TLS contract).
var fileSettings = []string{"MNEME_NATS_CREDS", "MNEME_NATS_TLS_CA", "MNEME_NATS_TLS_CERT", "MNEME_NATS_TLS_KEY", "MNEME_HTTP_TLS_CERT", "MNEME_HTTP_TLS_KEY"}

// LoadCompose loads a compose file with the compose-spec loader as `docker compose config` would: validated
// against the Compose Specification's JSON Schema (unknown keys are errors), references between services,
// volumes, networks, secrets and configs checked, interpolated with env (and nothing from the process
// environment, so the result does not depend on who runs it).
func LoadCompose(ctx context.Context, file string, env map[string]string) (*types.Project, error) {
	abs, err := filepath.Abs(file)
	if err != nil {
		return nil, err
	}
	details, err := loader.LoadConfigFiles(ctx, []string{abs}, filepath.Dir(abs))
	if err != nil {
		return nil, err
	}
	details.Environment = env
	return loader.LoadWithContext(ctx, *details, func(o *loader.Options) {
		o.SetProjectName("mneme", true)
		o.ResolvePaths = true
	})
}

// mnemeService is a compose service that runs one Mneme target.
type mnemeService struct {
	name, target string
	svc          types.ServiceConfig
}

// CheckCompose reports every way p fails what any correct compose file of Mneme must satisfy, whatever else
// it does: each of the five services runs (from Mneme's image, with its -target), after NATS and Postgres are
// healthy, pointed at them; the partition count is the same everywhere; files named by the credential and
// TLS settings are mounted; and local development mode (no keys, no NATS credentials) never listens beyond
// the loopback interface. imageDevMode is what the image's own environment sets MNEME_DEV_MODE to (nil: unset).
func CheckCompose(p *types.Project, imageDevMode *bool) []error {
	var errs []error
	fail := func(format string, a ...any) { errs = append(errs, fmt.Errorf(format, a...)) }

	// The infrastructure services, recognised by image.
	var natsName, pgName string
	for name, s := range p.Services {
		repo := imageRepo(s.Image)
		switch {
		case repo == "nats":
			natsName = name
		case strings.Contains(repo, "postgres") || strings.Contains(repo, "pgvector"):
			pgName = name
		}
	}
	if natsName == "" {
		fail("no NATS service (an image named nats)")
	}
	if pgName == "" {
		fail("no Postgres service (an image with postgres or pgvector in its name)")
	}
	for _, name := range []string{natsName, pgName} {
		if name == "" {
			continue
		}
		hc := p.Services[name].HealthCheck
		if hc == nil || hc.Disable || len(hc.Test) == 0 || (len(hc.Test) == 1 && hc.Test[0] == "NONE") {
			fail("service %s has no healthcheck: the Mneme services cannot wait for it to be ready", name)
		}
	}

	var mneme []mnemeService
	for name, s := range p.Services {
		if t := targetOf(s); t != "" {
			mneme = append(mneme, mnemeService{name: name, target: t, svc: s})
		}
	}
	slices.SortFunc(mneme, func(a, b mnemeService) int { return strings.Compare(a.name, b.name) })
	for _, t := range MnemeTargets {
		if !slices.ContainsFunc(mneme, func(m mnemeService) bool { return m.target == t }) {
			fail("no service runs `mneme run -target=%s`", t)
		}
	}

	images := map[string]bool{}
	partitions := map[string]bool{}
	devMode := false
	for _, m := range mneme {
		s := m.svc
		if s.Image == "" && s.Build == nil {
			fail("%s: neither image nor build", m.name)
		}
		images[s.Image] = true
		if !slices.Contains(MnemeTargets, m.target) {
			fail("%s: -target=%s is not a Mneme service (%v)", m.name, m.target, MnemeTargets)
		}
		needs := []string{natsName}
		if slices.Contains(dbTargets, m.target) {
			needs = append(needs, pgName)
		}
		for _, dep := range needs {
			if dep == "" {
				continue
			}
			d, ok := s.DependsOn[dep]
			if !ok {
				fail("%s: does not depend on %s", m.name, dep)
			} else if d.Condition != types.ServiceConditionHealthy {
				fail("%s: depends on %s with condition %q, want %q: started is not ready", m.name, dep, d.Condition, types.ServiceConditionHealthy)
			}
		}
		natsURL := env(s, "MNEME_NATS_URL")
		if natsURL == "" {
			fail("%s: MNEME_NATS_URL is empty: a single-service process needs the shared NATS", m.name)
		} else if natsName != "" {
			for _, one := range strings.Split(natsURL, ",") {
				if u, err := url.Parse(strings.TrimSpace(one)); err != nil || !reaches(p, u.Hostname(), natsName) {
					fail("%s: MNEME_NATS_URL=%q does not name the NATS service %s", m.name, natsURL, natsName)
				}
			}
		}
		if slices.Contains(dbTargets, m.target) && pgName != "" {
			if u, err := url.Parse(env(s, "MNEME_DATABASE_URL")); err != nil || !reaches(p, u.Hostname(), pgName) {
				fail("%s: MNEME_DATABASE_URL does not name the Postgres service %s", m.name, pgName)
			}
		}
		partitions[env(s, "MNEME_PARTITIONS")] = true
		if isDevMode(s, imageDevMode) {
			devMode = true
		}
		if len(s.Ports) > 0 {
			host, _, err := net.SplitHostPort(env(s, "MNEME_HTTP_ADDR"))
			if err != nil || isLoopback(host) {
				fail("%s: publishes ports but MNEME_HTTP_ADDR=%q listens only inside its container", m.name, env(s, "MNEME_HTTP_ADDR"))
			}
		}
		mounted := mountTargets(s)
		for _, k := range fileSettings {
			if f := env(s, k); f != "" && !covered(mounted, f) {
				fail("%s: %s=%q is inside no volume, secret or config of the service", m.name, k, f)
			}
		}
	}
	if len(images) > 1 {
		fail("the Mneme services use %d images (%v): one image runs every target", len(images), keysOf(images))
	}
	if len(partitions) > 1 {
		fail("MNEME_PARTITIONS differs between services (%v): it must be the same in every stage", keysOf(partitions))
	}
	if devMode {
		// Local development mode trusts every caller: nothing of the stack may be reachable from another host.
		for name, s := range p.Services {
			for _, port := range s.Ports {
				if !isLoopback(port.HostIP) {
					fail("%s: publishes port %d on %q while local development mode is on; bind it to 127.0.0.1", name, port.Target, hostIPOrAll(port.HostIP))
				}
			}
		}
	}
	return errs
}

// ImageDevMode reads the MNEME_DEV_MODE an image's Dockerfile sets with ENV (nil when it sets none).
func ImageDevMode(dockerfile string) (*bool, error) {
	f, err := os.Open(dockerfile)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var last *bool
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) > 0 && strings.EqualFold(fields[0], "FROM") {
			last = nil // only the final stage's environment reaches the image
		}
		if len(fields) < 2 || !strings.EqualFold(fields[0], "ENV") {
			continue
		}
		for _, kv := range fields[1:] {
			if v, ok := strings.CutPrefix(kv, "MNEME_DEV_MODE="); ok {
				b, err := strconv.ParseBool(strings.Trim(v, `"'`))
				if err != nil {
					return nil, fmt.Errorf("%s: MNEME_DEV_MODE=%q", dockerfile, v)
				}
				last = &b
			}
		}
	}
	return last, sc.Err()
}

func targetOf(s types.ServiceConfig) string {
	args := append(append([]string{}, s.Entrypoint...), s.Command...)
	i := slices.Index(args, "run")
	if i < 0 {
		return ""
	}
	for j, a := range args[i+1:] {
		if t, ok := strings.CutPrefix(a, "-target="); ok {
			return t
		}
		if (a == "-target" || a == "--target") && i+2+j < len(args) {
			return args[i+2+j]
		}
	}
	if t := env(s, "MNEME_TARGET"); t != "" {
		return t
	}
	return "all"
}

func env(s types.ServiceConfig, name string) string {
	if v, ok := s.Environment[name]; ok && v != nil {
		return *v
	}
	return ""
}

func isDevMode(s types.ServiceConfig, image *bool) bool {
	if v, ok := s.Environment["MNEME_DEV_MODE"]; ok && v != nil {
		b, err := strconv.ParseBool(*v)
		return err != nil || b // an unparsable value stops the process; count it as on to be safe
	}
	if image != nil {
		return *image
	}
	return true // the code's default
}

func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

func hostIPOrAll(h string) string {
	if h == "" {
		return "every interface"
	}
	return h
}

// reaches says whether host is the service name (or one of its network aliases or its container name).
func reaches(p *types.Project, host, service string) bool {
	if host == service {
		return true
	}
	s := p.Services[service]
	if s.ContainerName == host || s.Hostname == host {
		return true
	}
	for _, n := range s.Networks {
		if n != nil && slices.Contains(n.Aliases, host) {
			return true
		}
	}
	return false
}

func mountTargets(s types.ServiceConfig) []string {
	var out []string
	for _, v := range s.Volumes {
		out = append(out, v.Target)
	}
	for _, sec := range s.Secrets {
		t := sec.Target
		if t == "" {
			t = sec.Source
		}
		if !path.IsAbs(t) {
			t = "/run/secrets/" + t
		}
		out = append(out, t)
	}
	for _, c := range s.Configs {
		t := c.Target
		if t == "" {
			t = "/" + c.Source
		}
		out = append(out, t)
	}
	return out
}

func covered(mounts []string, file string) bool {
	for _, m := range mounts {
		if file == m || strings.HasPrefix(file, strings.TrimSuffix(m, "/")+"/") {
			return true
		}
	}
	return false
}

func imageRepo(image string) string {
	if i := strings.LastIndex(image, "/"); i >= 0 {
		image = image[i+1:]
	}
	image, _, _ = strings.Cut(image, "@")
	image, _, _ = strings.Cut(image, ":")
	return image
}

func keysOf(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
