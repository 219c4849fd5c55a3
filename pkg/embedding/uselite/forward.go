package uselite

import (
	"math"
	"sync"
	"sync/atomic"
)

// workspace holds the activations of one batch pass. Rows are tokens of all the batch's texts packed
// one after another (no padding between texts), padded at the end to a multiple of rowAlign.
type workspace struct {
	rows   int // capacity in rows
	x      []float32
	h      []float32
	qkv    []float32
	att    []float32
	y      []float32
	ffn    []float32
	pooled []float32
	final  []float32
	scores [][]float32 // one MaxTokens² scratch per attention worker
	starts []int
}

func roundUp(n, m int) int { return (n + m - 1) / m * m }

func grow(buf []float32, n int) []float32 {
	if cap(buf) < n {
		return make([]float32, n)
	}
	return buf[:n]
}

func (w *workspace) ensure(p *params, rows, texts, workers int) {
	l0, l1 := &p.layers[0], &p.layers[1]
	maxIn := max(l0.dIn, l1.dIn)
	maxAttn := max(l0.dAttn, l1.dAttn)
	maxOut := max(l0.dOut, l1.dOut)
	maxFFN := max(l0.ffn1.cols, l1.ffn1.cols)
	w.rows = rows
	w.x = grow(w.x, rows*p.embDim)
	w.h = grow(w.h, rows*max(maxIn, maxOut))
	w.qkv = grow(w.qkv, rows*3*maxAttn)
	w.att = grow(w.att, rows*maxAttn)
	w.y = grow(w.y, rows*maxOut)
	w.ffn = grow(w.ffn, rows*maxFFN)
	br := roundUp(texts, rowAlign)
	w.pooled = grow(w.pooled, br*maxOut)
	w.final = grow(w.final, br*Dim)
	for len(w.scores) < workers {
		w.scores = append(w.scores, make([]float32, MaxTokens*MaxTokens))
	}
	if cap(w.starts) < texts+1 {
		w.starts = make([]int, texts+1)
	}
	w.starts = w.starts[:texts+1]
}

// forwardBatch embeds seqs (token ids, at most MaxTokens each) into out with the packed, blocked path.
func (m *Model) forwardBatch(ws *workspace, seqs [][]int32, out [][]float32) {
	p := m.params
	threads := m.opts.threads
	total := 0
	for _, s := range seqs {
		total += len(s)
	}
	rows := roundUp(max(total, 1), rowAlign)
	ws.ensure(p, rows, len(seqs), threads)
	ws.starts[0] = 0
	for i, s := range seqs {
		ws.starts[i+1] = ws.starts[i] + len(s)
	}

	// Layer 0 input: 2·embedding + timing signal; padding rows are zero.
	d := p.embDim
	x := ws.x[:rows*d]
	for i, s := range seqs {
		for pos, id := range s {
			row := x[(ws.starts[i]+pos)*d : (ws.starts[i]+pos+1)*d]
			emb := p.embedding[int(id)*d : (int(id)+1)*d]
			tim := p.timing[pos*d : (pos+1)*d]
			for j := range row {
				row[j] = (emb[j] + tim[j]) + emb[j]
			}
		}
	}
	clear(x[total*d:])

	in := x
	for l := range p.layers {
		lp := &p.layers[l]
		y := ws.y[:rows*lp.dOut]
		m.layer(ws, lp, rows, total, seqs, in, y)
		in = y
	}

	// Masked mean pooling over each text's tokens, then dense + tanh and L2 normalisation.
	dOut := p.layers[len(p.layers)-1].dOut
	br := roundUp(len(seqs), rowAlign)
	pooled := ws.pooled[:br*dOut]
	clear(pooled)
	for i := range seqs {
		dst := pooled[i*dOut : (i+1)*dOut]
		n := ws.starts[i+1] - ws.starts[i]
		for r := ws.starts[i]; r < ws.starts[i+1]; r++ {
			src := in[r*dOut : (r+1)*dOut]
			for j := range dst {
				dst[j] += src[j]
			}
		}
		inv := 1 / float32(max(n, 1))
		for j := range dst {
			dst[j] *= inv
		}
	}
	final := ws.final[:br*Dim]
	fillRows(final, p.finalBias, br)
	gemm(m.kernel.gemm, threads, br, pooled, dOut, p.final, final, Dim)
	for i := range seqs {
		tanhNormalize(final[i*Dim:(i+1)*Dim], out[i], p.l2Eps)
	}
}

