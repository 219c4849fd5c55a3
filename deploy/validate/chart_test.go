package validate

import (
	"bufio"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	kedav1alpha1 "github.com/kedacore/keda/v2/apis/keda/v1alpha1"
	"helm.sh/helm/v3/pkg/chart"
	"helm.sh/helm/v3/pkg/chartutil"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/validation"
	"sigs.k8s.io/yaml"

	"github.com/mneme-ai/mneme/pkg/bus"
	"github.com/mneme-ai/mneme/services/embedder"
	"github.com/mneme-ai/mneme/services/extractor"
	"github.com/mneme-ai/mneme/services/ingest"
)

const (
	chartDir    = "../helm/mneme"
	examplesDir = "../helm/examples"
	configDoc   = "../../docs/configuration.md"
)

// The five services of the split topology (internal/app Targets) and which of them need what, worked out
// from internal/app (needsDB, needsEmbedder) and the services' HTTP routes, independently of the chart.
var (
	allServices       = []string{"ingest", "extractor", "embedder", "reconciler", "query"}
	apiServices       = []string{"ingest", "query", "reconciler"} // serve /v1 routes
	dbServices        = []string{"ingest", "query", "reconciler"} // open a Postgres pool
	embeddingServices = []string{"embedder", "query"}             // load the embedding model
	// contractEnv are the variables of the cross-branch contract (NATS credentials and TLS, HTTP TLS), read
	// by every service once branch sec-nats lands; until then docs/configuration.md does not list them.
	contractEnv = []string{"MNEME_NATS_CREDS", "MNEME_NATS_TLS_CA", "MNEME_NATS_TLS_CERT", "MNEME_NATS_TLS_KEY", "MNEME_HTTP_TLS_CERT", "MNEME_HTTP_TLS_KEY"}
)

