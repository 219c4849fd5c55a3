// Package validate checks Mneme's deployment files without a cluster or a container engine: it renders the
// Helm chart under deploy/helm/mneme the way `helm template` does (Helm as a Go library, values checked
// against values.schema.json), decodes every rendered manifest strictly into the Kubernetes API types (and
// KEDA's and CloudNativePG's, for their custom resources), and loads docker-compose.yml with the
// compose-spec loader. Its tests assert what a correct deployment must satisfy; the production modules never
// import it, so they never link Helm or the Kubernetes API.
package validate

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
	"sort"
	"strings"

	cnpgv1 "github.com/cloudnative-pg/cloudnative-pg/api/v1"
	kedav1alpha1 "github.com/kedacore/keda/v2/apis/keda/v1alpha1"
	"helm.sh/helm/v3/pkg/action"
	"helm.sh/helm/v3/pkg/chart"
	"helm.sh/helm/v3/pkg/chart/loader"
	"helm.sh/helm/v3/pkg/chartutil"
	"helm.sh/helm/v3/pkg/releaseutil"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
)

// DefaultKubeVersion is the oldest Kubernetes the chart supports (Chart.yaml kubeVersion); rendering for it
// proves the chart needs nothing newer.
const DefaultKubeVersion = "v1.30.0"

// RenderOptions say which release is rendered.
type RenderOptions struct {
	ReleaseName string // default "mneme"
	Namespace   string // default "mneme"
	KubeVersion string // default DefaultKubeVersion
	// Upgrade renders as `helm template --is-upgrade` (.Release.IsUpgrade is true).
	Upgrade bool
}

// Manifest is one rendered document: its source template, whether it is a Helm hook, and its text.
type Manifest struct {
	Source string
	Hook   bool
	Text   string
}

// Rendered is a chart rendered with one set of values.
type Rendered struct {
	Values    map[string]any // the values given (not coalesced with the chart's defaults)
	Manifests []Manifest
	Notes     string
}

// LoadChart reads a chart directory.
func LoadChart(dir string) (*chart.Chart, error) {
	c, err := loader.Load(dir)
	if err != nil {
		return nil, fmt.Errorf("load chart %s: %w", dir, err)
	}
	return c, nil
}

// Render renders the chart like `helm template` (client only: no cluster is contacted). Values are validated
// against the chart's values.schema.json and the templates' own checks; the error of a rejected values set is
// Helm's, naming the offending key. Like Helm's install action, it processes c's dependencies in place:
// load the chart afresh for every render.
func Render(c *chart.Chart, values map[string]any, opts RenderOptions) (*Rendered, error) {
	if opts.ReleaseName == "" {
		opts.ReleaseName = "mneme"
	}
	if opts.Namespace == "" {
		opts.Namespace = "mneme"
	}
	if opts.KubeVersion == "" {
		opts.KubeVersion = DefaultKubeVersion
	}
	kv, err := chartutil.ParseKubeVersion(opts.KubeVersion)
	if err != nil {
		return nil, err
	}
	install := action.NewInstall(&action.Configuration{Log: func(string, ...any) {}})
	install.ClientOnly = true
	install.DryRun = true
	install.Replace = true
	install.IncludeCRDs = true
	install.IsUpgrade = opts.Upgrade
	install.ReleaseName = opts.ReleaseName
	install.Namespace = opts.Namespace
	install.KubeVersion = kv
	if values == nil {
		values = map[string]any{}
	}
	// Helm coalesces into the map it is given; render from a copy so callers can reuse theirs.
	rel, err := install.Run(c, deepCopy(values).(map[string]any))
	if err != nil {
		return nil, err
	}
	out := &Rendered{Values: values, Notes: rel.Info.Notes}
	out.Manifests = append(out.Manifests, split(rel.Manifest, false)...)
	for _, h := range rel.Hooks {
		for _, m := range split(h.Manifest, true) {
			m.Source = h.Path
			out.Manifests = append(out.Manifests, m)
		}
	}
	return out, nil
}

var sourceComment = regexp.MustCompile(`(?m)^# Source: (.+)$`)

func split(stream string, hook bool) []Manifest {
	docs := releaseutil.SplitManifests(stream)
	keys := make([]string, 0, len(docs))
	for k := range docs {
		keys = append(keys, k)
	}
	// SplitManifests names documents manifest-0, manifest-1, ...: restore the rendered order.
	sort.Slice(keys, func(i, j int) bool { return releaseutil.BySplitManifestsOrder(keys).Less(i, j) })
	var out []Manifest
	for _, k := range keys {
		text := docs[k]
		if strings.TrimSpace(stripComments(text)) == "" {
			continue
		}
		m := Manifest{Hook: hook, Text: text}
		if s := sourceComment.FindStringSubmatch(text); s != nil {
			m.Source = s[1]
		}
		out = append(out, m)
	}
	return out
}

func stripComments(doc string) string {
	var b strings.Builder
	for _, line := range strings.Split(doc, "\n") {
		if !strings.HasPrefix(strings.TrimSpace(line), "#") {
			b.WriteString(line)
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// Scheme knows every built-in Kubernetes type plus the custom resources the chart may render: KEDA's
// ScaledObject and CloudNativePG's Cluster.
func Scheme() (*runtime.Scheme, error) {
	s := runtime.NewScheme()
	for _, add := range []func(*runtime.Scheme) error{clientgoscheme.AddToScheme, kedav1alpha1.AddToScheme, cnpgv1.AddToScheme} {
		if err := add(s); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// Decoder decodes manifests strictly: an unknown field, a duplicate field, a wrong type or an unregistered
// kind is an error, as it would be for `kubectl apply --validate=strict`.
type Decoder struct {
	decode func([]byte) (runtime.Object, error)
}

// NewDecoder returns a strict decoder over Scheme().
func NewDecoder() (*Decoder, error) {
	s, err := Scheme()
	if err != nil {
		return nil, err
	}
	d := serializer.NewCodecFactory(s, serializer.EnableStrict).UniversalDeserializer()
	return &Decoder{decode: func(b []byte) (runtime.Object, error) {
		obj, _, err := d.Decode(b, nil, nil)
		return obj, err
	}}, nil
}

// Decode decodes one manifest into its typed object.
func (d *Decoder) Decode(m Manifest) (runtime.Object, error) {
	obj, err := d.decode([]byte(m.Text))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", m.Source, err)
	}
	return obj, nil
}

// Objects decodes every manifest of r, joining every failure into one error.
func (d *Decoder) Objects(r *Rendered) ([]Object, error) {
	var (
		out  []Object
		errs []error
	)
	for _, m := range r.Manifests {
		obj, err := d.Decode(m)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		out = append(out, Object{Manifest: m, Obj: obj})
	}
	return out, errors.Join(errs...)
}

// Object is a decoded manifest.
type Object struct {
	Manifest Manifest
	Obj      runtime.Object
}

// WriteAll writes the rendered manifests as one YAML stream (what `helm template` prints).
func (r *Rendered) WriteAll(w io.Writer) error {
	var b bytes.Buffer
	for _, m := range r.Manifests {
		b.WriteString("---\n")
		b.WriteString(strings.TrimSpace(m.Text))
		b.WriteString("\n")
	}
	_, err := w.Write(b.Bytes())
	return err
}

func deepCopy(v any) any {
	switch t := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(t))
		for k, e := range t {
			m[k] = deepCopy(e)
		}
		return m
	case []any:
		s := make([]any, len(t))
		for i, e := range t {
			s[i] = deepCopy(e)
		}
		return s
	}
	return v
}
