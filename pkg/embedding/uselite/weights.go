package uselite

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/mneme-ai/mneme/pkg/embedding"
)

// Files of the model directory (as fetched by scripts/fetch-model.sh).
const (
	modelFile = "model.json"
	vocabFile = "vocab.json"
)

// tfjsModel is the part of a TF.js graph-model model.json this package reads.
type tfjsModel struct {
	ModelTopology struct {
		Node []graphNode `json:"node"`
	} `json:"modelTopology"`
	WeightsManifest []struct {
		Paths   []string     `json:"paths"`
		Weights []weightSpec `json:"weights"`
	} `json:"weightsManifest"`
}

type graphNode struct {
	Name  string   `json:"name"`
	Op    string   `json:"op"`
	Input []string `json:"input"`
}

type weightSpec struct {
	Name         string          `json:"name"`
	Shape        []int           `json:"shape"`
	Dtype        string          `json:"dtype"`
	Quantization json.RawMessage `json:"quantization"`
}

type tensor struct {
	name  string
	shape []int
	f32   []float32
	i32   []int32
}

func (t *tensor) size() int {
	n := 1
	for _, d := range t.shape {
		n *= d
	}
	return n
}

// graph indexes the nodes and constant tensors of model.json.
type graph struct {
	nodes   map[string]*graphNode
	weights map[string]*tensor
}

func readModelFile(dir, name string) ([]byte, error) {
	data, err := os.ReadFile(filepath.Join(dir, name))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("uselite: %w: %s is missing in %s", embedding.ErrModelMissing, name, dir)
	}
	if err != nil {
		return nil, fmt.Errorf("uselite: read %s: %w", name, err)
	}
	return data, nil
}

// loadGraph parses model.json and decodes every weight of its manifest from the shard files.
func loadGraph(dir string) (*graph, error) {
	raw, err := readModelFile(dir, modelFile)
	if err != nil {
		return nil, err
	}
	var m tfjsModel
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, fmt.Errorf("uselite: decode %s: %w", modelFile, err)
	}
	g := &graph{nodes: make(map[string]*graphNode, len(m.ModelTopology.Node)), weights: map[string]*tensor{}}
	for i := range m.ModelTopology.Node {
		n := &m.ModelTopology.Node[i]
		g.nodes[n.Name] = n
	}
	if len(g.nodes) == 0 {
		return nil, fmt.Errorf("uselite: %s has no graph nodes", modelFile)
	}
	for _, group := range m.WeightsManifest {
		var buf []byte
		for _, p := range group.Paths {
			if strings.Contains(p, "..") || filepath.IsAbs(p) {
				return nil, fmt.Errorf("uselite: weight shard path %q escapes the model directory", p)
			}
			shard, err := readModelFile(dir, p)
			if err != nil {
				return nil, err
			}
			buf = append(buf, shard...)
		}
		off := 0
		for _, spec := range group.Weights {
			if len(spec.Quantization) > 0 && string(spec.Quantization) != "null" {
				return nil, fmt.Errorf("uselite: weight %s is quantized, which this loader does not support", spec.Name)
			}
			t := &tensor{name: spec.Name, shape: spec.Shape}
			n := t.size()
			if n < 0 || off+4*n > len(buf) {
				return nil, fmt.Errorf("uselite: weight shards are too short for %s (corrupt download? rerun `make deps`)", spec.Name)
			}
			chunk := buf[off : off+4*n]
			switch spec.Dtype {
			case "float32":
				t.f32 = make([]float32, n)
				for i := range t.f32 {
					t.f32[i] = math.Float32frombits(binary.LittleEndian.Uint32(chunk[4*i:]))
				}
			case "int32":
				t.i32 = make([]int32, n)
				for i := range t.i32 {
					t.i32[i] = int32(binary.LittleEndian.Uint32(chunk[4*i:]))
				}
			default:
				return nil, fmt.Errorf("uselite: weight %s has unsupported dtype %q", spec.Name, spec.Dtype)
			}
			off += 4 * n
			g.weights[spec.Name] = t
		}
		if off != len(buf) {
			return nil, fmt.Errorf("uselite: weight shards hold %d bytes, manifest describes %d", len(buf), off)
		}
	}
	return g, nil
}

// node returns the node whose name ends with suffix; exactly one must match.
func (g *graph) node(suffix string) (*graphNode, error) {
	var found *graphNode
	for name, n := range g.nodes {
		if name == suffix || strings.HasSuffix(name, "/"+suffix) {
			if found != nil {
				return nil, fmt.Errorf("uselite: graph node %q is ambiguous", suffix)
			}
			found = n
		}
	}
	if found == nil {
		return nil, fmt.Errorf("uselite: graph node %q not found (unexpected model.json)", suffix)
	}
	return found, nil
}

// hasNode reports whether some node name ends with suffix.
func (g *graph) hasNode(suffix string) bool {
	_, err := g.node(suffix)
	return err == nil
}

// input follows input i of the node ending with suffix (which must have op) to a constant tensor.
func (g *graph) input(suffix, op string, i int) (*tensor, error) {
	n, err := g.node(suffix)
	if err != nil {
		return nil, err
	}
	if n.Op != op {
		return nil, fmt.Errorf("uselite: graph node %s is %s, want %s", n.Name, n.Op, op)
	}
	if i >= len(n.Input) {
		return nil, fmt.Errorf("uselite: graph node %s has %d inputs, want more than %d", n.Name, len(n.Input), i)
	}
	name := n.Input[i]
	t, ok := g.weights[name]
	if !ok {
		return nil, fmt.Errorf("uselite: input %d of %s (%s) is not a weight", i, n.Name, name)
	}
	return t, nil
}

// floats returns a float32 tensor input with the given shape (a -1 matches any size).
func (g *graph) floats(suffix, op string, i int, shape ...int) ([]float32, error) {
	t, err := g.input(suffix, op, i)
	if err != nil {
		return nil, err
	}
	if t.f32 == nil {
		return nil, fmt.Errorf("uselite: weight %s is not float32", t.name)
	}
	if err := checkShape(t, shape); err != nil {
		return nil, err
	}
	return t.f32, nil
}

// scalarF returns a float32 scalar input.
func (g *graph) scalarF(suffix, op string, i int) (float32, error) {
	v, err := g.floats(suffix, op, i)
	if err != nil {
		return 0, err
	}
	if len(v) != 1 {
		return 0, fmt.Errorf("uselite: input %d of %s has %d values, want a scalar", i, suffix, len(v))
	}
	return v[0], nil
}

// ints returns an int32 tensor input.
func (g *graph) ints(suffix, op string, i int) ([]int32, error) {
	t, err := g.input(suffix, op, i)
	if err != nil {
		return nil, err
	}
	if t.i32 == nil {
		return nil, fmt.Errorf("uselite: weight %s is not int32", t.name)
	}
	return t.i32, nil
}

func checkShape(t *tensor, want []int) error {
	if want == nil {
		return nil
	}
	// 1x1 convolution kernels [1,1,in,out] are plain matrices.
	got := t.shape
	for len(got) > len(want) && got[0] == 1 {
		got = got[1:]
	}
	ok := len(got) == len(want)
	for i := 0; ok && i < len(want); i++ {
		ok = want[i] == -1 || want[i] == got[i]
	}
	if !ok {
		return fmt.Errorf("uselite: weight %s has shape %v, want %v", t.name, t.shape, want)
	}
	return nil
}