// layer runs one transformer layer on the packed rows: in (rows × lp.dIn) → y (rows × lp.dOut). in
// and y may be the same buffer when the layer has no residual projection.
func (m *Model) layer(ws *workspace, lp *layerParams, rows, total int, seqs [][]int32, in, y []float32) {
	threads := m.opts.threads
	dIn, dA, dOut, dFFN := lp.dIn, lp.dAttn, lp.dOut, lp.ffn1.cols
	h := ws.h[:rows*max(dIn, dOut)]
	qkv := ws.qkv[:rows*3*dA]
	att := ws.att[:rows*dA]
	f := ws.ffn[:rows*dFFN]

	// The element-wise work around the matrix products runs in row ranges on all threads, each stage
	// in one pass: layer norm of the input and the q/k/v bias; the output bias; layer norm, FFN bias.
	forRows(threads, rows, func(r0, r1 int) {
		layerNormRows(h[r0*dIn:r1*dIn], in[r0*dIn:r1*dIn], dIn, r1-r0, lp.attnNorm)
		fillRows(qkv[r0*3*dA:r1*3*dA], lp.qkvBias, r1-r0)
	})
	gemm(m.kernel.gemm, threads, rows, h, dIn, lp.qkv, qkv, 3*dA)
	clear(att[total*dA:])
	attention(ws, lp, &m.kernel, seqs, qkv, att, threads)

	if lp.resid != nil {
		forRows(threads, rows, func(r0, r1 int) { fillRows2(y[r0*dOut:r1*dOut], lp.outBias, lp.residB, r1-r0) })
		gemm(m.kernel.gemm, threads, rows, in, dIn, lp.resid, y, dOut)
	} else {
		forRows(threads, rows, func(r0, r1 int) { addRows(y[r0*dOut:r1*dOut], lp.outBias, r1-r0) })
	}
	gemm(m.kernel.gemm, threads, rows, att, dA, lp.out, y, dOut)

	forRows(threads, rows, func(r0, r1 int) {
		layerNormRows(h[r0*dOut:r1*dOut], y[r0*dOut:r1*dOut], dOut, r1-r0, lp.ffnNorm)
		fillRows(f[r0*dFFN:r1*dFFN], lp.ffn1B, r1-r0)
	})
	gemm(m.kernel.gemm, threads, rows, h, dOut, lp.ffn1, f, dFFN)
	forRows(threads, rows, func(r0, r1 int) {
		m.kernel.relu(f[r0*dFFN : r1*dFFN])
		addRows(y[r0*dOut:r1*dOut], lp.ffn2B, r1-r0)
	})
	gemm(m.kernel.gemm, threads, rows, f, dFFN, lp.ffn2, y, dOut)
}

// forRows calls fn on contiguous row ranges covering [0, rows), on up to threads goroutines; small
// inputs run on the caller's goroutine.
func forRows(threads, rows int, fn func(r0, r1 int)) {
	const minRowsPerThread = 32
	workers := min(threads, rows/minRowsPerThread)
	if workers <= 1 {
		fn(0, rows)
		return
	}
	var wg sync.WaitGroup
	for w := 1; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			fn(rows*w/workers, rows*(w+1)/workers)
		}()
	}
	fn(0, rows/workers)
	wg.Wait()
}

// attention computes scaled dot-product attention within each text (tokens never attend across
// texts, which is what the reference's padding mask achieves) for every head, writing the heads'
// outputs side by side into att.
func attention(ws *workspace, lp *layerParams, k *kernel, seqs [][]int32, qkv, att []float32, threads int) {
	n := len(seqs) * lp.heads
	var next atomic.Int32
	run := func(worker int) {
		scores := ws.scores[worker]
		for {
			t := int(next.Add(1)) - 1
			if t >= n {
				return
			}
			s, hd := t/lp.heads, t%lp.heads
			attendHead(lp, k, ws.starts[s], ws.starts[s+1]-ws.starts[s], hd, qkv, att, scores)
		}
	}
	workers := min(threads, n)
	if total := ws.starts[len(seqs)]; workers <= 1 || total < 64 {
		run(0)
		return
	}
	var wg sync.WaitGroup
	for w := 1; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			run(w)
		}()
	}
	run(0)
	wg.Wait()
}