// loadChart loads the chart afresh: rendering processes dependencies in place, so a chart is never shared
// between renders.
func loadChart(t *testing.T) *chart.Chart {
	t.Helper()
	c, err := LoadChart(chartDir)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func parseValues(t *testing.T, doc string) map[string]any {
	t.Helper()
	v := map[string]any{}
	if err := yaml.Unmarshal([]byte(doc), &v); err != nil {
		t.Fatalf("test values: %v", err)
	}
	return v
}

func readValues(t *testing.T, path string) map[string]any {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return parseValues(t, string(b))
}

// valueSet is one meaningful configuration the chart must render correctly.
type valueSet struct {
	name    string
	release string
	values  map[string]any
}

func valueSets(t *testing.T) []valueSet {
	return []valueSet{
		{name: "defaults", values: nil},
		{name: "example production (external NATS+Postgres, TLS, KEDA, HPA)", values: readValues(t, filepath.Join(examplesDir, "production.yaml"))},
		{name: "example in-cluster (NATS chart, CloudNativePG, KEDA)", values: readValues(t, filepath.Join(examplesDir, "in-cluster.yaml"))},
		{name: "in-cluster under another release name", release: "prod", values: readValues(t, filepath.Join(examplesDir, "in-cluster.yaml"))},
		{name: "trial: URL in values, Job-only migrations, no NATS credentials", values: parseValues(t, `
externalDatabase: {existingSecret: "", url: "postgres://mneme:secret@pg.db.svc:5432/mneme?sslmode=require"}
migrations: {onStart: false}
natsAuth: {credentialsSecret: ""}
embedding: {provider: openai, baseUrl: "http://ollama.ai.svc:11434/v1", model: nomic-embed-text, dim: 768, apiKeySecret: {name: mneme-embedding, key: api-key}}
`)},
		{name: "CPU autoscaling on every service, one partition per reconciler", values: parseValues(t, `
partitions: 8
services:
  ingest: {autoscaling: {enabled: true, minReplicas: 2, maxReplicas: 6, targetCPUUtilizationPercentage: 70}}
  extractor: {autoscaling: {enabled: true, minReplicas: 2, maxReplicas: 6, targetCPUUtilizationPercentage: 70}}
  embedder: {autoscaling: {enabled: true, minReplicas: 2, maxReplicas: 6, targetCPUUtilizationPercentage: 70}}
  reconciler: {autoscaling: {enabled: true, minReplicas: 2, maxReplicas: 8, targetCPUUtilizationPercentage: 70}}
  query: {autoscaling: {enabled: true, minReplicas: 2, maxReplicas: 6, targetCPUUtilizationPercentage: 70}}
networkPolicy: {enabled: true, metricsFrom: [{namespaceSelector: {matchLabels: {kubernetes.io/metadata.name: monitoring}}}]}
podAnnotations: {prometheus.io/scrape: "true", prometheus.io/port: "8080"}
`)},
	}
}

// render renders, decodes strictly and sorts a values set, failing the test on any error.
func render(t *testing.T, vs valueSet, upgrade bool) (*Release, map[string]any) {
	t.Helper()
	c := loadChart(t)
	r, err := Render(c, vs.values, RenderOptions{ReleaseName: vs.release, Upgrade: upgrade})
	if err != nil {
		t.Fatalf("render: %v", err)
	}
	d, err := NewDecoder()
	if err != nil {
		t.Fatal(err)
	}
	objs, err := d.Objects(r)
	if err != nil {
		t.Fatalf("strict decoding:\n%v", err)
	}
	rel, err := NewRelease(objs)
	if err != nil {
		t.Fatal(err)
	}
	vals := vs.values
	if vals == nil {
		vals = map[string]any{}
	}
	coalesced, err := chartutil.CoalesceValues(loadChart(t), deepCopy(vals).(map[string]any))
	if err != nil {
		t.Fatal(err)
	}
	return rel, coalesced
}

func TestDecoderIsStrict(t *testing.T) {
	d, err := NewDecoder()
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct{ name, doc, want string }{
		{"unknown field", "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: x}\nspec: {replica: 2}\n", `unknown field "spec.replica"`},
		{"duplicate field", "apiVersion: v1\nkind: Service\nmetadata: {name: x}\nspec:\n  type: ClusterIP\n  type: NodePort\n", "already set"},
		{"wrong type", "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: x}\nspec: {replicas: two}\n", "replicas"},
		{"unregistered kind", "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: x}\n", "no kind"},
		{"unknown field in a KEDA trigger", "apiVersion: keda.sh/v1alpha1\nkind: ScaledObject\nmetadata: {name: x}\nspec:\n  scaleTargetRef: {name: d}\n  triggers: [{type: cpu, metadata: {value: '50'}, metricsType: Utilization}]\n", `unknown field "spec.triggers[0].metricsType"`},
		{"unknown field in a CloudNativePG Cluster", "apiVersion: postgresql.cnpg.io/v1\nkind: Cluster\nmetadata: {name: x}\nspec: {instances: 3, storage: {size: 1Gi}, bootstrap: {initdb: {postInitSQL2: []}}}\n", `unknown field "spec.bootstrap.initdb.postInitSQL2"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := d.Decode(Manifest{Source: tc.name, Text: tc.doc})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want an error containing %q", err, tc.want)
			}
		})
	}
}

func TestChartRendersValidReleases(t *testing.T) {
	for _, vs := range valueSets(t) {
		for _, upgrade := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/upgrade=%t", vs.name, upgrade), func(t *testing.T) {
				rel, vals := render(t, vs, upgrade)
				checkRelease(t, rel, vals, releaseName(vs))
			})
		}
	}
}

func releaseName(vs valueSet) string {
	if vs.release == "" {
		return "mneme"
	}
	return vs.release
}

// checkRelease asserts what every correct Mneme release satisfies, whatever its values.
func checkRelease(t *testing.T, rel *Release, vals map[string]any, release string) {
	t.Helper()
	known := knownEnv(t)
	partitions := intAt(t, vals, "partitions")

	// One Deployment per service, each running its own target with probes, resources and no dev mode.
	if len(rel.Deployments) != len(allServices) {
		t.Errorf("%d Deployments, want one per service (%v)", len(rel.Deployments), allServices)
	}
	for _, svc := range allServices {
		d := rel.Deployment(svc)
		if d == nil {
			t.Errorf("no Deployment for %s", svc)
			continue
		}
		if len(d.Spec.Template.Spec.Containers) != 1 {
			t.Errorf("%s: %d containers, want 1", d.Name, len(d.Spec.Template.Spec.Containers))
			continue
		}
		c := d.Spec.Template.Spec.Containers[0]
		if want := []string{"run", "-target=" + svc}; !slices.Equal(c.Args, want) {
			t.Errorf("%s: args %q, want %q", d.Name, c.Args, want)
		}
		checkProbes(t, d.Name, c)
		checkResources(t, d.Name, c.Resources)
		checkEnv(t, d.Name, c, known)
		if v, _ := Env(c, "MNEME_PARTITIONS"); v != strconv.Itoa(partitions) {
			t.Errorf("%s: MNEME_PARTITIONS=%q, want %d (the same in every service)", d.Name, v, partitions)
		}
		addr, _ := Env(c, "MNEME_HTTP_ADDR")
		if host, port, err := net.SplitHostPort(addr); err != nil || port != "8080" || net.ParseIP(host) == nil || net.ParseIP(host).IsLoopback() {
			t.Errorf("%s: MNEME_HTTP_ADDR=%q: the probes and Services need a non-loopback listener on 8080", d.Name, addr)
		}
		if _, ok := Env(c, "MNEME_NATS_URL"); !ok {
			t.Errorf("%s: no MNEME_NATS_URL: a single-service process needs an external NATS", d.Name)
		}
		_, hasProvider := Env(c, "MNEME_EMBEDDING_PROVIDER")
		if hasProvider != slices.Contains(embeddingServices, svc) {
			t.Errorf("%s: MNEME_EMBEDDING_PROVIDER set=%t, want it exactly on %v (the model must be the same there)", d.Name, hasProvider, embeddingServices)
		}
		if d.Spec.Template.Spec.TerminationGracePeriodSeconds == nil || *d.Spec.Template.Spec.TerminationGracePeriodSeconds <= int64(intAt(t, vals, "shutdownTimeoutSeconds")) {
			t.Errorf("%s: terminationGracePeriodSeconds must exceed MNEME_SHUTDOWN_TIMEOUT", d.Name)
		}
	}

	checkReconcilerBound(t, rel, partitions)
	checkMigrationJob(t, rel, vals)
	for _, p := range rel.PodTemplates() {
		checkPodSecurity(t, p)
		checkMountedFiles(t, p)
	}
	checkServiceAccounts(t, rel)
	checkSecretReferences(t, rel, vals)
	checkNetworkPolicies(t, rel, vals, release)
	checkTargets(t, rel)
	checkScaledObjects(t, rel, vals)
	checkNames(t, rel)
	if boolAt(vals, "cnpg.enabled") {
		checkCNPG(t, rel, release)
	}
	if boolAt(vals, "nats.enabled") {
		checkInReleaseNATS(t, rel, release)
	}
}

func checkProbes(t *testing.T, owner string, c corev1.Container) {
	t.Helper()
	for _, p := range []struct {
		kind, path string
		probe      *corev1.Probe
	}{{"startup", "/healthz", c.StartupProbe}, {"liveness", "/healthz", c.LivenessProbe}, {"readiness", "/readyz", c.ReadinessProbe}} {
		if p.probe == nil || p.probe.HTTPGet == nil {
			t.Errorf("%s: no HTTP %s probe", owner, p.kind)
			continue
		}
		if p.probe.HTTPGet.Path != p.path {
			t.Errorf("%s: %s probe path %q, want %q", owner, p.kind, p.probe.HTTPGet.Path, p.path)
		}
		if !hasPort(c, p.probe.HTTPGet.Port.String(), p.probe.HTTPGet.Port.IntValue()) {
			t.Errorf("%s: %s probe port %s is not a container port", owner, p.kind, p.probe.HTTPGet.Port.String())
		}
	}
}

func hasPort(c corev1.Container, name string, number int) bool {
	for _, p := range c.Ports {
		if p.Name == name || int(p.ContainerPort) == number {
			return true
		}
	}
	return false
}

func checkResources(t *testing.T, owner string, r corev1.ResourceRequirements) {
	t.Helper()
	if r.Requests.Cpu().IsZero() || r.Requests.Memory().IsZero() {
		t.Errorf("%s: resources.requests need cpu and memory, got %v", owner, r.Requests)
	}
	if r.Limits.Memory().IsZero() {
		t.Errorf("%s: no memory limit", owner)
	} else if r.Limits.Memory().Cmp(*r.Requests.Memory()) < 0 {
		t.Errorf("%s: memory limit %s below the request %s", owner, r.Limits.Memory(), r.Requests.Memory())
	}
}

func checkEnv(t *testing.T, owner string, c corev1.Container, known map[string]bool) {
	t.Helper()
	seen := map[string]int{}
	for _, e := range c.Env {
		seen[e.Name]++
		if !known[e.Name] {
			t.Errorf("%s: env %s is no Mneme setting (docs/configuration.md or the NATS/HTTP TLS contract)", owner, e.Name)
		}
	}
	for name, n := range seen {
		if n > 1 {
			t.Errorf("%s: env %s set %d times", owner, name, n)
		}
	}
	if len(c.EnvFrom) > 0 {
		t.Errorf("%s: envFrom would hide which settings a container gets", owner)
	}
	if v, ok := Env(c, "MNEME_DEV_MODE"); !ok || v != "false" {
		t.Errorf("%s: MNEME_DEV_MODE=%q (set=%t), want \"false\": the image's default must not be relied on", owner, v, ok)
	}
	for _, e := range c.Env {
		if e.Name == "MNEME_DATABASE_URL" && (e.ValueFrom == nil || e.ValueFrom.SecretKeyRef == nil) {
			t.Errorf("%s: MNEME_DATABASE_URL must come from a Secret", owner)
		}
	}
}

// knownEnv lists the settings Mneme reads: docs/configuration.md is generated from the config types (a test in
// the root module fails when it is stale), plus the contract variables.
func knownEnv(t *testing.T) map[string]bool {
	t.Helper()
	f, err := os.Open(configDoc)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	row := regexp.MustCompile("^\\| `(MNEME_[A-Z0-9_]+)` \\|")
	known := map[string]bool{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if m := row.FindStringSubmatch(sc.Text()); m != nil {
			known[m[1]] = true
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(known) < 50 || !known["MNEME_PARTITIONS"] {
		t.Fatalf("read only %d settings from %s: has its table format changed?", len(known), configDoc)
	}
	for _, n := range contractEnv {
		known[n] = true
	}
	return known
}

func checkReconcilerBound(t *testing.T, rel *Release, partitions int) {
	t.Helper()
	d := rel.Deployment("reconciler")
	if d == nil {
		return
	}
	most := 0
	if d.Spec.Replicas != nil {
		most = int(*d.Spec.Replicas)
	}
	for _, h := range rel.HPAs {
		if h.Spec.ScaleTargetRef.Name == d.Name {
			most = max(most, int(h.Spec.MaxReplicas))
		}
	}
	if most > partitions {
		t.Errorf("the reconciler can run %d replicas over %d partitions: replicas beyond the partition count own nothing", most, partitions)
	}
	for _, so := range rel.ScaledObjects {
		if so.Spec.ScaleTargetRef.Name == d.Name {
			t.Errorf("ScaledObject %s scales the reconciler, which is scaled by partitions", so.Name)
		}
	}
}

func checkMigrationJob(t *testing.T, rel *Release, vals map[string]any) {
	t.Helper()
	if !boolAt(vals, "migrations.job.enabled") {
		return
	}
	if len(rel.Jobs) != 1 {
		t.Fatalf("%d Jobs, want the migration Job", len(rel.Jobs))
	}
	j := rel.Jobs[0]
	if !rel.Hooks["Job/"+j.Name] {
		t.Errorf("Job %s is not a Helm hook", j.Name)
	}
	phases := strings.Split(j.Annotations["helm.sh/hook"], ",")
	if !slices.Contains(phases, "pre-upgrade") {
		t.Errorf("migration Job hook %q: it must run before an upgrade rolls the Deployments", j.Annotations["helm.sh/hook"])
	}
	onStart := boolAt(vals, "migrations.onStart")
	if slices.Contains(phases, "pre-install") == onStart {
		t.Errorf("migration Job hook %q with migrations.onStart=%t: pre-install is needed exactly when pods do not migrate", j.Annotations["helm.sh/hook"], onStart)
	}
	c := j.Spec.Template.Spec.Containers[0]
	if !slices.Equal(c.Args, []string{"migrate"}) {
		t.Errorf("migration Job args %q, want [migrate]", c.Args)
	}
	if j.Spec.Template.Spec.RestartPolicy != corev1.RestartPolicyNever && j.Spec.Template.Spec.RestartPolicy != corev1.RestartPolicyOnFailure {
		t.Errorf("migration Job restartPolicy %q", j.Spec.Template.Spec.RestartPolicy)
	}
	checkResources(t, "Job/"+j.Name, c.Resources)
	checkEnv(t, "Job/"+j.Name, c, knownEnv(t))
	for _, d := range rel.Deployments {
		v, _ := Env(d.Spec.Template.Spec.Containers[0], "MNEME_MIGRATE_ON_START")
		if v != strconv.FormatBool(onStart) {
			t.Errorf("%s: MNEME_MIGRATE_ON_START=%q, want %t", d.Name, v, onStart)
		}
	}
	// A pre-install Job can only read Secrets that exist before the release's own objects do.
	if slices.Contains(phases, "pre-install") {
		for _, e := range c.Env {
			if e.ValueFrom != nil && e.ValueFrom.SecretKeyRef != nil {
				name := e.ValueFrom.SecretKeyRef.Name
				if s := rel.Secret(name); s != nil && !rel.Hooks["Secret/"+name] {
					t.Errorf("pre-install migration Job reads Secret %s, which is created only after pre-install hooks", name)
				}
			}
		}
	}
}

func checkPodSecurity(t *testing.T, p PodTemplate) {
	t.Helper()
	spec := p.Template.Spec
	if spec.AutomountServiceAccountToken == nil || *spec.AutomountServiceAccountToken {
		t.Errorf("%s: automountServiceAccountToken must be false (Mneme never calls the Kubernetes API)", p.Owner)
	}
	if spec.HostNetwork || spec.HostPID || spec.HostIPC {
		t.Errorf("%s: host namespaces", p.Owner)
	}
	psc := spec.SecurityContext
	if psc == nil || psc.RunAsNonRoot == nil || !*psc.RunAsNonRoot {
		t.Errorf("%s: pod securityContext.runAsNonRoot must be true", p.Owner)
	}
	containers := append(append([]corev1.Container{}, spec.InitContainers...), spec.Containers...)
	for _, c := range containers {
		owner := p.Owner + "/" + c.Name
		sc := c.SecurityContext
		if sc == nil {
			t.Errorf("%s: no securityContext", owner)
			continue
		}
		uid := sc.RunAsUser
		if uid == nil && psc != nil {
			uid = psc.RunAsUser
		}
		if uid == nil || *uid == 0 {
			t.Errorf("%s: runs as root (runAsUser %v)", owner, uid)
		}
		if sc.RunAsNonRoot != nil && !*sc.RunAsNonRoot {
			t.Errorf("%s: runAsNonRoot overridden to false", owner)
		}
		if sc.Privileged != nil && *sc.Privileged {
			t.Errorf("%s: privileged", owner)
		}
		if sc.AllowPrivilegeEscalation == nil || *sc.AllowPrivilegeEscalation {
			t.Errorf("%s: allowPrivilegeEscalation must be false", owner)
		}
		if sc.ReadOnlyRootFilesystem == nil || !*sc.ReadOnlyRootFilesystem {
			t.Errorf("%s: the root filesystem must be read-only", owner)
		}
		if sc.Capabilities == nil || !slices.Contains(sc.Capabilities.Drop, "ALL") || len(sc.Capabilities.Add) > 0 {
			t.Errorf("%s: capabilities must drop ALL and add none, got %+v", owner, sc.Capabilities)
		}
		seccomp := sc.SeccompProfile
		if seccomp == nil && psc != nil {
			seccomp = psc.SeccompProfile
		}
		if seccomp == nil || seccomp.Type == corev1.SeccompProfileTypeUnconfined {
			t.Errorf("%s: no seccomp profile", owner)
		}
	}
}

// checkMountedFiles: every setting that names a file (credentials, certificates) names one a mounted Secret
// provides, with the Secret key it comes from.
func checkMountedFiles(t *testing.T, p PodTemplate) {
	t.Helper()
	spec := p.Template.Spec
	volumes := map[string]corev1.Volume{}
	for _, v := range spec.Volumes {
		volumes[v.Name] = v
	}
	for _, c := range spec.Containers {
		files := map[string]bool{}
		for _, m := range c.VolumeMounts {
			v, ok := volumes[m.Name]
			if !ok {
				t.Errorf("%s/%s: mounts undeclared volume %s", p.Owner, c.Name, m.Name)
				continue
			}
			if v.Secret != nil {
				for _, it := range v.Secret.Items {
					files[m.MountPath+"/"+it.Path] = true
				}
			}
		}
		for _, e := range c.Env {
			if slices.Contains(contractEnv, e.Name) && !files[e.Value] {
				t.Errorf("%s/%s: %s=%q is not a file of any mounted Secret", p.Owner, c.Name, e.Name, e.Value)
			}
		}
		if creds, ok := Env(c, "MNEME_NATS_CREDS"); ok {
			component := p.Template.Labels["app.kubernetes.io/component"]
			if filepath.Base(creds) != component+".creds" {
				t.Errorf("%s: reads NATS credentials %s, want its own user's %s.creds", p.Owner, creds, component)
			}
			for _, v := range spec.Volumes {
				if v.Secret != nil {
					for _, it := range v.Secret.Items {
						if strings.HasSuffix(it.Key, ".creds") && it.Key != component+".creds" {
							t.Errorf("%s: mounts another service's NATS credentials %s", p.Owner, it.Key)
						}
					}
				}
			}
		}
	}
}

func checkServiceAccounts(t *testing.T, rel *Release) {
	t.Helper()
	for _, sa := range rel.ServiceAccounts {
		if sa.AutomountServiceAccountToken == nil || *sa.AutomountServiceAccountToken {
			t.Errorf("ServiceAccount %s: automountServiceAccountToken must be false", sa.Name)
		}
	}
	for _, d := range rel.Deployments {
		name := d.Spec.Template.Spec.ServiceAccountName
		found := false
		for _, sa := range rel.ServiceAccounts {
			found = found || sa.Name == name
		}
		if !found {
			t.Errorf("%s: ServiceAccount %q is not rendered", d.Name, name)
		}
	}
}

// checkSecretReferences: every Secret a pod reads is rendered by the chart (with the key read), generated by
// CloudNativePG for the rendered Cluster, or named by one of the values documented in values.yaml as a
// Secret the operator creates beforehand.
func checkSecretReferences(t *testing.T, rel *Release, vals map[string]any) {
	t.Helper()
	documented := documentedSecrets(t, vals)
	generated := map[string]bool{}
	for _, c := range rel.Clusters {
		generated[c.Name+"-app"] = true
	}
	check := func(owner, name, key string) {
		switch {
		case rel.Secret(name) != nil:
			s := rel.Secret(name)
			if _, ok := s.StringData[key]; !ok && key != "" {
				if _, ok := s.Data[key]; !ok {
					t.Errorf("%s: reads key %q of Secret %s, which the chart renders without it", owner, key, name)
				}
			}
		case generated[name]:
			if key != "uri" {
				t.Errorf("%s: reads key %q of the CloudNativePG Secret %s, which holds the URL under uri", owner, key, name)
			}
		case documented[name]:
		default:
			t.Errorf("%s: reads Secret %q, which is neither rendered nor named by a documented value", owner, name)
		}
	}
	for _, p := range rel.PodTemplates() {
		spec := p.Template.Spec
		for _, c := range spec.Containers {
			for _, e := range c.Env {
				if e.ValueFrom != nil && e.ValueFrom.SecretKeyRef != nil {
					check(p.Owner+"/"+e.Name, e.ValueFrom.SecretKeyRef.Name, e.ValueFrom.SecretKeyRef.Key)
				}
			}
		}
		for _, v := range spec.Volumes {
			if v.Secret != nil {
				check(p.Owner+"/volume "+v.Name, v.Secret.SecretName, "")
			}
		}
		for _, s := range spec.ImagePullSecrets {
			check(p.Owner+"/imagePullSecrets", s.Name, "")
		}
	}
}

// documentedSecrets collects the Secret names given under the values values.yaml documents as names of
// Secrets created outside the chart.
func documentedSecrets(t *testing.T, vals map[string]any) map[string]bool {
	t.Helper()
	out := map[string]bool{}
	for _, path := range []string{"externalDatabase.existingSecret", "natsAuth.credentialsSecret", "natsAuth.tls.existingSecret", "http.tls.existingSecret", "embedding.apiKeySecret.name"} {
		if s := stringAt(vals, path); s != "" {
			out[s] = true
		}
	}
	for _, svc := range allServices {
		if m, ok := lookup(vals, "services."+svc+".secretEnv").(map[string]any); ok {
			for _, ref := range m {
				out[ref.(map[string]any)["name"].(string)] = true
			}
		}
	}
	if list, ok := lookup(vals, "imagePullSecrets").([]any); ok {
		for _, s := range list {
			out[s.(map[string]any)["name"].(string)] = true
		}
	}
	return out
}

func checkNetworkPolicies(t *testing.T, rel *Release, vals map[string]any, release string) {
	t.Helper()
	if !boolAt(vals, "networkPolicy.enabled") {
		if len(rel.NetworkPolicies) > 0 {
			t.Errorf("networkPolicy.enabled=false but %d NetworkPolicies rendered", len(rel.NetworkPolicies))
		}
		return
	}
	for _, p := range rel.PodTemplates() {
		podLabels := labels.Set(p.Template.Labels)
		var selecting []*networkingv1.NetworkPolicy
		for _, np := range rel.NetworkPolicies {
			sel, err := metav1.LabelSelectorAsSelector(&np.Spec.PodSelector)
			if err != nil {
				t.Fatalf("NetworkPolicy %s: %v", np.Name, err)
			}
			if sel.Matches(podLabels) {
				selecting = append(selecting, np)
			}
		}
		if len(selecting) != 1 {
			t.Errorf("%s: selected by %d NetworkPolicies, want exactly one", p.Owner, len(selecting))
			continue
		}
		np := selecting[0]
		if !slices.Contains(np.Spec.PolicyTypes, networkingv1.PolicyTypeIngress) || !slices.Contains(np.Spec.PolicyTypes, networkingv1.PolicyTypeEgress) {
			t.Errorf("NetworkPolicy %s restricts %v, want both Ingress and Egress", np.Name, np.Spec.PolicyTypes)
		}
		component := p.Template.Labels["app.kubernetes.io/component"]

		// Egress: DNS everywhere; NATS for every service; Postgres only where a pool is opened; nothing else but
		// what the values add.
		want := map[string]bool{"53/UDP": true, "53/TCP": true}
		if component != "migrate" {
			for _, port := range natsPorts(vals) {
				want[port] = true
			}
		}
		if slices.Contains(dbServices, component) || component == "migrate" {
			want[strconv.Itoa(postgresPort(vals))+"/TCP"] = true
		}
		for _, path := range []string{"networkPolicy.extraEgress", "services." + component + ".extraEgress"} {
			if rules, ok := lookup(vals, path).([]any); ok {
				for _, r := range rules {
					for _, port := range r.(map[string]any)["ports"].([]any) {
						pm := port.(map[string]any)
						want[fmt.Sprintf("%v/%v", pm["port"], pm["protocol"])] = true
					}
				}
			}
		}
		got := map[string]bool{}
		for _, rule := range np.Spec.Egress {
			if len(rule.Ports) == 0 {
				t.Errorf("NetworkPolicy %s: an egress rule without ports allows every port", np.Name)
			}
			for _, port := range rule.Ports {
				got[portKey(port)] = true
			}
		}
		if !mapsEqual(got, want) {
			t.Errorf("NetworkPolicy %s egress ports %v, want %v", np.Name, keys(got), keys(want))
		}

		// Ingress: the HTTP port of the API services; the metrics port when a scraper is named; else nothing.
		var ingressPorts []string
		for _, rule := range np.Spec.Ingress {
			for _, port := range rule.Ports {
				ingressPorts = append(ingressPorts, portKey(port))
			}
			if len(rule.Ports) == 0 {
				t.Errorf("NetworkPolicy %s: an ingress rule without ports", np.Name)
			}
		}
		isAPI := slices.Contains(apiServices, component)
		scraped := len(listAt(vals, "networkPolicy.metricsFrom")) > 0 && component != "migrate"
		switch {
		case !isAPI && !scraped && len(ingressPorts) > 0:
			t.Errorf("NetworkPolicy %s admits %v to a pod that serves no API", np.Name, ingressPorts)
		case (isAPI || scraped) && !slices.Contains(ingressPorts, "8080/TCP"):
			t.Errorf("NetworkPolicy %s does not admit the HTTP port", np.Name)
		}
		for _, p := range ingressPorts {
			if p != "8080/TCP" {
				t.Errorf("NetworkPolicy %s admits port %s", np.Name, p)
			}
		}
		if boolAt(vals, "nats.enabled") && component != "migrate" {
			if !egressTo(np, 4222, map[string]string{"app.kubernetes.io/name": "nats", "app.kubernetes.io/instance": release, "app.kubernetes.io/component": "nats"}) {
				t.Errorf("NetworkPolicy %s: no egress to the in-release NATS pods on 4222", np.Name)
			}
		}
	}
}

func egressTo(np *networkingv1.NetworkPolicy, port int, podLabels map[string]string) bool {
	for _, rule := range np.Spec.Egress {
		hasPort := false
		for _, p := range rule.Ports {
			hasPort = hasPort || (p.Port != nil && p.Port.IntValue() == port)
		}
		for _, peer := range rule.To {
			if peer.PodSelector == nil || !hasPort {
				continue
			}
			sel, err := metav1.LabelSelectorAsSelector(peer.PodSelector)
			if err == nil && sel.Matches(labels.Set(podLabels)) {
				return true
			}
		}
	}
	return false
}

func natsPorts(vals map[string]any) []string {
	if boolAt(vals, "nats.enabled") {
		return []string{"4222/TCP"}
	}
	var out []string
	for _, p := range listAt(vals, "externalNats.ports") {
		out = append(out, fmt.Sprintf("%v/TCP", p))
	}
	return out
}

func postgresPort(vals map[string]any) int {
	if boolAt(vals, "cnpg.enabled") {
		return 5432
	}
	switch v := lookup(vals, "externalDatabase.port").(type) {
	case float64:
		return int(v)
	case int64:
		return int(v)
	case int:
		return v
	}
	return 0
}

func portKey(p networkingv1.NetworkPolicyPort) string {
	proto := corev1.ProtocolTCP
	if p.Protocol != nil {
		proto = *p.Protocol
	}
	return fmt.Sprintf("%s/%s", p.Port.String(), proto)
}

// checkTargets: Services, PDBs, HPAs and ScaledObjects point at what exists; no Deployment has two
// autoscalers; an autoscaled Deployment leaves replicas to its autoscaler.
func checkTargets(t *testing.T, rel *Release) {
	t.Helper()
	matching := func(sel map[string]string) []string {
		var out []string
		for _, d := range rel.Deployments {
			if labels.SelectorFromSet(sel).Matches(labels.Set(d.Spec.Template.Labels)) {
				out = append(out, d.Name)
			}
		}
		return out
	}
	for _, s := range rel.Services {
		ds := matching(s.Spec.Selector)
		if len(ds) != 1 {
			t.Errorf("Service %s selects %v, want exactly one Deployment", s.Name, ds)
			continue
		}
		var d *appsv1.Deployment
		for _, cand := range rel.Deployments {
			if cand.Name == ds[0] {
				d = cand
			}
		}
		if !slices.Contains(apiServices, d.Labels["app.kubernetes.io/component"]) {
			t.Errorf("Service %s exposes %s, which serves no API", s.Name, d.Name)
		}
		for _, p := range s.Spec.Ports {
			if !hasPort(d.Spec.Template.Spec.Containers[0], p.TargetPort.String(), p.TargetPort.IntValue()) {
				t.Errorf("Service %s targets port %s, which %s does not declare", s.Name, p.TargetPort.String(), d.Name)
			}
		}
	}
	for _, svc := range apiServices {
		found := false
		for _, s := range rel.Services {
			found = found || s.Labels["app.kubernetes.io/component"] == svc
		}
		if !found {
			t.Errorf("no Service for the %s API", svc)
		}
	}
	for _, p := range rel.PDBs {
		if ds := matching(p.Spec.Selector.MatchLabels); len(ds) != 1 {
			t.Errorf("PodDisruptionBudget %s selects %v, want one Deployment", p.Name, ds)
		}
		if p.Spec.MinAvailable != nil {
			t.Errorf("PodDisruptionBudget %s uses minAvailable: a one-replica service could never be drained", p.Name)
		}
	}
	scalers := map[string][]string{}
	for _, h := range rel.HPAs {
		scalers[h.Spec.ScaleTargetRef.Kind+"/"+h.Spec.ScaleTargetRef.Name] = append(scalers[h.Spec.ScaleTargetRef.Kind+"/"+h.Spec.ScaleTargetRef.Name], "HPA "+h.Name)
		if h.Spec.MinReplicas == nil || *h.Spec.MinReplicas > h.Spec.MaxReplicas {
			t.Errorf("HPA %s: minReplicas %v, maxReplicas %d", h.Name, h.Spec.MinReplicas, h.Spec.MaxReplicas)
		}
	}
	for _, so := range rel.ScaledObjects {
		kind := so.Spec.ScaleTargetRef.Kind
		if kind == "" {
			kind = "Deployment"
		}
		scalers[kind+"/"+so.Spec.ScaleTargetRef.Name] = append(scalers[kind+"/"+so.Spec.ScaleTargetRef.Name], "ScaledObject "+so.Name)
	}
	for target, by := range scalers {
		name, ok := strings.CutPrefix(target, "Deployment/")
		exists := false
		for _, d := range rel.Deployments {
			if ok && d.Name == name {
				exists = true
				if d.Spec.Replicas != nil {
					t.Errorf("%s is autoscaled by %v but fixes replicas=%d: each upgrade would reset the autoscaler's choice", d.Name, by, *d.Spec.Replicas)
				}
			}
		}
		if !exists {
			t.Errorf("%v scale %s, which is not rendered", by, target)
		}
		if len(by) > 1 {
			t.Errorf("%s has %d autoscalers (%v): they would fight", target, len(by), by)
		}
	}
	for _, d := range rel.Deployments {
		if _, ok := scalers["Deployment/"+d.Name]; !ok && d.Spec.Replicas == nil {
			t.Errorf("%s has neither replicas nor an autoscaler", d.Name)
		}
	}
}

// kedaTriggerKeys is the metadata the nats-jetstream scaler reads (KEDA's documentation of the trigger).
var kedaTriggerKeys = map[string]bool{"natsServerMonitoringEndpoint": true, "account": true, "accountID": true, "stream": true,
	"consumer": true, "lagThreshold": true, "activationLagThreshold": true, "useHttps": true}

func checkScaledObjects(t *testing.T, rel *Release, vals map[string]any) {
	t.Helper()
	// The work-queue consumers, from the code that creates them.
	consumers := map[string][2]string{
		"ingest":    {bus.StreamInbox, ingest.ConsumerName},
		"extractor": {bus.StreamTurns, extractor.ConsumerName},
		"embedder":  {bus.StreamProposed, embedder.ConsumerName},
	}
	for _, svc := range allServices {
		wantKEDA := boolAt(vals, "services."+svc+".keda.enabled")
		var so *kedav1alpha1.ScaledObject
		for _, s := range rel.ScaledObjects {
			if s.Labels["app.kubernetes.io/component"] == svc {
				so = s
			}
		}
		if (so != nil) != wantKEDA {
			t.Errorf("%s: ScaledObject rendered=%t, keda.enabled=%t", svc, so != nil, wantKEDA)
		}
		if so == nil {
			continue
		}
		// The checks KEDA's admission webhook applies that need no cluster.
		if err := kedav1alpha1.ValidateTriggers(so.Spec.Triggers); err != nil {
			t.Errorf("ScaledObject %s: %v", so.Name, err)
		}
		if err := kedav1alpha1.CheckReplicaCountBoundsAreValid(so); err != nil {
			t.Errorf("ScaledObject %s: %v", so.Name, err)
		}
		if err := kedav1alpha1.CheckFallbackValid(so); err != nil {
			t.Errorf("ScaledObject %s: %v", so.Name, err)
		}
		lag := 0
		for _, tr := range so.Spec.Triggers {
			switch tr.Type {
			case "nats-jetstream":
				lag++
				for k := range tr.Metadata {
					if !kedaTriggerKeys[k] {
						t.Errorf("ScaledObject %s: nats-jetstream has no setting %q", so.Name, k)
					}
				}
				want, ok := consumers[svc]
				if !ok {
					t.Errorf("ScaledObject %s: %s consumes no work queue", so.Name, svc)
					continue
				}
				if tr.Metadata["stream"] != want[0] || tr.Metadata["consumer"] != want[1] {
					t.Errorf("ScaledObject %s watches %s/%s, but %s consumes %s/%s", so.Name, tr.Metadata["stream"], tr.Metadata["consumer"], svc, want[0], want[1])
				}
				if _, port, err := net.SplitHostPort(tr.Metadata["natsServerMonitoringEndpoint"]); err != nil || port == "" {
					t.Errorf("ScaledObject %s: natsServerMonitoringEndpoint %q is not host:port", so.Name, tr.Metadata["natsServerMonitoringEndpoint"])
				}
				for _, k := range []string{"lagThreshold", "activationLagThreshold"} {
					if _, err := strconv.ParseInt(tr.Metadata[k], 10, 64); err != nil {
						t.Errorf("ScaledObject %s: %s=%q is not an integer", so.Name, k, tr.Metadata[k])
					}
				}
			case "cpu":
				if tr.MetricType != "Utilization" {
					t.Errorf("ScaledObject %s: cpu trigger metricType %q", so.Name, tr.MetricType)
				}
			default:
				t.Errorf("ScaledObject %s: unexpected trigger %q", so.Name, tr.Type)
			}
		}
		if lag != 1 {
			t.Errorf("ScaledObject %s has %d JetStream lag triggers, want 1", so.Name, lag)
		}
	}
}

func checkNames(t *testing.T, rel *Release) {
	t.Helper()
	check := func(kind string, m metav1.ObjectMeta, dns1035 bool) {
		errs := validation.IsDNS1123Subdomain(m.Name)
		if dns1035 {
			errs = validation.IsDNS1035Label(m.Name)
		}
		for _, e := range errs {
			t.Errorf("%s %q: %s", kind, m.Name, e)
		}
		for k, v := range m.Labels {
			for _, e := range append(validation.IsQualifiedName(k), validation.IsValidLabelValue(v)...) {
				t.Errorf("%s %s label %s=%s: %s", kind, m.Name, k, v, e)
			}
		}
	}
	for _, d := range rel.Deployments {
		check("Deployment", d.ObjectMeta, false)
		check("pod template of", metav1.ObjectMeta{Name: d.Name, Labels: d.Spec.Template.Labels}, false)
	}
	for _, s := range rel.Services {
		check("Service", s.ObjectMeta, true)
	}
	for _, j := range rel.Jobs {
		check("Job", j.ObjectMeta, false)
		if len(j.Name) > 63 {
			t.Errorf("Job %s: its pods' job-name label would exceed 63 characters", j.Name)
		}
	}
	for _, np := range rel.NetworkPolicies {
		check("NetworkPolicy", np.ObjectMeta, false)
	}
}

func checkCNPG(t *testing.T, rel *Release, release string) {
	t.Helper()
	if len(rel.Clusters) != 1 {
		t.Fatalf("%d CloudNativePG Clusters, want 1", len(rel.Clusters))
	}
	c := rel.Clusters[0]
	if c.Spec.Instances < 1 || c.Spec.ImageName == "" || c.Spec.StorageConfiguration.Size == "" {
		t.Errorf("Cluster %s: instances %d, image %q, storage %q", c.Name, c.Spec.Instances, c.Spec.ImageName, c.Spec.StorageConfiguration.Size)
	}
	if c.Spec.Bootstrap == nil || c.Spec.Bootstrap.InitDB == nil || !slices.ContainsFunc(c.Spec.Bootstrap.InitDB.PostInitApplicationSQL, func(s string) bool {
		return strings.Contains(strings.ToUpper(s), "CREATE EXTENSION IF NOT EXISTS VECTOR")
	}) {
		t.Errorf("Cluster %s does not create the vector extension at bootstrap", c.Name)
	}
	for _, d := range rel.Deployments {
		for _, e := range d.Spec.Template.Spec.Containers[0].Env {
			if e.Name == "MNEME_DATABASE_URL" && (e.ValueFrom.SecretKeyRef.Name != c.Name+"-app" || e.ValueFrom.SecretKeyRef.Key != "uri") {
				t.Errorf("%s reads the database URL from %s/%s, want the CloudNativePG Secret %s-app/uri", d.Name, e.ValueFrom.SecretKeyRef.Name, e.ValueFrom.SecretKeyRef.Key, c.Name)
			}
		}
	}
	for _, np := range rel.NetworkPolicies {
		component := np.Labels["app.kubernetes.io/component"]
		if (slices.Contains(dbServices, component) || component == "migrate") && !egressTo(np, 5432, map[string]string{"cnpg.io/cluster": c.Name}) {
			t.Errorf("NetworkPolicy %s: no egress to the CloudNativePG pods", np.Name)
		}
	}
	if !strings.HasPrefix(c.Name, release) {
		t.Errorf("Cluster %s is not named after release %s", c.Name, release)
	}
}

// checkInReleaseNATS: with the NATS chart in the release, the services reach its client Service, named as
// that chart names it (nats.fullname: the release name, suffixed with -nats unless it already contains it).
func checkInReleaseNATS(t *testing.T, rel *Release, release string) {
	t.Helper()
	natsName := release + "-nats"
	if strings.Contains(release, "nats") {
		natsName = release
	}
	want := fmt.Sprintf("nats://%s.mneme.svc.cluster.local:4222", natsName)
	for _, d := range rel.Deployments {
		if got, _ := Env(d.Spec.Template.Spec.Containers[0], "MNEME_NATS_URL"); got != want {
			t.Errorf("%s: MNEME_NATS_URL=%q, want %q", d.Name, got, want)
		}
	}
	for _, so := range rel.ScaledObjects {
		if got := so.Spec.Triggers[0].Metadata["natsServerMonitoringEndpoint"]; got != natsName+"-headless.mneme.svc.cluster.local:8222" {
			t.Errorf("ScaledObject %s monitors %q, want the NATS chart's headless Service (KEDA resolves <server>.<endpoint>)", so.Name, got)
		}
	}
}

// TestChartValuesAreDocumentedAndTyped: every key of values.yaml is described by the schema, so the schema's
// additionalProperties=false rejects misspellings without rejecting anything values.yaml offers.
func TestChartValuesAreDocumentedAndTyped(t *testing.T) {
	c := loadChart(t)
	if len(c.Schema) == 0 {
		t.Fatal("the chart has no values.schema.json")
	}
	if err := chartutil.ValidateAgainstSchema(c, c.Values); err != nil {
		t.Fatalf("values.yaml does not satisfy values.schema.json: %v", err)
	}
	var dep *chart.Dependency
	for _, d := range c.Metadata.Dependencies {
		if d.Name == "nats" {
			dep = d
		}
	}
	if dep == nil || dep.Condition != "nats.enabled" {
		t.Fatalf("Chart.yaml must declare the official NATS chart as a dependency conditioned on nats.enabled, got %+v", dep)
	}
	if boolAt(c.Values, "nats.enabled") || boolAt(c.Values, "cnpg.enabled") {
		t.Error("the defaults must use external endpoints (they render offline, with no dependency fetched)")
	}
}

func TestBadValuesAreRejected(t *testing.T) {
	cases := []struct {
		name, values string
		want         []string // substrings of the error, naming the key and what is wrong
	}{
		{"unknown top-level key", "replicaCount: 3", []string{"replicaCount"}},
		{"misspelled service key", "services: {query: {replica: 3}}", []string{"/services/query", "replica"}},
		{"partitions out of range", "partitions: 0", []string{"/partitions", "minimum"}},
		{"stream replicas an even number", "streamReplicas: 2", []string{"/streamReplicas"}},
		{"dev mode through env", "services: {query: {env: {MNEME_DEV_MODE: \"true\"}}}", []string{"/services/query/env", "MNEME_DEV_MODE"}},
		{"database URL through env", "services: {ingest: {env: {MNEME_DATABASE_URL: \"postgres://x\"}}}", []string{"/services/ingest/env", "MNEME_DATABASE_URL"}},
		{"root user", "securityContext: {runAsUser: 0}", []string{"/securityContext/runAsUser", "minimum"}},
		{"no memory limit", "services: {embedder: {resources: {limits: null}}}", []string{"/services/embedder/resources", "limits"}},
		{"a CPU request that is no quantity", "services: {ingest: {resources: {requests: {cpu: lots}}}}", []string{"/services/ingest/resources/requests/cpu"}},
		{"KEDA for the reconciler", "services: {reconciler: {keda: {enabled: true}}}", []string{"/services/reconciler", "keda"}},
		{"no database at all", "externalDatabase: {existingSecret: \"\", url: \"\"}", []string{"/externalDatabase"}},
		{"no NATS at all", "externalNats: {url: \"\"}", []string{"/externalNats/url"}},
		{"an HTTP URL for NATS", "externalNats: {url: \"http://nats:4222\"}", []string{"/externalNats/url"}},
		{"a MySQL database URL", "externalDatabase: {existingSecret: \"\", url: \"mysql://db/mneme\"}", []string{"/externalDatabase/url"}},
		{"openai embeddings without an endpoint", "embedding: {provider: openai}", []string{"/embedding", "baseUrl"}},
		{"a bad log level", "logLevel: verbose", []string{"/logLevel"}},
		{"reconciler replicas beyond partitions", "partitions: 4\nservices: {reconciler: {replicas: 5}}", []string{"services.reconciler.replicas=5 exceeds partitions=4"}},
		{"reconciler autoscaling beyond partitions", "services: {reconciler: {autoscaling: {enabled: true, minReplicas: 2, maxReplicas: 17, targetCPUUtilizationPercentage: 70}}}", []string{"services.reconciler.autoscaling.maxReplicas=17 exceeds partitions=16"}},
		{"HPA and KEDA on one service", "services: {extractor: {autoscaling: {enabled: true}, keda: {enabled: true}}}\nexternalNats: {monitoringEndpoint: \"nats-headless.nats:8222\"}", []string{"services.extractor: autoscaling.enabled and keda.enabled are both true"}},
		{"KEDA without a monitoring endpoint", "services: {ingest: {keda: {enabled: true}}}", []string{"externalNats.monitoringEndpoint is required"}},
		{"autoscaling bounds inverted", "services: {query: {autoscaling: {enabled: true, minReplicas: 9, maxReplicas: 3}}}", []string{"services.query.autoscaling: minReplicas=9 exceeds maxReplicas=3"}},
		{"both a database Secret and a URL", "externalDatabase: {url: \"postgres://a@b/c\"}", []string{"externalDatabase: set existingSecret or url, not both"}},
		{"Job-only migrations with CloudNativePG", "cnpg: {enabled: true}\nmigrations: {onStart: false}", []string{"migrations.onStart=false"}},
		{"more stream replicas than NATS servers", "nats: {enabled: true, config: {cluster: {enabled: false}}}", []string{"streamReplicas=3 exceeds the in-release NATS cluster's 1 servers"}},
		{"a setting in env and secretEnv", "services: {query: {env: {MNEME_QUERY_LLM_API_KEY: x}, secretEnv: {MNEME_QUERY_LLM_API_KEY: {name: s, key: k}}}}", []string{"MNEME_QUERY_LLM_API_KEY is set in both env and secretEnv"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Render(loadChart(t), parseValues(t, tc.values), RenderOptions{})
			if err == nil {
				t.Fatal("accepted")
			}
			t.Logf("rejected: %v", err)
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error does not mention %q:\n%v", w, err)
				}
			}
		})
	}
}

func TestReconcilerReplicasBoundedByPartitions(t *testing.T) {
	for _, tc := range []struct {
		partitions, replicas int
		ok                   bool
	}{{16, 16, true}, {16, 17, false}, {1, 1, true}, {1, 2, false}, {32, 8, true}, {1024, 1000, true}} {
		t.Run(fmt.Sprintf("%d over %d", tc.replicas, tc.partitions), func(t *testing.T) {
			vals := parseValues(t, fmt.Sprintf("partitions: %d\nservices: {reconciler: {replicas: %d}}", tc.partitions, tc.replicas))
			_, err := Render(loadChart(t), vals, RenderOptions{})
			if (err == nil) != tc.ok {
				t.Fatalf("render error %v, want ok=%t", err, tc.ok)
			}
		})
	}
}

// TestSecretsFollowTheContract checks the Secret-to-variable wiring of the production example in detail:
// each service's own NATS user, TLS to NATS and on HTTP, and probes that follow the HTTP scheme.
func TestSecretsFollowTheContract(t *testing.T) {
	rel, _ := render(t, valueSet{values: readValues(t, filepath.Join(examplesDir, "production.yaml"))}, false)
	for _, svc := range allServices {
		c := rel.Deployment(svc).Spec.Template.Spec.Containers[0]
		want := map[string]string{
			"MNEME_NATS_CREDS":    "/var/run/secrets/mneme/nats-creds/" + svc + ".creds",
			"MNEME_NATS_TLS_CA":   "/var/run/secrets/mneme/nats-tls/ca.crt",
			"MNEME_NATS_TLS_CERT": "/var/run/secrets/mneme/nats-tls/tls.crt",
			"MNEME_NATS_TLS_KEY":  "/var/run/secrets/mneme/nats-tls/tls.key",
			"MNEME_HTTP_TLS_CERT": "/var/run/secrets/mneme/http-tls/tls.crt",
			"MNEME_HTTP_TLS_KEY":  "/var/run/secrets/mneme/http-tls/tls.key",
		}
		for k, v := range want {
			if got, _ := Env(c, k); got != v {
				t.Errorf("%s: %s=%q, want %q", svc, k, got, v)
			}
		}
		if u, _ := Env(c, "MNEME_NATS_URL"); !strings.HasPrefix(u, "tls://") {
			t.Errorf("%s: MNEME_NATS_URL=%q with NATS TLS", svc, u)
		}
		for _, p := range []*corev1.Probe{c.StartupProbe, c.LivenessProbe, c.ReadinessProbe} {
			if p.HTTPGet.Scheme != corev1.URISchemeHTTPS {
				t.Errorf("%s: probe scheme %s with HTTP TLS on", svc, p.HTTPGet.Scheme)
			}
		}
	}
	ex := rel.Deployment("extractor").Spec.Template.Spec.Containers[0]
	found := false
	for _, e := range ex.Env {
		found = found || (e.Name == "MNEME_EXTRACTOR_LLM_API_KEY" && e.ValueFrom.SecretKeyRef.Name == "mneme-llm")
	}
	if !found {
		t.Error("extractor: the LLM key from secretEnv is not wired")
	}
}

func TestPodAnnotationsMerge(t *testing.T) {
	rel, _ := render(t, valueSet{values: parseValues(t, `
podAnnotations: {a: global, b: global}
services: {query: {podAnnotations: {b: query}}}
`)}, false)
	for _, d := range rel.Deployments {
		want := map[string]string{"a": "global", "b": "global"}
		if d.Labels["app.kubernetes.io/component"] == "query" {
			want["b"] = "query" // a service's own annotation wins
		}
		for k, v := range want {
			if got := d.Spec.Template.Annotations[k]; got != v {
				t.Errorf("%s: annotation %s=%q, want %q", d.Name, k, got, v)
			}
		}
	}
}

func TestTrialRendersItsOwnSecret(t *testing.T) {
	vs := valueSets(t)[4]
	rel, _ := render(t, vs, false)
	s := rel.Secret("mneme-database")
	if s == nil || s.StringData["uri"] != "postgres://mneme:secret@pg.db.svc:5432/mneme?sslmode=require" {
		t.Fatalf("database Secret %+v", s)
	}
	if !rel.Hooks["Secret/mneme-database"] {
		t.Error("with Job-only migrations the database Secret must be a pre-install hook, or the Job could not read it")
	}
	for _, d := range rel.Deployments {
		c := d.Spec.Template.Spec.Containers[0]
		if _, ok := Env(c, "MNEME_NATS_CREDS"); ok {
			t.Errorf("%s: MNEME_NATS_CREDS set without natsAuth.credentialsSecret", d.Name)
		}
	}
}

// --- value lookups over coalesced values ---

func lookup(vals map[string]any, path string) any {
	var cur any = vals
	for _, k := range strings.Split(path, ".") {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil
		}
		cur = m[k]
	}
	return cur
}

func boolAt(vals map[string]any, path string) bool {
	b, _ := lookup(vals, path).(bool)
	return b
}

func stringAt(vals map[string]any, path string) string {
	s, _ := lookup(vals, path).(string)
	return s
}

func listAt(vals map[string]any, path string) []any {
	l, _ := lookup(vals, path).([]any)
	return l
}

func intAt(t *testing.T, vals map[string]any, path string) int {
	t.Helper()
	switch v := lookup(vals, path).(type) {
	case float64:
		return int(v)
	case int64:
		return int(v)
	case int:
		return v
	}
	t.Fatalf("value %s is %T, not a number", path, lookup(vals, path))
	return 0
}

func keys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func mapsEqual(a, b map[string]bool) bool {
	return slices.Equal(keys(a), keys(b))
}

// The chart promises that R3 streams keep every acknowledged write through correlated crashes, which needs the
// NATS servers to fsync before they acknowledge: the in-release NATS is configured so by default and in the
// example that installs it.
func TestInReleaseNATSSyncsEveryWrite(t *testing.T) {
	for _, path := range []string{filepath.Join(chartDir, "values.yaml"), filepath.Join(examplesDir, "in-cluster.yaml")} {
		vals := readValues(t, path)
		if got := stringAt(vals, "nats.config.jetstream.merge.sync_interval"); got != "always" {
			t.Errorf("%s: nats.config.jetstream.merge.sync_interval = %q, want always", path, got)
		}
	}
}
