package uselite

import "math"

// forwardNaive is the straightforward implementation kept as the baseline: one text at a time,
// row-major weights, triple-loop matrix products, one goroutine. It shares nothing with the
// optimised path but the small helpers (layer norm, dot products, tanh/normalise).
func (p *params) forwardNaive(ids []int32, out []float32) {
	n := len(ids)
	d := p.embDim
	x := make([]float32, n*d)
	for pos, id := range ids {
		for j := 0; j < d; j++ {
			e := p.embedding[int(id)*d+j]
			x[pos*d+j] = (e + p.timing[pos*d+j]) + e
		}
	}
	for l := range p.layers {
		x = p.layers[l].forwardNaive(x, n)
	}
	dOut := p.layers[len(p.layers)-1].dOut
	pooled := make([]float32, dOut)
	for i := 0; i < n; i++ {
		for j := 0; j < dOut; j++ {
			pooled[j] += x[i*dOut+j]
		}
	}
	for j := range pooled {
		pooled[j] /= float32(max(n, 1))
	}
	v := naiveMatMul(pooled, 1, p.final)
	for j := range v {
		v[j] += p.finalBias[j]
	}
	tanhNormalize(v, out, p.l2Eps)
}

func (lp *layerParams) forwardNaive(x []float32, n int) []float32 {
	h := make([]float32, n*lp.dIn)
	for i := 0; i < n; i++ {
		layerNorm(h[i*lp.dIn:(i+1)*lp.dIn], x[i*lp.dIn:(i+1)*lp.dIn], lp.attnNorm)
	}
	qkv := naiveMatMul(h, n, lp.qkv)
	addBias(qkv, lp.qkvBias)
	dA, hd := lp.dAttn, lp.headDim
	att := make([]float32, n*dA)
	scores := make([]float32, n)
	for head := 0; head < lp.heads; head++ {
		for i := 0; i < n; i++ {
			q := qkv[i*3*dA+head*hd : i*3*dA+head*hd+hd]
			maxv := float32(math.Inf(-1))
			for j := 0; j < n; j++ {
				k := qkv[j*3*dA+dA+head*hd : j*3*dA+dA+head*hd+hd]
				scores[j] = dot(q, k) * lp.qScale
				maxv = max(maxv, scores[j])
			}
			var sum float32
			for j := range scores {
				scores[j] = float32(math.Exp(float64(scores[j] - maxv)))
				sum += scores[j]
			}
			for j := 0; j < n; j++ {
				v := qkv[j*3*dA+2*dA+head*hd : j*3*dA+2*dA+head*hd+hd]
				axpy(att[i*dA+head*hd:i*dA+head*hd+hd], v, scores[j]/sum)
			}
		}
	}
	y := naiveMatMul(att, n, lp.out)
	addBias(y, lp.outBias)
	if lp.resid != nil {
		r := naiveMatMul(x, n, lp.resid)
		addBias(r, lp.residB)
		for i := range y {
			y[i] += r[i]
		}
	} else {
		for i := range y {
			y[i] += x[i]
		}
	}
	h = make([]float32, n*lp.dOut)
	for i := 0; i < n; i++ {
		layerNorm(h[i*lp.dOut:(i+1)*lp.dOut], y[i*lp.dOut:(i+1)*lp.dOut], lp.ffnNorm)
	}
	f := naiveMatMul(h, n, lp.ffn1)
	addBias(f, lp.ffn1B)
	for i, v := range f {
		f[i] = max(v, 0)
	}
	f2 := naiveMatMul(f, n, lp.ffn2)
	addBias(f2, lp.ffn2B)
	for i := range y {
		y[i] += f2[i]
	}
	return y
}

// naiveMatMul returns A (n × w.rows) · W with a plain triple loop. The loop order is i-k-j (row of A
// times rows of W, accumulated into a row of C), the order a straightforward implementation uses
// because it reads W sequentially; the textbook i-j-k order strides through W by columns and is about
// ten times slower still.
func naiveMatMul(a []float32, n int, w *matrix) []float32 {
	K, N := w.rows, w.cols
	c := make([]float32, n*N)
	for i := 0; i < n; i++ {
		crow := c[i*N : (i+1)*N]
		for k := 0; k < K; k++ {
			x := a[i*K+k]
			wrow := w.data[k*N : (k+1)*N]
			for j := range crow {
				crow[j] += x * wrow[j]
			}
		}
	}
	return c
}

func addBias(x, bias []float32) {
	d := len(bias)
	for i := range x {
		x[i] += bias[i%d]
	}
}