func attendHead(lp *layerParams, kern *kernel, start, n, head int, qkv, att, scores []float32) {
	dA, hd := lp.dAttn, lp.headDim
	stride := 3 * dA
	qOff, kOff, vOff := head*hd, dA+head*hd, 2*dA+head*hd
	sc := scores[:n*n]
	for i := 0; i < n; i++ {
		q := qkv[(start+i)*stride+qOff : (start+i)*stride+qOff+hd]
		row := sc[i*n : (i+1)*n]
		maxv := float32(math.Inf(-1))
		for j := 0; j < n; j++ {
			k := qkv[(start+j)*stride+kOff : (start+j)*stride+kOff+hd]
			v := kern.dot(q, k) * lp.qScale
			row[j] = v
			maxv = max(maxv, v)
		}
		var sum float32
		for j := range row {
			e := float32(math.Exp(float64(row[j] - maxv)))
			row[j] = e
			sum += e
		}
		inv := 1 / sum
		o := att[(start+i)*dA+head*hd : (start+i)*dA+head*hd+hd]
		clear(o)
		for j := 0; j < n; j++ {
			v := qkv[(start+j)*stride+vOff : (start+j)*stride+vOff+hd]
			kern.axpy(o, v, row[j]*inv)
		}
	}
}

func relu(x []float32) {
	for i, v := range x {
		if v < 0 {
			x[i] = 0
		}
	}
}

func dot(a, b []float32) float32 {
	b = b[:len(a)]
	var s0, s1, s2, s3 float32
	i := 0
	for ; i+4 <= len(a); i += 4 {
		s0 += a[i] * b[i]
		s1 += a[i+1] * b[i+1]
		s2 += a[i+2] * b[i+2]
		s3 += a[i+3] * b[i+3]
	}
	for ; i < len(a); i++ {
		s0 += a[i] * b[i]
	}
	return (s0 + s1) + (s2 + s3)
}

func axpy(dst, x []float32, alpha float32) {
	x = x[:len(dst)]
	for i := range dst {
		dst[i] += alpha * x[i]
	}
}

// layerNormRows normalises each of the rows of in (width d) into out, as the graph does:
// (x − mean) · rsqrt(variance + eps) · scale + bias.
func layerNormRows(out, in []float32, d, rows int, n layerNormParams) {
	for r := 0; r < rows; r++ {
		layerNorm(out[r*d:(r+1)*d], in[r*d:(r+1)*d], n)
	}
}

func layerNorm(out, in []float32, n layerNormParams) {
	d := len(in)
	var sum float64
	for _, v := range in {
		sum += float64(v)
	}
	mean := float32(sum / float64(d))
	var sq float64
	for _, v := range in {
		c := float64(v - mean)
		sq += c * c
	}
	rs := float32(1 / math.Sqrt(sq/float64(d)+float64(n.eps)))
	out = out[:d]
	scale, bias := n.scale[:d], n.bias[:d]
	for i, v := range in {
		out[i] = scale[i]*rs*(v-mean) + bias[i]
	}
}

func fillRows(dst, row []float32, rows int) {
	d := len(row)
	for r := 0; r < rows; r++ {
		copy(dst[r*d:(r+1)*d], row)
	}
}

func fillRows2(dst, a, b []float32, rows int) {
	d := len(a)
	for r := 0; r < rows; r++ {
		out := dst[r*d : (r+1)*d]
		for i := range out {
			out[i] = a[i] + b[i]
		}
	}
}

func addRows(dst, row []float32, rows int) {
	d := len(row)
	for r := 0; r < rows; r++ {
		out := dst[r*d : (r+1)*d]
		for i := range out {
			out[i] += row[i]
		}
	}
}

// tanhNormalize writes tanh(in) scaled to unit L2 norm (with the graph's epsilon) into out.
func tanhNormalize(in, out []float32, eps float32) {
	var sq float64
	for i, v := range in {
		t := float32(math.Tanh(float64(v)))
		out[i] = t
		sq += float64(t) * float64(t)
	}
	inv := float32(1 / math.Sqrt(math.Max(sq, float64(eps))))
	for i := range out {
		out[i] *= inv
	}
}
